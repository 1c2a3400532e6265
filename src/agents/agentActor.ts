// Owns one conductor process and its ACP connection: start (spawn + initialize), sessions,
// prompts, cancel, stop (cancel → close stdin → SIGTERM → SIGKILL), and the report when the
// process dies on its own. Nothing else spawns or kills it. vscode-free, so plain-Node tests can
// drive it against the real conductor + ElizACP.
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentCapabilities, ContentBlock, PromptCapabilities, RequestPermissionRequest, RequestPermissionResponse, SessionConfigOption, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { AgentFailure, LegacyModels, SessionControls } from '../protocol/webview';
import { ErrorCodes } from '../protocol/errorCodes';
import { AGENT_EXITED_METHOD, type AgentExitedParams } from '../protocol/symposium-ext';
import { Emitter, DisposableStore } from '../util/emitter';
import { spawnEnv, type SpawnSpec } from './agentConfiguration';
import { StderrTail } from './stderrTail';
import type { ClientHandlers, ClientRequestContext } from './clientHandlers';

export interface AgentActorOptions {
  /** The configuration key; also part of every session reference. */
  key: string;
  agentName: string;
  spec: SpawnSpec;
  log: Log;
  /** Every stderr line of the process (conductor and agent logs). */
  onStderrLine?: (line: string) => void;
  clientInfo: { name: string; version: string };
  /** Time for the process to end after stdin closes, and again after SIGTERM. */
  graceMs?: number;
  /**
   * Answers the agent's session/request_permission. The agent waits on the returned promise; the
   * signal aborts when the agent withdraws the request.
   */
  onPermissionRequest: (params: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;
  /** Files and terminals the editor offers; each advertised only when its handler exists. */
  client?: ClientHandlers;
}

export type ActorState = 'idle' | 'starting' | 'running' | 'stopping' | 'exited';

export interface SessionUpdateEvent { sessionId: string; update: SessionUpdate }

interface ExitInfo { code: number | null; signal: NodeJS.Signals | null; spawnError?: string }

/** Rejection reason for calls that fail because the process ended. */
export class AgentExitedError extends Error {
  constructor(readonly failure: AgentFailure) {
    super(failure.message);
    this.name = 'AgentExitedError';
  }
}

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class AgentActor {
  private state: ActorState = 'idle';
  private child: ChildProcess | undefined;
  private conn: acp.ClientConnection | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private exitInfo: ExitInfo | undefined;
  private failureInfo: AgentFailure | undefined;
  private readonly exited: Promise<ExitInfo>;
  private resolveExited!: (e: ExitInfo) => void;
  private readonly stderr = new StderrTail();
  /** What the conductor said about its agent's exit (it exits right after). */
  private agentExit: AgentExitedParams | undefined;
  private capabilities: AgentCapabilities | undefined;
  private readonly activePrompts = new Map<string, Promise<unknown>>();
  /** Disposed when this process ends; one actor never outlives its process (restart = new actor). */
  private readonly processScope = new DisposableStore();
  private readonly updates = new Emitter<SessionUpdateEvent>();
  private readonly failures = new Emitter<AgentFailure>();

  /** ACP session/update notifications, in arrival order. */
  readonly onSessionUpdate = this.updates.event;
  /** The process ended without stop() being called (crash, or the agent exited). Fires once. */
  readonly onDidFail = this.failures.event;

  constructor(private readonly options: AgentActorOptions) {
    this.exited = new Promise((r) => (this.resolveExited = r));
    this.processScope.add(this.updates);
    this.processScope.add(this.failures);
  }

  get key(): string { return this.options.key; }
  get agentName(): string { return this.options.agentName; }
  get currentState(): ActorState { return this.state; }
  get pid(): number | undefined { return this.child?.pid; }
  get failure(): AgentFailure | undefined { return this.failureInfo; }
  /** What the agent accepts in prompts (images, embedded resources); known after initialize. */
  get promptCapabilities(): PromptCapabilities { return this.capabilities?.promptCapabilities ?? {}; }
  /** Whether new sessions can still be created here (not stopping, not dead). */
  get usable(): boolean { return this.state === 'idle' || this.state === 'starting' || this.state === 'running'; }

  /** Spawns the process and runs `initialize`; concurrent callers share one start. */
  start(): Promise<void> {
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    const { spec, log } = this.options;
    this.state = 'starting';
    log.info('agent', 'spawning', { agent: this.agentName, command: spec.command, args: spec.args, cwd: spec.cwd });
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spawnEnv(process.env, spec),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Own process group, so stop() can signal the conductor and every process it started.
      detached: process.platform !== 'win32',
    });
    this.child = child;
    child.on('error', (err) => this.onExit({ code: null, signal: null, spawnError: err.message }));
    child.on('exit', (code, signal) => {
      // Let stdout/stderr drain (the conductor's last notification, the stderr tail) first.
      const onClose = (): void => this.onExit({ code, signal });
      const timer = setTimeout(onClose, 500);
      child.once('close', () => { clearTimeout(timer); onClose(); });
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => this.stderr.push(d, (line) => this.options.onStderrLine?.(line)));
    child.stdin?.on('error', (err) => log.debug('agent', 'stdin error', err));

    const app = acp.client()
      .onNotification('session/update', ({ params }) => this.updates.fire({ sessionId: params.sessionId, update: params.update }))
      .onNotification(AGENT_EXITED_METHOD, (raw: unknown) => raw as AgentExitedParams, ({ params }) => { this.agentExit = params; })
      // Never answered here: the broker decides (user, bypass or a rule) while the agent waits.
      .onRequest('session/request_permission', ({ params, signal }) => this.options.onPermissionRequest(params, signal));
    const { files, terminals } = this.options.client ?? {};
    const ctx = (signal: AbortSignal): ClientRequestContext => ({ actorKey: this.key, agentName: this.agentName, signal });
    if (files) {
      app.onRequest('fs/read_text_file', ({ params, signal }) => files.readTextFile(params, ctx(signal)))
        .onRequest('fs/write_text_file', ({ params, signal }) => files.writeTextFile(params, ctx(signal)));
    }
    if (terminals) {
      app.onRequest('terminal/create', ({ params, signal }) => terminals.create(params, ctx(signal)))
        .onRequest('terminal/output', ({ params, signal }) => terminals.output(params, ctx(signal)))
        .onRequest('terminal/wait_for_exit', ({ params, signal }) => terminals.waitForExit(params, ctx(signal)))
        .onRequest('terminal/kill', ({ params, signal }) => terminals.kill(params, ctx(signal)))
        .onRequest('terminal/release', ({ params, signal }) => terminals.release(params, ctx(signal)));
    }
    const conn = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin!), Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
    this.conn = conn;
    this.processScope.add({ dispose: () => conn.close() });

