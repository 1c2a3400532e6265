// The conductor process the extension talks ACP to, as an OS process: spawning it (in a process
// group of its own, so ending it ends everything it started), its stderr (every line passed on,
// the last ones kept as the clue shown when it dies), its exit, and ending it (close stdin, then
// SIGTERM, then SIGKILL to the whole group). It knows nothing of ACP: the agent actor puts an ACP
// client on its stdio (acpClient.ts); the language-model provider can reuse it the same way.
//
// Two disposal scopes. `processScope` holds what depends on the current process (its connection,
// its listeners) and is disposed when that process ends; spawning again after an exit (a
// restart) gets a fresh one. `dispose()` ends the owner's own lifetime (as long as the extension
// needs it): it stops the process and drops the listeners of `onDidExit`. vscode-free.
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Log } from '../log/logEvent';
import { within } from '../node/deadline';
import { DisposableBase, DisposableStore } from '../node/disposable';
import { Emitter } from '../util/emitter';
import { spawnEnv, type SpawnSpec } from './agentConfiguration';
import { StderrTail } from '../node/stderrTail';
import { endLedgerGroups, signalGroup, spawnInGroup, spawnWithLedger, untrackGroup } from '../node/processGroup';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  spawnError?: string;
}

/** How a process ended; `expected` when stop() asked for it. */
export interface ProcessExit extends ExitInfo {
  expected: boolean;
}

export interface ConductorProcessOptions {
  /** Who the process serves (the agent's name), for the log. */
  name: string;
  spec: SpawnSpec;
  log: Log;
  /** Time for the process to end after stdin closes, and again after SIGTERM. */
  graceMs?: number;
  /** Every stderr line of the process (conductor and agent logs). */
  onStderrLine?: (line: string) => void;
  /**
   * Every line of the conductor's protocol trace. When set, the process gets a fourth pipe (fd 3,
   * named to it by SYMPOSIUM_TRACE_FD, conductor/trace.ts) and writes its trace there.
   */
  onTraceLine?: (line: string) => void;
}

/** Must equal TRACE_FD_VAR in conductor/startupEnv.ts. */
export const TRACE_FD_VAR = 'SYMPOSIUM_TRACE_FD';
/** Must equal STARTUP_FD_VAR in conductor/startupEnv.ts. */
export const STARTUP_FD_VAR = 'SYMPOSIUM_STARTUP_FD';
/** The conductor's descriptor for the trace pipe, and the one for the start-up pipe (spec.startup). */
const TRACE_FD = 3;
const STARTUP_FD = 4;
/** A trace line longer than this is skipped (the conductor's own line limit). */
const MAX_TRACE_LINE_CHARS = 64 * 1024 * 1024;

/** One spawned process and what belongs to it. */
interface Run {
  child: ChildProcess;
  exit?: ExitInfo;
  exited: Promise<ExitInfo>;
  resolveExited: (e: ExitInfo) => void;
  stderr: StderrTail;
  /** The file where the process writes down the process groups it starts (its agent's, its servers'). */
  ledger?: string;
  stopRequested: boolean;
  stopping?: Promise<void>;
}

export class ConductorProcess extends DisposableBase {
  private run: Run | undefined;
  private scope = new DisposableStore();
  private readonly exits = new Emitter<ProcessExit>();

  /** The current process ended, by stop() or on its own. Fires once per process. */
  readonly onDidExit = this.exits.event;

  constructor(private readonly options: ConductorProcessOptions) {
    super();
  }

  /** Disposed when the current (or, before the first spawn, the next) process ends. */
  get processScope(): DisposableStore {
    return this.scope;
  }
  get pid(): number | undefined {
    return this.run?.child.pid;
  }
  /** Set once the current process has ended. */
  get exitInfo(): ExitInfo | undefined {
    return this.run?.exit;
  }
  /** A process was spawned and has not ended yet. */
  get running(): boolean {
    return this.run !== undefined && this.run.exit === undefined;
  }

  /** The last stderr lines of the current process. */
  stderrText(): string {
    return this.run?.stderr.text() ?? '';
  }

  /** Resolves when the current process has ended (never, if none was spawned). */
  whenExited(): Promise<ExitInfo> {
    return this.run?.exited ?? new Promise(() => undefined);
  }

