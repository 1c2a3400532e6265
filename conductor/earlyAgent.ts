// The agent the launcher started before the conductor was loaded (launcher.ts), handed to the
// AgentProcess that would have started it. Starting an agent (Node, Python, a model client) takes
// longer than loading the conductor, so the two overlap instead of adding up: the conductor's
// cold start stays close to that of a bare relay.
//
// The hand-over is on the process, not in a module, because the launcher and the conductor are
// separate bundles. It is taken only for the very command, arguments and environment the
// conductor would start; anything else (the command line was wrong, a variable changed) and the
// early process is ended and a new one started, so the early start can change nothing but timing.
import type { ChildProcess } from 'node:child_process';
import { endGroup, spawnInGroup } from '../src/node/processGroup';

export interface EarlyAgent {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  child: ChildProcess;
  /** The spawn failed (ENOENT…) before the conductor took over: 'error' has been emitted. */
  error?: Error;
}

const SLOT = Symbol.for('symposium.conductor.earlyAgent');
const holder = globalThis as { [SLOT]?: EarlyAgent };

/** Starts the agent now, as AgentProcess would (own process group, stdin/stdout/stderr piped). */
export function startEarlyAgent(command: string, args: readonly string[], env: NodeJS.ProcessEnv): void {
  const child = spawnInGroup(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env });
  const early: EarlyAgent = { command, args, env, child };
  // Until the conductor listens, an 'error' event must not go unheard (it would throw).
  child.once('error', (err) => (early.error = err));
  holder[SLOT] = early;
}

/**
 * The early agent, if it was started with exactly this command line and environment; it is
 * then the caller's. Taken once: later calls (a restart) get undefined. A mismatch ends it.
 */
export function takeEarlyAgent(command: string, args: readonly string[], env: NodeJS.ProcessEnv): EarlyAgent | undefined {
  const early = holder[SLOT];
  delete holder[SLOT];
  if (!early) return undefined;
  if (early.command === command && sameList(early.args, args) && sameEnv(early.env, env)) return early;
  const pid = early.child.pid;
  early.child.stdin?.destroy();
  if (pid !== undefined) void endGroup(pid, 0);
  return undefined;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

function sameEnv(a: NodeJS.ProcessEnv, b: NodeJS.ProcessEnv): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
