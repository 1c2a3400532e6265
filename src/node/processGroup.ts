// Child processes that must not outlive us, with everything they start. On POSIX a child is
// spawned as the leader of its own process group, so one signal to the group reaches its
// children and grandchildren too (a plain kill() reaches only the child, and whatever it
// started lives on). Ending a group is SIGTERM, then SIGKILL for whatever is still there after
// a grace period; and if this process exits first, every group still tracked gets SIGKILL on
// the way out (the 'exit' hook is synchronous, so there is no time for a grace period then).
// Windows has no process groups: there only the child itself is signalled.
// Used by the conductor for its agent and by the extension host for ACP terminals
// (src/editor/terminalProcess.ts).
//
// A process killed with SIGKILL runs no exit hook, and the groups it started (each its own
// session) are then nobody's: an agent that does not exit when its stdin closes would run on.
// So a process can be told (GROUPS_LEDGER_VAR, inherited by its children) to write down every
// group it starts; its owner ends whatever is still running of them once it has exited
// (endLedgerGroups). The extension does this for the conductor.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';

export const POSIX = process.platform !== 'win32';

/**
 * What this process tracks. Kept on the process, not in this module: the conductor's launcher
 * (out/conductor.js, conductor/launcher.ts) and the bundle it loads each carry a copy of this
 * module, and the agent the launcher starts is ended by the other copy, so both must see one
 * set of groups and install one exit hook.
 */
interface GroupsState {
  live: Set<number>;
  ending: Map<number, Promise<void>>;
  /** The ledgers of tracked groups (see GROUPS_LEDGER_VAR), by group. */
  ledgers: Map<number, string>;
  exitHookInstalled: boolean;
}
const STATE_KEY = Symbol.for('symposium.processGroups');
const holder = globalThis as { [STATE_KEY]?: GroupsState };
const state: GroupsState = (holder[STATE_KEY] ??= { live: new Set(), ending: new Map(), ledgers: new Map(), exitHookInstalled: false });
const { live, ending, ledgers } = state;

/** Spawns `command` in a new process group (POSIX), killed if this process exits first. */
export function spawnInGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, [...args], { ...options, detached: POSIX });
  if (child.pid !== undefined) {
    trackGroup(child.pid);
    writeToLedger(child.pid);
  }
  return child;
}

/** The file (named in the environment) where a process writes down the groups it starts. */
export const GROUPS_LEDGER_VAR = 'SYMPOSIUM_GROUPS_LEDGER';

/** Appends "pgid starttime" to the ledger this process was given, if any. */
function writeToLedger(pgid: number): void {
  const ledger = process.env[GROUPS_LEDGER_VAR];
  if (!ledger || !POSIX) return;
  try {
    appendFileSync(ledger, `${pgid} ${startTimeOf(pgid) ?? '-'}\n`, { mode: 0o600 });
  } catch {
    // The owner's directory is gone (it is ending us): nothing to record for.
  }
}

/**
 * SIGKILLs every group written in `ledger` that still has a process. A group id cannot be handed
 * out again while the group has members, so a group still there is the one written down; only
 * its leader's pid could have been reused by a new group leader, which the start time tells apart.
 * Returns how many groups were killed.
 */
export function endLedgerGroups(ledger: string): number {
  let text: string;
  try {
    text = readFileSync(ledger, 'utf8');
  } catch {
    return 0;
  }
  let killed = 0;
  for (const line of text.split('\n')) {
    const [pgidText, started] = line.split(' ');
    const pgid = Number(pgidText);
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    const leaderStart = startTimeOf(pgid);
    if (leaderStart !== undefined && started !== '-' && leaderStart !== started) continue;
    if (groupAlive(pgid) && signalGroup(pgid, 'SIGKILL')) killed++;
  }
  return killed;
}

/** A process's start time (Linux /proc, in clock ticks since boot), to tell a reused pid apart. */
function startTimeOf(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Remembers `pgid` so that it is SIGKILLed if this process exits while it may still run. */
export function trackGroup(pgid: number): void {
  live.add(pgid);
  if (state.exitHookInstalled) return;
  state.exitHookInstalled = true;
  process.once('exit', () => {
    for (const g of live) signalGroup(g, 'SIGKILL');
    for (const ledger of ledgers.values()) endLedgerGroups(ledger);
  });
}

/**
 * Spawns `command` as spawnInGroup does, telling it to write the groups it starts into `ledger`
 * (a file in a directory only we can write); if this process exits first, those are killed too.
 */
export function spawnWithLedger(command: string, args: readonly string[], ledger: string, options: SpawnOptions = {}): ChildProcess {
  const child = spawnInGroup(command, args, { ...options, env: { ...(options.env ?? process.env), [GROUPS_LEDGER_VAR]: ledger } });
  if (child.pid !== undefined) ledgers.set(child.pid, ledger);
  return child;
}

export function untrackGroup(pgid: number): void {
  live.delete(pgid);
  ledgers.delete(pgid);
}

/**
 * Sends `signal` to every process of the group led by `pgid`; false when none is left. A pgid
 * that cannot lead a group of ours is refused: kill(-0) would signal our own group and kill(-1)
 * every process we may signal (a pid read as 0 from an empty file once killed a whole test run).
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(POSIX ? -pgid : pgid, signal);
    return true;
  } catch (err) {
    // EPERM: something is there, just not ours to signal. ESRCH: nothing left.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether any process of the group still runs. kill(-pgid, 0) also succeeds for zombies, and
 * orphans killed after their parent died are reaped by init whenever it gets to it (in a
 * container, that can be never): on Linux, zombies do not count.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  try {
    return readdirSync('/proc').some((d) => {
      if (!/^\d+$/.test(d)) return false;
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === pgid && fields[0] !== 'Z';
      } catch {
        return false; // gone meanwhile
      }
    });
  } catch {
    return true;
  }
}

/**
 * SIGTERM to the group, then SIGKILL if anything is left after `graceMs`. Resolves once the
 * group is gone (or shortly after SIGKILL). Concurrent calls for one group share the work.
 */
export function endGroup(pgid: number, graceMs: number): Promise<void> {
  const running = ending.get(pgid);
  if (running) return running;
  const done = (async () => {
    if (signalGroup(pgid, 'SIGTERM') && !(await goneWithin(pgid, graceMs))) {
      signalGroup(pgid, 'SIGKILL');
      await goneWithin(pgid, 1000);
    }
    untrackGroup(pgid);
    ending.delete(pgid);
  })();
  ending.set(pgid, done);
  return done;
}

async function goneWithin(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!groupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
