// The vscode-free part of ACP terminals: one command the editor runs for an agent (a process in
// its own process group; a shell only for a whole shell line, invocationOf), its capped output, its exit, kill (SIGTERM to the group, then
// SIGKILL; the group handling is src/node/processGroup.ts, shared with the conductor) and the throttled snapshots for the chat's tool card. What the user sees in VS Code
// (a Pseudoterminal) is plugged in as a TerminalMirror by terminals.ts.
import type { ChildProcess } from 'node:child_process';
import type { Log } from '../log/logEvent';
import { endGroup, signalGroup, spawnInGroup } from '../node/processGroup';
import type { TerminalOutput } from '../protocol/webview';
import { OutputBuffer, StreamDecoder } from './outputBuffer';

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
}

/** Where a running command is mirrored for the user (a VS Code terminal; a fake in unit tests). */
export interface TerminalMirror {
  /** Text the process printed (whole characters, `\n` line ends as printed). */
  write(text: string): void;
  /** The process ended (the mirror stays until disposed). */
  exited(status: ExitStatus): void;
  dispose(): void;
}

export interface MirrorInfo {
  terminalId: string;
  commandLine: string;
  cwd: string;
  /** The user closed the mirror: the process is killed. */
  onUserClose(): void;
  /** The user pressed Ctrl+C in the mirror. */
  onInterrupt(): void;
}

export interface CommandSpec {
  terminalId: string;
  actorKey: string;
  sessionId: string;
  tabId: string;
  command: string;
  args: string[];
  commandLine: string;
  cwd: string;
  env: Record<string, string>;
  outputByteLimit: number;
}

export interface CommandOptions {
  log: Log;
  onOutput(payload: TerminalOutput): void;
  makeMirror(info: MirrorInfo): TerminalMirror;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs: number;
  /** At most one output snapshot per this many ms (plus one at exit). */
  throttleMs: number;
  /** The chat card gets at most this many bytes (the tail) of the output. */
  chatOutputBytes: number;
}

/**
 * What to start for a `terminal/create`. A `command` with `args` is a program and its arguments,
 * started without a shell (what the card shows is exactly what runs). Some agents (Claude Code)
 * put a whole shell line in `command` with no `args` (`cd x && npm test`): that runs as the agent
 * means it, through a POSIX shell (the user's, when it is one), and the user is shown the line as
 * written. A bare program name, or the path of a program that exists (spaces and all), with no
 * `args` is still started directly. Pure, given `isProgram`.
 */
