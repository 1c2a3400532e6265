// The shape of ElizACP's script data (script.ts, script-coding.ts), in its own file so the two
// halves of the script can both use it without importing each other.

export interface Rule {
  readonly pattern: string;
  readonly replies: readonly string[];
}

export interface Keyword {
  readonly words: readonly string[];
  readonly rank: number;
  readonly rules: readonly Rule[];
}
