// A second file that uses Parser, and the one type error the diagnostics test expects.
import { Parser } from './parser';

export function report(text: string): string {
  const p: Parser = new Parser(false);
  return `${p.parse(text)} tokens`;
}

export const total: number = report('1 2 3');