  /** Spawns the process and returns its stdio; after an exit, spawns a new one (a restart). */
  spawn(): { stdin: Writable; stdout: Readable } {
    if (this.isDisposed) throw new Error('the conductor process owner is disposed');
    if (this.running) throw new Error('the conductor process is already running');
    if (this.scope.isDisposed) this.scope = new DisposableStore();
    const { spec, log } = this.options;
    log.info('agent', 'spawning', { agent: this.options.name, command: spec.command, args: spec.args, cwd: spec.cwd });
    // Own process group (the shared process-group code), so stop() can signal the conductor and
    // what it started in its group, and the group is killed if the extension host exits first.
    const onTraceLine = this.options.onTraceLine;
    const env = spawnEnv(process.env, spec);
    if (onTraceLine) env[TRACE_FD_VAR] = String(TRACE_FD);
    // The agent's and proxies' environments go on a pipe the conductor reads once at start: in its
    // environment they would stay readable in /proc/<pid>/environ for its whole life.
    if (spec.startup) env[STARTUP_FD_VAR] = String(STARTUP_FD);
    const stdio: SpawnOptions['stdio'] = ['pipe', 'pipe', 'pipe'];
    if (onTraceLine || spec.startup) stdio.push(onTraceLine ? 'pipe' : 'ignore');
    if (spec.startup) stdio.push('pipe');
    // The agent and language servers get groups of their own, out of reach of a signal to the
    // conductor's: the conductor writes them down, and onExit ends them if it could not.
    const ledger = makeLedger(log);
    const options: SpawnOptions = { cwd: spec.cwd, env, stdio };
    const child = ledger ? spawnWithLedger(spec.command, spec.args, ledger, options) : spawnInGroup(spec.command, spec.args, options);
    const startupPipe = child.stdio[STARTUP_FD] as Writable | null | undefined;
    if (spec.startup && startupPipe) {
      startupPipe.on('error', (err) => log.debug('agent', 'start-up pipe error', err)); // the process's exit tells the story
      startupPipe.end(JSON.stringify(spec.startup));
    }
    const trace = child.stdio[TRACE_FD] as Readable | null | undefined;
    if (onTraceLine && trace) readLines(trace, onTraceLine, () => log.warn('agent', 'a trace line over the limit was skipped'));
    let resolveExited!: (e: ExitInfo) => void;
    const exited = new Promise<ExitInfo>((r) => (resolveExited = r));
    const run: Run = { child, exited, resolveExited, stderr: new StderrTail(), ledger, stopRequested: false };
    this.run = run;
    child.on('error', (err) => this.onExit(run, { code: null, signal: null, spawnError: err.message }));
    child.on('exit', (code, signal) => {
      // Let stdout/stderr drain (the conductor's last notification, the stderr tail) first.
      const onClose = (): void => this.onExit(run, { code, signal });
      const timer = setTimeout(onClose, 500);
      child.once('close', () => {
        clearTimeout(timer);
        onClose();
      });
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => run.stderr.push(d, (line) => this.options.onStderrLine?.(line)));
    child.stdin?.on('error', (err) => log.debug('agent', 'stdin error', err));
    return { stdin: child.stdin!, stdout: child.stdout! };
  }

  /**
   * Ends the current process: `prepare` runs first (the ACP side winds down), then stdin closes
   * (the conductor exits on EOF), then SIGTERM, then SIGKILL to the whole group. Idempotent.
   */
  stop(reason: string, prepare?: () => Promise<void>): Promise<void> {
    const run = this.run;
    if (!run || run.exit) {
      this.scope.dispose();
      return Promise.resolve();
    }
    run.stopRequested = true;
    run.stopping ??= this.doStop(run, reason, prepare);
    return run.stopping;
  }

  private async doStop(run: Run, reason: string, prepare?: () => Promise<void>): Promise<void> {
    const { log, graceMs = 2_000 } = this.options;
    const pid = run.child.pid;
    log.info('agent', 'stopping', { agent: this.options.name, pid, reason });
    await prepare?.();
    run.child.stdin?.end();
    if (!(await this.runExitedWithin(run, graceMs))) {
      log.warn('agent', 'did not exit after stdin closed; SIGTERM', { pid });
      this.signalConductorGroup(run, 'SIGTERM');
      if (!(await this.runExitedWithin(run, graceMs))) {
        log.warn('agent', 'did not exit after SIGTERM; SIGKILL', { pid });
        this.signalConductorGroup(run, 'SIGKILL');
        await this.runExitedWithin(run, 1_000);
      }
    }
    this.scope.dispose();
  }

  /** Whether the current process ends within `ms` (true at once if it already has). */
  exitedWithin(ms: number): Promise<boolean> {
    return this.run ? this.runExitedWithin(this.run, ms) : Promise.resolve(false);
  }

  private async runExitedWithin(run: Run, ms: number): Promise<boolean> {
    return (await within(ms, run.exited)) !== undefined;
  }

  private onExit(run: Run, info: ExitInfo): void {
    if (run.exit) return;
    run.exit = info;
    run.stderr.end((line) => this.options.onStderrLine?.(line));
    // Whatever the conductor left behind goes too: in its group (MCP servers), and in the groups
    // it wrote down (the agent and what it started, language servers), which it ends itself on
    // every way out but SIGKILL.
    this.signalConductorGroup(run, 'SIGKILL');
    if (run.ledger) {
      const orphans = endLedgerGroups(run.ledger);
      if (orphans > 0) this.options.log.warn('agent', 'ended process groups the conductor left running', { groups: orphans });
      rmSync(dirname(run.ledger), { recursive: true, force: true });
    }
    run.resolveExited(info);
    this.exits.fire({ ...info, expected: run.stopRequested });
    this.scope.dispose();
  }

  private signalConductorGroup(run: Run, signal: NodeJS.Signals): void {
    const pid = run.child.pid;
    if (pid === undefined) return;
    signalGroup(pid, signal);
    if (signal === 'SIGKILL') untrackGroup(pid);
  }

  /** The end of the owner's lifetime: stops the process and drops every listener. */
  override async dispose(): Promise<void> {
    if (this.isDisposed) return;
    super.dispose();
    await this.stop('disposed');
    this.exits.dispose();
  }
}

/** Calls `onLine` for every line of `stream` (UTF-8, newline-separated). */
function readLines(stream: Readable, onLine: (line: string) => void, onTooLong: () => void): void {
  let partial = '';
  let skipping = false;
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => {
    const parts = (partial + text).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      if (skipping) skipping = false;
      else if (line) onLine(line);
    }
    if (partial.length > MAX_TRACE_LINE_CHARS) {
      partial = '';
      skipping = true;
      onTooLong();
    }
  });
  stream.on('error', () => undefined); // the process's exit tells the story
}

/**
 * A process's ledger of groups, in a private directory of its own; undefined (logged) when none can
 * be made (a full or read-only temporary folder): the process then runs without one rather than
 * not at all.
 */
function makeLedger(log: Log): string | undefined {
  try {
    return join(mkdtempSync(join(tmpdir(), 'symposium-groups-')), 'groups');
  } catch (err) {
    log.warn('agent', 'no folder for the ledger of process groups; a conductor killed outright may leave its agent running', err);
    return undefined;
  }
}