export function invocationOf(
  command: string,
  args: readonly string[],
  shell: string | undefined,
  isProgram: (path: string) => boolean,
): { program: string; args: string[]; shellLine?: string } {
  if (args.length > 0 || !/[\s|&;<>()$`"'*?[\]{}~!#=]/.test(command) || isProgram(command)) return { program: command, args: [...args] };
  const posix = shell && /(?:^|\/)(?:bash|zsh|sh|dash|ksh)$/.test(shell) ? shell : '/bin/sh';
  return { program: posix, args: ['-c', command], shellLine: command };
}

/** Shell-style quoting for display (and so the user sees exactly which words the program gets). */
export function formatCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args]
    .map((a) => {
      if (/^[\w@%+=:,./-]+$/.test(a)) return a;
      if (!/["$`\\!]/.test(a)) return `"${a}"`;
      return `'${a.replace(/'/g, `'\\''`)}'`;
    })
    .join(' ');
}

export class RunningCommand {
  readonly exited: Promise<ExitStatus>;
  private resolveExited!: (s: ExitStatus) => void;
  private status: ExitStatus | undefined;
  private readonly buffer: OutputBuffer;
  private readonly decoders = { out: new StreamDecoder(), err: new StreamDecoder() };
  private mirror: TerminalMirror | undefined;
  private outputTimer: NodeJS.Timeout | undefined;
  private lastSent = 0;
  /** Set once kill() has started ending the process group. */
  private ending: Promise<void> | undefined;
  private released = false;

  private constructor(
    readonly spec: CommandSpec,
    private readonly child: ChildProcess,
    private readonly options: CommandOptions,
  ) {
    this.exited = new Promise((r) => (this.resolveExited = r));
    this.buffer = new OutputBuffer(spec.outputByteLimit);
  }

  /** Spawns the process; rejects when it cannot be started (no such program, …). */
  static async start(spec: CommandSpec, options: CommandOptions): Promise<RunningCommand> {
    // Its own process group (src/node/processGroup.ts), so kill reaches everything it started,
    // and the group is killed if the extension host exits first.
    const child = spawnInGroup(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    const running = new RunningCommand(spec, child, options);
    running.attach();
    return running;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get exitStatus(): ExitStatus | undefined {
    return this.status;
  }

  private attach(): void {
    const { child, spec, options } = this;
    options.log.info('terminal', 'started', {
      terminalId: spec.terminalId,
      pid: child.pid,
      commandLine: spec.commandLine,
      cwd: spec.cwd,
      env: Object.keys(spec.env),
    });
    this.mirror = options.makeMirror({
      terminalId: spec.terminalId,
      commandLine: spec.commandLine,
      cwd: spec.cwd,
      onUserClose: () => {
        this.mirror = undefined;
        if (!this.status) {
          options.log.info('terminal', 'closed by the user; killing', { terminalId: spec.terminalId });
          this.kill();
        }
      },
      onInterrupt: () => {
        if (!this.status && child.pid !== undefined) signalGroup(child.pid, 'SIGINT');
      },
    });
    child.on('error', (err) => options.log.warn('terminal', 'process error', { terminalId: spec.terminalId, error: err.message }));
    child.stdout!.on('data', (d: Buffer) => this.onText(this.decoders.out.write(d)));
    child.stderr!.on('data', (d: Buffer) => this.onText(this.decoders.err.write(d)));
    child.once('exit', (code, signal) => {
      // Let the pipes drain first, but do not wait for a grandchild that keeps them open.
      const timer = setTimeout(() => this.onExit(code, signal), 300);
      child.once('close', () => {
        clearTimeout(timer);
        this.onExit(code, signal);
      });
    });
  }

  private onText(text: string): void {
    if (!text) return;
    this.buffer.append(text);
    this.mirror?.write(text);
    this.scheduleOutput();
  }

  private onExit(exitCode: number | null, signal: NodeJS.Signals | null): void {
    if (this.status) return;
    this.onText(this.decoders.out.end() + this.decoders.err.end());
    const status: ExitStatus = { exitCode, signal };
    this.status = status;
    this.options.log.info('terminal', 'exited', { terminalId: this.spec.terminalId, pid: this.child.pid, ...status });
    this.mirror?.exited(status);
    clearTimeout(this.outputTimer);
    this.outputTimer = undefined;
    this.sendOutput();
    this.resolveExited(status);
  }

  /** The agent's view (terminal/output). */
  snapshot(): { output: string; truncated: boolean; exitStatus?: ExitStatus } {
    const { text, truncated } = this.buffer.text();
    return { output: text, truncated, ...(this.status ? { exitStatus: this.status } : {}) };
  }

  private scheduleOutput(): void {
    if (this.outputTimer || this.status) return;
    const wait = Math.max(0, this.lastSent + this.options.throttleMs - Date.now());
    this.outputTimer = setTimeout(() => {
      this.outputTimer = undefined;
      this.sendOutput();
    }, wait);
  }

  private sendOutput(): void {
    this.lastSent = Date.now();
    const { text, truncated } = this.buffer.text(this.options.chatOutputBytes);
    const { terminalId, tabId, commandLine } = this.spec;
    try {
      this.options.onOutput({
        type: 'terminal-output',
        tabId,
        terminalId,
        command: commandLine,
        output: text,
        truncated,
        ...(this.status ? { exitStatus: this.status } : {}),
      });
    } catch (e) {
      this.options.log.warn('terminal', 'could not show output', e);
    }
  }

  /**
   * SIGTERM to the process group, SIGKILL after the grace period if anything is left. After the
   * command exited, this ends whatever it left running in its group.
   */
  kill(): void {
    const pid = this.child.pid;
    if (pid === undefined || this.ending) return;
    if (!this.status) this.options.log.info('terminal', 'killing', { terminalId: this.spec.terminalId, pid });
    this.ending = endGroup(pid, this.options.killGraceMs);
  }

  /** terminal/release: kill if running, close the mirror. Output may still reach the chat at exit. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.kill();
    this.mirror?.dispose();
    this.mirror = undefined;
  }
}
