// The class the ide-operations host tests look up: defined here, used in main.ts and report.ts.
import type { Token, Tokenizer } from './tokens';

export class Parser implements Tokenizer {
  constructor(private readonly strict: boolean) {}

  tokenize(text: string): Token[] {
    return text.split(/\s+/).filter(Boolean).map((t) => ({ kind: /^\d+$/.test(t) ? 'number' : 'word', text: t }));
  }

  parse(text: string): number {
    const tokens = this.tokenize(text);
    if (this.strict && tokens.some((t) => t.kind !== 'number')) throw new Error('numbers only');
    return tokens.length;
  }
}

export function makeParser(): Parser {
  return new Parser(false);
}
