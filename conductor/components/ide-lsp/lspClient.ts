// One running language server: its process (the only owner; spawned in its own process group
// through src/node/processGroup.ts, so nothing it starts outlives it) and its LSP connection
// (vscode-languageserver-protocol on vscode-jsonrpc: no hand-written framing). It
// - initializes with the workspace folder and the capabilities this client really has,
// - answers the server's own requests (workspace/configuration, workDoneProgress/create,
//   registerCapability, workspaceFolders…) at once: pyright answers nothing until
//   workspace/configuration is answered, and an unanswered request is a hang, not an error,
// - gives every request a per-method timeout (then `$/cancelRequest`), and fails every pending
//   request at once with the exit reason when the process dies (vscode-jsonrpc alone would leave
//   them unsettled),
// - treats a server that writes something that is not LSP as crashed (killed, not trusted),
// - logs the server's stderr line by line into the conductor's log (never its stdout) and keeps
//   the last lines for the exit message,
// - keeps what the server pushes: diagnostics per document, work-done progress in flight.
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import {
  CancellationTokenSource,
  createProtocolConnection,
  StreamMessageReader,
  type Diagnostic,
  type InitializeResult,
  type ProtocolConnection,
  type ServerCapabilities,
} from 'vscode-languageserver-protocol/node';
import { endGroup, spawnInGroup } from '../../../src/node/processGroup';
import { StderrTail } from '../../../src/node/stderrTail';
import type { Logger } from '../../log';
import { PipeMessageWriter } from './messageWriter';
import { DocumentSync } from './documents';
import { DEFAULT_TIMEOUTS, LanguageServerError, type LspTimeouts } from './lspErrors';
import type { ServerLaunch } from './servers';
import { WatchedFiles, type FileChange } from './watchedFiles';
import { WorkDoneProgress, type ServerActivity } from './workDone';
import { errorText } from '../../../src/protocol/errorText';

export type { ServerActivity };

const WORKSPACE_WIDE = new Set(['textDocument/references', 'workspace/symbol', 'textDocument/implementation']);

export interface ServerExit {
  /** "exited with code 1", "was killed by SIGKILL", "wrote something that is not LSP: …" */
  reason: string;
  stderrTail: string;
  /** Whether we asked it to stop (shutdown at the end), rather than a crash. */
  expected: boolean;
}

interface Pending {
  method: string;
  reject(error: Error): void;
}

export class LanguageServerClient {
  readonly name: string;
  readonly documents: DocumentSync;
  /** Diagnostics the server published, by document URI. */
  readonly diagnostics = new Map<string, Diagnostic[]>();
  /** When diagnostics for a document were last published (ms since the epoch). */
  readonly diagnosticsAt = new Map<string, number>();
  capabilities: ServerCapabilities = {};
  /** When `initialize` was answered (ms since the epoch); 0 before. */
  initializedAt = 0;
  readonly exited: Promise<ServerExit>;

  private child: ChildProcess | undefined;
  private connection: ProtocolConnection | undefined;
  private readonly stderr = new StderrTail(40, 500, 4096);
  private readonly pending = new Set<Pending>();
  private readonly progress: WorkDoneProgress;
  /** The file changes the server registered for (`workspace/didChangeWatchedFiles`). */
  private readonly watched: WatchedFiles;
  private readonly listeners = new Set<() => void>();
  private exitInfo: ServerExit | undefined;
  private resolveExited: (exit: ServerExit) => void = () => undefined;
  private garbage: string | undefined;
  private stopping = false;

