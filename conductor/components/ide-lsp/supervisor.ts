// The owner of one language's server for one workspace, and the pool of them. One server process
// per (workspace, language), started lazily on the first request that needs it and shared by
// every session of that workspace. A server that crashes is restarted on the next request, after
// an exponential backoff (250 ms, 500 ms, 1 s, … at most 10 s); after `maxCrashes` crashes within
// `crashWindowMs` it is given up on, and requests say so instead of starting it again and again.
import * as path from 'node:path';
import type { Logger } from '../../log';
import type { LanguageServerClient, ServerActivity } from './lspClient';
import { DEFAULT_TIMEOUTS, LanguageServerError, type LspTimeouts } from './lspErrors';
import { resolveServer, type LanguageServerSpec } from './servers';
import { WorkspaceWatcher } from './workspaceWatcher';
import { errorText } from '../../../src/protocol/errorText';
import { DisposableBase } from '../../../src/node/disposable';

export interface SupervisorOptions {
  timeouts: LspTimeouts;
  backoffBaseMs: number;
  backoffMaxMs: number;
  maxCrashes: number;
  crashWindowMs: number;
  /** Programs and a TypeScript from the session folder's own node_modules may run (servers.ts says why not by default). */
  allowWorkspaceBinaries: boolean;
}

export const DEFAULT_SUPERVISOR_OPTIONS: SupervisorOptions = {
  timeouts: DEFAULT_TIMEOUTS,
  backoffBaseMs: 250,
  backoffMaxMs: 10_000,
  maxCrashes: 5,
  crashWindowMs: 180_000,
  allowWorkspaceBinaries: false,
};

interface Crash {
  at: number;
  reason: string;
}

export class ServerSupervisor extends DisposableBase {
  private current: LanguageServerClient | undefined;
  private starting: Promise<LanguageServerClient> | undefined;
  private readonly crashes: Crash[] = [];

  constructor(
    readonly spec: LanguageServerSpec,
    readonly root: string,
    private readonly log: Logger,
    private readonly options: SupervisorOptions,
    /** Where the server's start and `$/progress` are told (the pool, for waiting tool calls). */
    private readonly report: (activity: ServerActivity) => void = () => undefined,
  ) {
    super();
  }

  /** What the server is doing now: starting, or its latest `$/progress` in flight. */
  get activity(): ServerActivity | undefined {
    if (this.starting) return { server: path.basename(this.spec.command), message: 'starting…' };
    return this.current?.alive ? this.current.activity : undefined;
  }

  /** The running server, if there is one (workspace-wide queries ask only servers that run or can start). */
  get running(): LanguageServerClient | undefined {
    return this.current?.alive ? this.current : undefined;
  }

  /** The server, started (or restarted after a crash) if need be. */
  client(): Promise<LanguageServerClient> {
    if (this.isDisposed) return Promise.reject(new LanguageServerError(`the ${this.spec.language} language server is shutting down`));
    if (this.current?.alive) return Promise.resolve(this.current);
    this.starting ??= this.startNew().finally(() => (this.starting = undefined));
    return this.starting;
  }

  override async dispose(): Promise<void> {
    super.dispose();
    await this.starting?.catch(() => undefined);
    await this.current?.stop();
  }

