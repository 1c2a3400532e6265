// Tokens of the tiny expression language the ide-operations host tests look up.
export interface Token {
  kind: 'number' | 'word';
  text: string;
}

/** Anything that can be turned into tokens. */
export interface Tokenizer {
  tokenize(text: string): Token[];
}