  constructor(
    readonly launch: ServerLaunch,
    readonly root: string,
    private readonly log: Logger,
    private readonly timeouts: LspTimeouts = DEFAULT_TIMEOUTS,
  ) {
    this.name = path.basename(launch.spec.command);
    this.documents = new DocumentSync(this, launch.spec);
    this.progress = new WorkDoneProgress(this.name);
    this.watched = new WatchedFiles(launch.spec.extensions);
    this.exited = new Promise((r) => (this.resolveExited = r));
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns the server and runs the `initialize` handshake; rejects (and kills it) if that fails. */
  async start(): Promise<void> {
    const { command, args, env } = this.launch;
    const child = spawnInGroup(command, args, { cwd: this.root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    this.child = child;
    this.log.info(`started ${this.name} (pid ${child.pid}) for ${this.root}`, { command, args });
    child.on('error', (err) => this.onExit(`could not be started: ${err.message}`));
    child.on('exit', (code, signal) => this.onExit(signal ? `was killed by ${signal}` : `exited with code ${code}`));
    child.stderr!.setEncoding('utf8').on('data', (t: string) => this.stderr.push(t, (line) => line && this.log.info(`stderr: ${line}`)));
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new PipeMessageWriter(child.stdin!));
    this.connection = connection;
    child.stdin!.on('error', () => undefined); // EPIPE after a crash: the exit handler reports it
    connection.onError(([err]) => this.onGarbage(err.message));
    this.answerServerRequests(connection);
    connection.listen();

    const rootUri = pathToFileURL(this.root).href;
    const started = Date.now();
    const result = await this.request<InitializeResult>('initialize', {
      processId: process.pid,
      clientInfo: { name: 'symposium-conductor' },
      rootUri,
      rootPath: this.root,
      workspaceFolders: [{ uri: rootUri, name: path.basename(this.root) }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: {
        // The semantic server answers everything: the syntax-only one that answers while a
        // project loads knows only the open file (an import instead of the definition behind it).
        // No completions are asked, so no auto-import project (it loads every dependency's types).
        ...(this.launch.tsserver
          ? {
              // File changes come from this client's watcher (didChangeWatchedFiles), one per
              // folder for every server, rather than from tsserver's own watching.
              tsserver: { path: this.launch.tsserver, useSyntaxServer: 'never', useClientFileWatcher: true },
              preferences: { includePackageJsonAutoImports: 'off' },
            }
          : {}),
        ...this.launch.spec.initializationOptions,
      },
    }).catch(async (err: unknown) => {
      await this.stop();
      throw err;
    });
    this.capabilities = result.capabilities ?? {};
    this.notify('initialized', {});
    this.initializedAt = Date.now();
    this.log.debug(`${this.name} initialized in ${Date.now() - started} ms`);
  }

  /** Sends a request with its method's time limit; `signal` cancels it (`$/cancelRequest`). */
  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> {
    const connection = this.connection;
    if (!connection || this.exitInfo) return Promise.reject(new LanguageServerError(this.deadMessage(method)));
    const limit =
      method === 'initialize'
        ? this.timeouts.initialize
        : method === 'shutdown'
          ? this.timeouts.shutdown
          : WORKSPACE_WIDE.has(method)
            ? this.timeouts.workspaceWide
            : this.timeouts.request;
    const cancel = new CancellationTokenSource();
    return new Promise<R>((resolve, reject) => {
      const entry: Pending = { method, reject };
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(entry);
        cancel.dispose();
      };
      entry.reject = (err) => {
        settle();
        reject(err);
      };
      const timer = setTimeout(() => {
        cancel.cancel();
        entry.reject(
          new LanguageServerError(
            `${this.name} did not answer ${method} within ${seconds(limit)} (it may still be loading the project; the request was cancelled)`,
          ),
        );
      }, limit);
      const onAbort = (): void => {
        cancel.cancel();
        entry.reject(new LanguageServerError(`${method} was cancelled`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.add(entry);
      connection.sendRequest<R>(method, params, cancel.token).then(
        (result) => {
          if (!this.pending.has(entry)) return;
          settle();
          resolve(result);
        },
        (err: unknown) => {
          if (!this.pending.has(entry)) return;
          entry.reject(
            new LanguageServerError(
              this.exitInfo ? this.deadMessage(method) : `${this.name} answered ${method} with an error: ${errorText(err)}`,
            ),
          );
        },
      );
    });
  }

  notify(method: string, params: unknown): void {
    if (!this.connection || this.exitInfo) return;
    void this.connection.sendNotification(method, params).catch(() => undefined);
  }

  /** Calls `listener` whenever diagnostics or progress change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Files changed on disk (the folder's watcher): open documents get their new text first, then
   * the server hears of the changes it registered for (all of its own files when it registered none).
   */
  filesChanged(changes: readonly FileChange[]): void {
    if (!this.alive) return;
    for (const c of changes) this.documents.refresh(c.file);
    const wanted = changes.filter((c) => this.watched.wants(c));
    if (wanted.length > 0)
      this.notify('workspace/didChangeWatchedFiles', { changes: wanted.map((c) => ({ uri: pathToFileURL(c.file).href, type: c.type })) });
  }

  /** Calls `listener` with each work-done progress step of the server; returns the unsubscribe. */
  onActivity(listener: (activity: ServerActivity) => void): () => void {
    return this.progress.onStep(listener);
  }

  /** The latest work-done progress in flight, if any. */
  get activity(): ServerActivity | undefined {
    return this.progress.latest;
  }

  /** Whether work-done progress (a project load, indexing) is under way. */
  get busy(): boolean {
    return this.progress.busy;
  }

  /** Since when the server has been quiet: its initialization, or its last progress step. */
  get quietSince(): number {
    return Math.max(this.initializedAt, this.progress.lastStepAt);
  }

  /** Resolves true when no progress is in flight, or false after `ms` with some still under way. */
  async settled(ms: number): Promise<boolean> {
    if (!this.busy) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), ms);
      const off = this.onChange(() => !this.busy && done(true));
      function done(idle: boolean): void {
        clearTimeout(timer);
        off();
        resolve(idle);
      }
    });
  }

  /** `shutdown`, `exit`, then the process group is ended (SIGTERM, SIGKILL after a grace period). */
  async stop(graceMs = 2000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (this.alive && this.connection) {
      await this.request('shutdown', null).catch(() => undefined);
      this.notify('exit', null);
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, graceMs))]);
    }
    if (child?.pid !== undefined) await endGroup(child.pid, graceMs);
    if (this.alive) this.onExit('was stopped');
  }

  private answerServerRequests(connection: ProtocolConnection): void {
    const rootUri = pathToFileURL(this.root).href;
    // Requests without a handler get vscode-jsonrpc's automatic "method not found": an answer, not a hang.
    const answers: Record<string, (params: unknown) => unknown> = {
      'workspace/configuration': (params) => {
        const items = (params as { items?: unknown[] } | undefined)?.items;
        return Array.isArray(items) ? items.map(() => null) : [];
      },
      'workspace/workspaceFolders': () => [{ uri: rootUri, name: path.basename(this.root) }],
      'workspace/applyEdit': () => ({ applied: false, failureReason: 'this client does not edit files' }),
    };
    answers['client/registerCapability'] = (params) => {
      this.watched.register(params);
      return null;
    };
    answers['client/unregisterCapability'] = (params) => {
      this.watched.unregister(params);
      return null;
    };
    for (const method of [
      'window/workDoneProgress/create',
      'window/showMessageRequest',
      'workspace/semanticTokens/refresh',
      'workspace/codeLens/refresh',
      'workspace/inlayHint/refresh',
      'workspace/inlineValue/refresh',
      'workspace/diagnostic/refresh',
    ])
      answers[method] = () => null;
    for (const [method, answer] of Object.entries(answers)) connection.onRequest(method, (params: unknown) => answer(params));

    connection.onNotification('textDocument/publishDiagnostics', (params: unknown) => {
      const p = params as { uri?: unknown; diagnostics?: unknown } | undefined;
      if (typeof p?.uri !== 'string' || !Array.isArray(p.diagnostics)) return;
      this.diagnostics.set(p.uri, p.diagnostics as Diagnostic[]);
      this.diagnosticsAt.set(p.uri, Date.now());
      this.log.trace(`diagnostics for ${p.uri}: ${p.diagnostics.length}`);
      this.changed();
    });
    connection.onNotification('$/progress', (params: unknown) => {
      const activity = this.progress.update(params);
      if (activity) this.log.trace(`progress: ${activity.message}`);
      this.changed();
    });
    for (const method of ['window/logMessage', 'window/showMessage'])
      connection.onNotification(method, (params: unknown) =>
        this.log.debug(`${this.name}: ${String((params as { message?: unknown })?.message)}`),
      );
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  private onGarbage(message: string): void {
    if (this.garbage || this.exitInfo) return;
    this.garbage = `wrote something that is not LSP (${message.replace(/\s+/g, ' ').slice(0, 200)})`;
    this.log.warn(`${this.name} ${this.garbage}: killing it; it will be restarted on the next request`);
    if (this.child?.pid !== undefined) void endGroup(this.child.pid, 0);
  }

  private onExit(reason: string): void {
    if (this.exitInfo) return;
    this.stderr.end();
    const exit: ServerExit = { reason: this.garbage ?? reason, stderrTail: this.stderr.text(), expected: this.stopping };
    this.exitInfo = exit;
    if (exit.expected) this.log.info(`${this.name} ${exit.reason}`);
    else this.log.warn(`${this.name} ${exit.reason}`, exit.stderrTail ? { stderrTail: exit.stderrTail } : undefined);
    for (const p of [...this.pending]) p.reject(new LanguageServerError(this.deadMessage(p.method)));
    // Settles anything vscode-jsonrpc still holds and stops its reader.
    this.connection?.dispose();
    this.progress.clear();
    this.changed();
    this.resolveExited(exit);
  }

  private deadMessage(method: string): string {
    const exit = this.exitInfo;
    if (!exit) return `${this.name} is not running (${method})`;
    const tail = exit.stderrTail.trim() ? `; its last stderr: ${exit.stderrTail.trim().split('\n').slice(-5).join(' | ')}` : '';
    return `${this.name} ${exit.reason} before answering ${method}${tail}`;
  }
}

const seconds = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

/** What this client really does: UTF-16 positions, links, hierarchical symbols, progress, configuration. */
const SYMBOL_KINDS = { valueSet: Array.from({ length: 26 }, (_, i) => i + 1) };
const CLIENT_CAPABILITIES = {
  general: { positionEncodings: ['utf-16'] },
  window: { workDoneProgress: true },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    symbol: { symbolKind: SYMBOL_KINDS },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true, symbolKind: SYMBOL_KINDS },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
  },
};