  private async startNew(): Promise<LanguageServerClient> {
    const now = Date.now();
    const recent = this.crashes.filter((c) => now - c.at < this.options.crashWindowMs);
    const last = recent[recent.length - 1];
    if (last && recent.length >= this.options.maxCrashes)
      throw new LanguageServerError(
        `${path.basename(this.spec.command)} crashed ${recent.length} times in the last ${Math.round(this.options.crashWindowMs / 1000)} s; ` +
          `it is not restarted again (last: it ${last.reason}). Restart the agent to try again`,
      );
    if (last) {
      const delay = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** (recent.length - 1));
      const wait = last.at + delay - now;
      if (wait > 0) {
        this.report({ server: path.basename(this.spec.command), message: `restarting after a crash, in ${Math.ceil(wait / 100) / 10} s` });
        this.log.info(
          `restarting ${path.basename(this.spec.command)} in ${wait} ms (crash ${recent.length} of at most ${this.options.maxCrashes})`,
        );
        await new Promise((r) => setTimeout(r, wait));
      }
    }
    // Missing program or TypeScript: a ServerUnavailableError naming what to install (not a crash).
    const launch = resolveServer(this.spec, this.root, {
      allowWorkspaceBinaries: this.options.allowWorkspaceBinaries,
      envPath: process.env.PATH,
    });
    const { LanguageServerClient } = await import('./lspClient'); // vscode-languageserver-protocol: now
    const client = new LanguageServerClient(launch, this.root, this.log.child(this.spec.language), this.options.timeouts);
    client.onActivity(this.report);
    this.report({ server: client.name, message: 'starting…' });
    try {
      await client.start();
    } catch (err) {
      const reason = `failed to start: ${errorText(err)}`;
      this.crashes.push({ at: Date.now(), reason });
      throw new LanguageServerError(`${client.name} ${reason}`);
    }
    if (this.isDisposed) {
      await client.stop();
      throw new LanguageServerError(`the ${this.spec.language} language server is shutting down`);
    }
    this.current = client;
    this.report({ server: client.name, message: 'started', finished: true });
    void client.exited.then((exit) => {
      if (!exit.expected) this.crashes.push({ at: Date.now(), reason: exit.reason });
    });
    return client;
  }
}

/** Every server of the conductor: one per (workspace root, language). */
export class ServerPool {
  private readonly supervisors = new Map<string, ServerSupervisor>();

  constructor(
    private readonly log: Logger,
    private readonly options: SupervisorOptions = DEFAULT_SUPERVISOR_OPTIONS,
  ) {}

  /** One file watcher per folder with servers, shared by them. */
  private readonly watchers = new Map<string, WorkspaceWatcher>();
  /** Listeners for what the servers of a root are doing (ide-lsp's waiting requests). */
  private readonly activityListeners = new Set<{ root: string; listener: (activity: ServerActivity) => void }>();

  supervisor(spec: LanguageServerSpec, root: string): ServerSupervisor {
    const key = `${root}\0${spec.language}`;
    let s = this.supervisors.get(key);
    if (!s) {
      s = new ServerSupervisor(spec, root, this.log, this.options, (activity) => {
        for (const l of [...this.activityListeners]) if (l.root === root) l.listener(activity);
      });
      this.supervisors.set(key, s);
      if (!this.watchers.has(root))
        this.watchers.set(
          root,
          new WorkspaceWatcher(root, this.log.child('watch'), (changes) => {
            for (const client of this.runningFor(root)) client.filesChanged(changes);
          }),
        );
    }
    return s;
  }

  /**
   * Calls `listener` with what the servers of `root` are doing (starting, `$/progress`) from now
   * on, and at once with what they are doing already; returns the unsubscribe.
   */
  onActivity(root: string, listener: (activity: ServerActivity) => void): () => void {
    const entry = { root, listener };
    this.activityListeners.add(entry);
    for (const s of this.supervisors.values()) {
      const now = s.root === root ? s.activity : undefined;
      if (now) listener(now);
    }
    return () => this.activityListeners.delete(entry);
  }

  /** Tells the servers of `root` about the file changes seen so far (before a question). */
  async flushChanges(root: string): Promise<void> {
    await this.watchers.get(root)?.flush();
  }

  /** The servers started for `root` that are running now. */
  runningFor(root: string): LanguageServerClient[] {
    return [...this.supervisors.values()].filter((s) => s.root === root).flatMap((s) => (s.running ? [s.running] : []));
  }

  async dispose(): Promise<void> {
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
    await Promise.allSettled([...this.supervisors.values()].map((s) => s.dispose()));
  }
}
