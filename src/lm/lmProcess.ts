// The one long-lived `conductor vscodelm` process of this window, and the vscode-jsonrpc channel
// to it. Spawned on the first request (so with the setting on but no consumer, nothing runs);
// after a crash the requests in flight fail with the exit reason and the next request spawns a
// new process, as the chat's conductors restart. The OS process is owned by the same
// ConductorProcess the chat uses (own process group, stderr tail, stdin → SIGTERM → SIGKILL), so
// the LM process and whatever it starts (the agents behind it) never outlive the window.
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CancellationToken,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { SpawnSpec } from '../agents/agentConfiguration';
import { ConductorProcess, type ProcessExit } from '../agents/conductorProcess';
import type { Log } from '../log/logEvent';
import { LM_PART_METHOD, LM_PROVIDE_METHOD, type LmPart, type LmPartParams, type LmProvideParams } from '../protocol/lm';

export interface LmProcessOptions {
  spec: SpawnSpec;
  log: Log;
  /** Every stderr line of the process (its log and its agents'), like the chat conductors'. */
  onStderrLine(line: string): void;
}

interface Live {
  conn: MessageConnection;
  /** Rejected with the exit reason when the process ends. */
  exited: Promise<never>;
}

export class LmProcess {
  private readonly owner: ConductorProcess;
  private live: Live | undefined;
  private nextId = 0;
  private readonly sinks = new Map<number, (part: LmPart) => void>();

  constructor(private readonly options: LmProcessOptions) {
    this.owner = new ConductorProcess({
      name: 'vscodelm',
      spec: options.spec,
      log: options.log,
      onStderrLine: options.onStderrLine,
    });
  }

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

  /** Stops the process (and its group); a later request would spawn a new one. */
  dispose(): void {
    void this.owner.dispose();
  }

  get running(): boolean {
    return this.owner.running;
  }

  /** The process's id while it runs (tests: kill it to see the next request recover). */
  get pid(): number | undefined {
    return this.owner.running ? this.owner.pid : undefined;
  }

  private ensure(): Live {
    if (this.live && this.owner.running) return this.live;
    const { stdin, stdout } = this.owner.spawn();
    const conn = createMessageConnection(new StreamMessageReader(stdout), new StreamMessageWriter(stdin));
    conn.onNotification(LM_PART_METHOD, (p: LmPartParams) => this.sinks.get(p.requestId)?.(p.part));
    const scope = this.owner.processScope;
    // vscode-jsonrpc leaves pending requests unsettled after a crash unless disposed.
    scope.add({ dispose: () => conn.dispose() });
    const exited = new Promise<never>((_, reject) => {
      const sub = this.owner.onDidExit((e) => {
        sub.dispose();
        if (this.live?.conn === conn) this.live = undefined;
        reject(new Error(this.describeExit(e)));
      });
    });
    exited.catch(() => undefined);
    conn.listen();
    this.live = { conn, exited };
    return this.live;
  }

  private describeExit(e: ProcessExit): string {
    const how = e.spawnError ? `could not start (${e.spawnError})` : `exited (${e.signal ?? `code ${String(e.code)}`})`;
    const tail = this.owner.stderrText().trim().split('\n').slice(-3).join(' | ');
    return `the Symposium LM process ${how}${tail ? `: ${tail}` : ''}`;
  }
}
