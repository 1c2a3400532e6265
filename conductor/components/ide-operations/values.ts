// What the `ide_operation` evaluator works with: JSON values, the IDE backend it calls (one method
// per `_symposium/ide/*` operation, bound to the agent's session) and its two error kinds. Shared
// by evaluate.ts, functions.ts and the typed tools; pure.
import type { IdeOperation, IdeParams, IdeResult } from '../../../src/protocol/ideOperations';

export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

/** The upstream IDE as the evaluator sees it: one call per operation, bound to a session. */
export interface IdeBackend {
  call<O extends IdeOperation>(operation: O, params: Omit<IdeParams<O>, 'sessionId'>): Promise<IdeResult<O>>;
}

/** A failure of the IDE itself (no IDE, a refused path, a timeout): not the program's fault. */
export class IdeCallError extends Error {
  constructor(
    message: string,
    readonly unavailable = false,
  ) {
    super(message);
    this.name = 'IdeCallError';
  }
}

/** A wrong argument to a function: the evaluator adds the function's name and usage. */
export class ArgumentError extends Error {}

/** A value in a message: "the string \"x\"", "a list of 3", "an object". */
export function describe(v: Value | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `the ${typeof v} ${String(v)}`;
}
