// Owns the downstream agent process: spawn, stdout protocol, stderr capture, exit, stop.
// A non-JSON line on the agent's stdout (banners, stray logs) is reported and skipped; the
// session goes on. When the process exits, the owner is told the exit code, signal and the
// tail of stderr, so every pending request can fail at once with the reason.
//
// The agent runs in its own process group (src/node/processGroup.ts): agents start tools,
// language servers, shells, and a kill aimed at the agent alone leaves those running. So the
// whole group is ended (SIGTERM, then SIGKILL) on every way out: stop(), the agent exiting by
// itself (its children stay behind in the group), and the conductor exiting (SIGKILL from the
// process 'exit' hook).
//
// External proxies (components/external-proxy/) are child processes owned the same way: the
// class is used for them too, with `role` naming the process in logs and exit reports.
//
// The agent may already be running when this class is asked to start it: the launcher starts it
// before the conductor loads (earlyAgent.ts), and it is taken over here.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { within } from '../src/node/deadline';
import { endGroup, spawnInGroup } from '../src/node/processGroup';
import { StderrTail } from '../src/node/stderrTail';
import { takeEarlyAgent } from './earlyAgent';
import { LineChannel, type LineChannelEvents } from './jsonrpc/lineChannel';
import { ErrorCodes } from '../src/protocol/errorCodes';
import type { RpcError, RpcMessage } from './jsonrpc/message';
import type { Logger } from './log';

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError?: string;
}

export interface AgentHandlers {
  message: LineChannelEvents['message'];
  /** A line on the agent's stdout that is not an acceptable JSON-RPC message. */
  invalid: LineChannelEvents['invalid'];
  /** The agent's stdin is full (true: stop sending it more) or drained (false). */
  backpressure(full: boolean): void;
  exit(exit: AgentExit): void;
}

/** The agent's stderr tail kept for the exit report: its last lines, about 4 KiB at most. */
const STDERR_TAIL = { lines: 40, lineChars: 500, chars: 4096 };
/** Time for whatever the agent left in its group to end after SIGTERM, before SIGKILL. */
const GROUP_GRACE_MS = 1000;

/** The error pending requests fail with; `role` names the process ("agent", `proxy "x"`). */
export function agentExitError(exit: AgentExit, role = 'agent'): RpcError {
  const how = exit.spawnError
    ? `could not be started: ${exit.spawnError}`
    : exit.signal
      ? `was killed by ${exit.signal}`
      : `exited with code ${String(exit.code)}`;
  const tail = exit.stderrTail.trim();
  return {
    code: ErrorCodes.agentExited,
    message: `The ${role} ${how}${tail ? `. Last stderr:\n${tail}` : ''}`,
    data: { exitCode: exit.code, signal: exit.signal, stderrTail: exit.stderrTail, spawnError: exit.spawnError },
  };
}

