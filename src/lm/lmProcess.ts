// The one long-lived `conductor vscodelm` process of this window, and the vscode-jsonrpc channel
// to it. Spawned on the first request (so with the setting on but no consumer, nothing runs);
// after a crash the requests in flight fail with the exit reason and the next request spawns a
// new process, as the chat's conductors restart.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CancellationToken,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { LM_PART_METHOD, LM_PROVIDE_METHOD, type LmPart, type LmPartParams, type LmProvideParams } from '../protocol/lm';

export interface LmProcessOptions {
  execPath: string;
  conductorScript: string;
  cwd: string;
  log(line: string): void;
}

interface Live {
  child: ChildProcess;
  conn: MessageConnection;
  /** Rejected with the exit reason when the process ends. */
  exited: Promise<never>;
}

export class LmProcess {
  private live: Live | undefined;
  private nextId = 0;
  private readonly sinks = new Map<number, (part: LmPart) => void>();

  constructor(private readonly options: LmProcessOptions) {}

  /** Sends one request; `onPart` sees each streamed part; resolves when the response is complete. */
  async provide(params: Omit<LmProvideParams, 'requestId'>, onPart: (part: LmPart) => void, token: CancellationToken): Promise<void> {
    const live = this.ensure();
    const requestId = ++this.nextId;
    this.sinks.set(requestId, onPart);
    try {
      await Promise.race([
        live.conn.sendRequest(LM_PROVIDE_METHOD, { ...params, requestId } satisfies LmProvideParams, token),
        live.exited,
      ]);
    } finally {
      this.sinks.delete(requestId);
    }
  }

  dispose(): void {
    const live = this.live;
    this.live = undefined;
    if (!live) return;
    live.conn.dispose();
    live.child.stdin?.end();
    setTimeout(() => live.child.kill('SIGKILL'), 2000).unref();
  }

  get running(): boolean {
    return this.live !== undefined;
  }

  private ensure(): Live {
    if (this.live) return this.live;
    const { execPath, conductorScript, cwd, log } = this.options;
    const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
    delete env.NODE_OPTIONS;
    delete env.NODE_PATH;
    const child = spawn(execPath, [conductorScript, 'vscodelm'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (t: string) => {
      stderrTail = (stderrTail + t).slice(-2000);
      for (const line of t.split('\n')) if (line.trim()) log(line);
    });
    const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    conn.onNotification(LM_PART_METHOD, (p: LmPartParams) => this.sinks.get(p.requestId)?.(p.part));
    const exited = new Promise<never>((_, reject) => {
      const fail = (reason: string): void => {
        if (this.live?.child === child) this.live = undefined;
        // vscode-jsonrpc leaves pending requests unsettled after a crash unless disposed.
        conn.dispose();
        reject(new Error(`${reason}${stderrTail.trim() ? `: ${stderrTail.trim().split('\n').slice(-3).join(' | ')}` : ''}`));
      };
      child.once('error', (err) => fail(`the Symposium LM process could not start (${err.message})`));
      child.once('exit', (code, signal) => fail(`the Symposium LM process exited (${signal ?? `code ${String(code)}`})`));
    });
    exited.catch(() => undefined);
    conn.listen();
    this.live = { child, conn, exited };
    return this.live;
  }
}
