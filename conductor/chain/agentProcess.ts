// Owns the downstream agent process: spawn, stdout protocol, stderr capture, exit, stop.
// A non-JSON line on the agent's stdout (banners, stray logs) is logged and skipped; the
// session goes on. When the process exits, the owner is told the exit code, signal and the
// tail of stderr, so every pending request can fail at once with the reason.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { LineChannel } from '../jsonrpc/lineChannel';
import { ErrorCodes, type RpcError, type RpcMessage } from '../jsonrpc/message';
import type { Logger } from '../log';

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError?: string;
}

const STDERR_TAIL_BYTES = 4096;

export function agentExitError(exit: AgentExit): RpcError {
  const how = exit.spawnError ? `could not be started: ${exit.spawnError}` : exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
  const tail = exit.stderrTail.trim();
  return {
    code: ErrorCodes.agentExited,
    message: `The agent ${how}${tail ? `. Last stderr:\n${tail}` : ''}`,
    data: { exitCode: exit.code, signal: exit.signal, stderrTail: exit.stderrTail, spawnError: exit.spawnError },
  };
}

export class AgentProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private channel: LineChannel | undefined;
  private stderrTail = '';
  private exitInfo: AgentExit | undefined;
  private readonly exited: Promise<AgentExit>;
  private resolveExit!: (exit: AgentExit) => void;

  constructor(
    readonly command: string,
    readonly args: readonly string[],
    private readonly log: Logger,
    private readonly onMessage: (message: RpcMessage) => void,
    private readonly onExit: (exit: AgentExit) => void,
    /** The agent's own variables, on top of the conductor's environment (see cli.ts AGENT_ENV_VAR). */
    private readonly env: Record<string, string> = {},
  ) {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }

  get exit(): AgentExit | undefined {
    return this.exitInfo;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const stderrLog = this.log.child('stderr');
    const child = spawn(this.command, [...this.args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...this.env } });
    this.child = child;
    child.on('error', (err) => this.finish({ code: null, signal: null, stderrTail: this.stderrTail, spawnError: err.message }));
    child.on('exit', (code, signal) => {
      // Let stdout drain first so responses written just before exit still arrive.
      child.stdout.once('close', () => this.finish({ code, signal, stderrTail: this.stderrTail }));
      if (child.stdout.closed) this.finish({ code, signal, stderrTail: this.stderrTail });
    });
    child.stderr.setEncoding('utf8');
    let partial = '';
    child.stderr.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) stderrLog.info(line);
    });
    this.channel = new LineChannel(child.stdout, child.stdin, {
      message: (m) => this.onMessage(m),
      invalid: (line, error) => this.log.warn(`skipped a line on the agent's stdout that is not JSON-RPC (${error.message})`, line.slice(0, 500)),
      end: () => undefined,
    });
    this.log.info(`started agent: ${[this.command, ...this.args].join(' ')} (pid ${String(child.pid)})`);
  }

  send(message: RpcMessage): void {
    this.channel?.send(message);
  }

  /** Closes stdin, then SIGTERM, then SIGKILL after `graceMs`: no orphan processes. */
  async stop(graceMs = 2000): Promise<AgentExit | undefined> {
    const child = this.child;
    if (!child || this.exitInfo) return this.exitInfo;
    child.stdin.end();
    const waited = await Promise.race([this.exited, delay(Math.min(500, graceMs)).then(() => undefined)]);
    if (waited) return waited;
    child.kill('SIGTERM');
    const terminated = await Promise.race([this.exited, delay(graceMs).then(() => undefined)]);
    if (terminated) return terminated;
    child.kill('SIGKILL');
    return this.exited;
  }

  private finish(exit: AgentExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    this.log.info(`agent ended: ${agentExitError(exit).message.split('\n')[0]}`);
    this.resolveExit(exit);
    this.onExit(exit);
  }
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