export class AgentProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private channel: LineChannel | undefined;
  private readonly stderr = new StderrTail(STDERR_TAIL.lines, STDERR_TAIL.lineChars, STDERR_TAIL.chars);
  private exitInfo: AgentExit | undefined;
  private readonly exited: Promise<AgentExit>;
  private resolveExit!: (exit: AgentExit) => void;
  /** Settles once the agent's process group is gone (after it exited, or was ended). */
  private groupEnded: Promise<void> | undefined;

  constructor(
    readonly command: string,
    readonly args: readonly string[],
    private readonly log: Logger,
    private readonly handlers: AgentHandlers,
    /** The agent's own variables, on top of the conductor's environment (see cli.ts AGENT_ENV_VAR). */
    private readonly env: Record<string, string> = {},
    /** What the process is, for logs and the exit report: "agent", or `proxy "name"`. */
    readonly role = 'agent',
  ) {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }

  get exit(): AgentExit | undefined {
    return this.exitInfo;
  }

  start(): void {
    const stderrLog = this.log.child('stderr');
    const logLine = (line: string): void => {
      if (line.trim()) stderrLog.info(line);
    };
    const env = { ...process.env, ...this.env };
    // The launcher may have started this very agent already (earlyAgent.ts); only the first start.
    const early = this.role === 'agent' ? takeEarlyAgent(this.command, this.args, env) : undefined;
    const child = (early?.child ??
      spawnInGroup(this.command, this.args, { stdio: ['pipe', 'pipe', 'pipe'], env })) as ChildProcessWithoutNullStreams;
    this.child = child;
    const failed = (err: Error): void => this.finish({ code: null, signal: null, stderrTail: this.stderr.text(), spawnError: err.message });
    const exited = (code: number | null, signal: NodeJS.Signals | null): void => {
      // What the agent started stays behind in its group: end it. That also closes stdout when
      // a grandchild held it open.
      void this.endGroup();
      // Let stdout drain first so responses written just before exit still arrive, but do not
      // wait forever for a pipe something outside the group holds; a paused stdout (the editor
      // is not reading) is still draining, so it is waited for.
      const done = (): void => {
        this.stderr.end(logLine);
        this.finish({ code, signal, stderrTail: this.stderr.text() });
      };
      child.stdout.once('close', done);
      if (child.stdout.closed) return done();
      const fallback = (): void => void setTimeout(() => (this.channel?.paused ? fallback() : done()), 500).unref();
      fallback();
    };
    child.on('error', failed);
    child.on('exit', exited);
    child.stdin.on('error', () => undefined); // EPIPE once the agent is gone: the exit tells the story
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => this.stderr.push(text, logLine));
    this.channel = new LineChannel(
      child.stdout,
      child.stdin,
      {
        message: (m) => this.handlers.message(m),
        invalid: (line, error, id, kind) => this.handlers.invalid(line, error, id, kind),
        backpressure: (full) => this.handlers.backpressure(full),
        end: () => undefined,
      },
      { coalesceReads: true },
    );
    const when = early ? ', by the launcher, before the conductor loaded' : '';
    this.log.info(`started ${this.role}: ${[this.command, ...this.args].join(' ')} (pid ${String(child.pid)})${when}`);
    // What happened to an early agent before it was taken over, its events already emitted.
    if (early?.error) failed(early.error);
    else if (child.exitCode !== null || child.signalCode !== null) exited(child.exitCode, child.signalCode);
  }

  send(message: RpcMessage): void {
    this.channel?.send(message);
  }

  /** Whether the agent's stdout is not being read just now (see pauseOutput). */
  get outputPaused(): boolean {
    return this.channel?.paused ?? false;
  }

  /** Stops (true) or resumes (false) reading the agent's stdout: the editor is not keeping up. */
  pauseOutput(paused: boolean): void {
    if (paused) this.channel?.pauseInput();
    else this.channel?.resumeInput();
  }

  /**
   * Closes stdin, then SIGTERM, then SIGKILL after `graceMs`, to the whole process group:
   * no orphan processes. Resolves once the group is gone.
   */
  async stop(graceMs = GROUP_GRACE_MS): Promise<AgentExit | undefined> {
    const child = this.child;
    if (!child) return this.exitInfo;
    // Whatever it still sends is read (and dropped if the editor is gone), so it can exit.
    this.channel?.resumeInput();
    if (!this.exitInfo) {
      child.stdin.end();
      await within(Math.min(500, graceMs), this.exited);
    }
    await this.endGroup(graceMs);
    return this.exited;
  }

  private endGroup(graceMs = GROUP_GRACE_MS): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return Promise.resolve();
    this.groupEnded ??= endGroup(pid, graceMs);
    return this.groupEnded;
  }

  private finish(exit: AgentExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    this.log.info(`${this.role} ended: ${agentExitError(exit, this.role).message.split('\n')[0]}`);
    this.resolveExit(exit);
    this.handlers.exit(exit);
  }
}