    const init = await this.untilExit<acp.InitializeResponse>(conn.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: !!files, writeTextFile: !!files }, terminal: !!terminals },
      clientInfo: this.options.clientInfo,
    }));
    // stop() may have been called while we waited.
    if (this.state !== 'starting') throw new AgentExitedError(this.makeFailure('the agent was stopped while starting'));
    this.capabilities = init.agentCapabilities;
    this.state = 'running';
    log.info('agent', 'initialized', { agent: this.agentName, pid: child.pid, protocolVersion: init.protocolVersion, agentInfo: init.agentInfo });
  }

  /** Creates a session; also returns the pickers (modes, config options, models) it offers. */
  async newSession(cwd: string): Promise<{ sessionId: string; controls: SessionControls }> {
    await this.start();
    const res = await this.untilExit(this.connection().agent.request('session/new', { cwd, mcpServers: [] }));
    this.options.log.info('session', 'created', { agent: this.agentName, sessionId: res.sessionId, cwd });
    // `models` predates configOptions and is not in the v1 schema; agents still send it.
    const models = parseLegacyModels((res as { models?: unknown }).models);
    return { sessionId: res.sessionId, controls: { modes: res.modes ?? null, configOptions: res.configOptions ?? null, models } };
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.untilExit(this.connection().agent.request('session/set_mode', { sessionId, modeId }));
  }

  /** Returns the agent's full, updated list of config options. */
  async setConfigOption(sessionId: string, configId: string, value: string): Promise<SessionConfigOption[]> {
    const res = await this.untilExit(this.connection().agent.request('session/set_config_option', { sessionId, configId, value }));
    return res.configOptions;
  }

  /** The older model picker (`session/set_model`), for agents that sent `models`. */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.untilExit(this.connection().agent.request<unknown>('session/set_model', { sessionId, modelId }));
  }

  /** Runs one prompt turn; resolves with its stop reason. Updates arrive via onSessionUpdate. */
  async prompt(sessionId: string, prompt: string | ContentBlock[]): Promise<StopReason> {
    const blocks: ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    const turn = this.untilExit(this.connection().agent.request('session/prompt', { sessionId, prompt: blocks }));
    this.activePrompts.set(sessionId, turn);
    try {
      return (await turn).stopReason;
    } finally {
      if (this.activePrompts.get(sessionId) === turn) this.activePrompts.delete(sessionId);
    }
  }

  /** ACP session/cancel; the running prompt then ends with stopReason 'cancelled'. */
  cancel(sessionId: string): void {
    if (this.state !== 'running' && this.state !== 'stopping') return;
    this.options.log.info('prompt', 'cancel', { agent: this.agentName, sessionId });
    void this.conn?.agent.notify('session/cancel', { sessionId }).catch((e: unknown) => this.options.log.debug('agent', 'cancel not delivered', e));
  }

  /** Ends a session: cancels its prompt and frees it in the agent when the agent supports that. */
  async closeSession(sessionId: string): Promise<void> {
    if (this.state !== 'running') return;
    if (this.activePrompts.has(sessionId)) this.cancel(sessionId);
    if (!this.capabilities?.sessionCapabilities?.close) return;
    await Promise.race([this.connection().agent.request('session/close', { sessionId }), delay(2_000)])
      .catch((e: unknown) => this.options.log.warn('session', 'session/close failed', e));
  }

  /**
   * Ends the process: cancel running prompts (they may finish cleanly), close stdin (the conductor
   * exits on EOF), then SIGTERM, then SIGKILL the whole process group. Idempotent.
   */
  stop(reason = 'stopped'): Promise<void> {
    this.stopping ??= this.doStop(reason);
    return this.stopping;
  }

  private async doStop(reason: string): Promise<void> {
    const child = this.child;
    const wasStarting = this.state === 'starting';
    if (this.state !== 'exited') this.state = 'stopping';
    if (!child || this.exitInfo) { this.processScope.dispose(); return; }
    const grace = this.options.graceMs ?? 2_000;
    this.options.log.info('agent', 'stopping', { agent: this.agentName, pid: child.pid, reason });
    if (!wasStarting && this.activePrompts.size > 0) {
      for (const sessionId of this.activePrompts.keys()) this.cancel(sessionId);
      await Promise.race([Promise.allSettled([...this.activePrompts.values()]), delay(Math.min(500, grace))]);
    }
    this.conn?.close();
    child.stdin?.end();
    if (!(await this.exitedWithin(grace))) {
      this.options.log.warn('agent', 'did not exit after stdin closed; SIGTERM', { pid: child.pid });
      this.signalGroup('SIGTERM');
      if (!(await this.exitedWithin(grace))) {
        this.options.log.warn('agent', 'did not exit after SIGTERM; SIGKILL', { pid: child.pid });
        this.signalGroup('SIGKILL');
        await this.exitedWithin(1_000);
      }
    }
    this.processScope.dispose();
  }

  private onExit(info: ExitInfo): void {
    if (this.exitInfo) return;
    this.exitInfo = info;
    const expected = this.state === 'stopping';
    this.state = 'exited';
    this.stderr.end((line) => this.options.onStderrLine?.(line));
    // Whatever the conductor left behind in its group (the agent, MCP servers) goes too.
    this.signalGroup('SIGKILL');
    const failure = this.makeFailure();
    this.failureInfo = failure;
    this.options.log[expected ? 'info' : 'error']('agent', expected ? 'exited' : 'exited unexpectedly', { agent: this.agentName, ...info, failure: expected ? undefined : failure });
    this.conn?.close();
    this.resolveExited(info);
    if (!expected) this.failures.fire(failure);
    this.processScope.dispose();
  }

  private makeFailure(override?: string): AgentFailure {
    const info = this.exitInfo;
    const how = info?.spawnError ? `could not be started: ${info.spawnError}`
      : info?.signal ? `was killed by ${info.signal}`
      : info ? `exited with code ${String(info.code)}` : 'is not running';
    // When the agent died, the conductor reports the agent's own stderr: the better clue. When the
    // conductor itself died, its stderr (which also relays the agent's) is what we have.
    const agentTail = this.agentExit?.stderrTail.trim() ?? '';
    const stderrTail = agentTail || this.stderr.text().trim();
    // The conductor's message may end with "Last stderr:" followed by the tail; we show it apart.
    const reported = this.agentExit?.message.split('\n')[0]?.replace(/\s*Last stderr:\s*$/i, '').trim();
    return {
      agentName: this.agentName,
      message: override ?? (reported || `${this.agentName} ${how}`),
      exitCode: this.agentExit ? this.agentExit.exitCode : info?.code ?? null,
      signal: this.agentExit ? this.agentExit.signal : info?.signal ?? null,
      stderrTail: stderrTail.split('\n').slice(-12).join('\n'),
    };
  }

  /**
   * Rejects with AgentExitedError as soon as the process is gone, instead of hanging. Errors that
   * mean "the process is going away" (the conductor's agent-exited error, a closed connection) also
   * become AgentExitedError, once the exit is known, so callers see one kind of failure.
   */
  private async untilExit<T>(p: Promise<T>): Promise<T> {
    try {
      return await Promise.race([p, this.exited.then((): never => { throw new AgentExitedError(this.failureInfo ?? this.makeFailure()); })]);
    } catch (e) {
      if (e instanceof AgentExitedError) throw e;
      const dying = this.exitInfo !== undefined || this.conn?.signal.aborted === true || (e as { code?: unknown } | null)?.code === ErrorCodes.agentExited;
      if (dying && (await this.exitedWithin(3_000))) throw new AgentExitedError(this.failureInfo ?? this.makeFailure());
      throw e;
    }
  }

  private connection(): acp.ClientConnection {
    if (!this.conn || (this.state !== 'running' && this.state !== 'starting')) throw new AgentExitedError(this.failureInfo ?? this.makeFailure());
    return this.conn;
  }

  private async exitedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([this.exited.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)))]);
    clearTimeout(timer);
    return done;
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') this.child?.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }
}

function parseLegacyModels(raw: unknown): LegacyModels | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { currentModelId, availableModels } = raw as { currentModelId?: unknown; availableModels?: unknown };
  if (typeof currentModelId !== 'string' || !Array.isArray(availableModels)) return null;
  const models = availableModels.flatMap((m: unknown) => {
    const { modelId, name, description } = (m ?? {}) as { modelId?: unknown; name?: unknown; description?: unknown };
    return typeof modelId === 'string' ? [{ modelId, name: typeof name === 'string' ? name : modelId, description: typeof description === 'string' ? description : null }] : [];
  });
  return { currentModelId, availableModels: models };
}
