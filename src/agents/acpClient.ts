// The editor's end of one ACP connection, on the ACP SDK: `initialize`, what the agent said it can
// do, and the requests the editor makes (sessions new, fork, reopen, list, delete; the pickers;
// prompt, steering, cancel, close). What the editor answers is clientApp.ts's. It knows nothing of
// the process behind the streams (conductorProcess.ts) nor of its lifecycle: every request goes
// through `guard`, which the agent actor uses to fail requests as soon as the process is gone.
// vscode-free.
import { Readable, Writable } from 'node:stream';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentCapabilities, ContentBlock, PromptCapabilities, SessionConfigOption, StopReason } from '@agentclientprotocol/sdk';
import { isObject } from '../protocol/guards';
import type { LegacyModels, SessionControls } from '../protocol/webview';
import { SYMPOSIUM_META_KEY, withToolProgressCapability, type AgentExitedParams } from '../protocol/symposium-ext';
import { IDE_OPERATIONS, withIdeCapability } from '../protocol/ideOperations';
import { advertisesSteering, STEERING_METHOD, steeringOutcome, steeringParams, type SteeringOutcome } from '../protocol/steering';
import { within } from '../node/deadline';
import { acpSdk } from './acpSdk';
import type { AgentMcpTransports } from '../mcp/mcpSummary';
import { TextChunkMerger } from './textChunkMerge';
import { clientApp, type ClientAppOptions } from './clientApp';

export interface AcpClientOptions extends ClientAppOptions {
  clientInfo: { name: string; version: string };
  /** Every request to the agent is passed through this (the actor races it with the process exit). */
  guard: <T>(request: Promise<T>) => Promise<T>;
  /** The editor can run `terminal` auth methods (advertised as clientCapabilities.auth.terminal). */
  authTerminal?: boolean;
}

/** How a new (or forked) session is set up. */
export interface SessionSetup {
  cwd: string;
  /** Folders besides cwd, offered where the agent takes them (sessionDirectories). */
  additionalDirectories?: readonly string[];
  /** The user's own MCP servers; the conductor adds its components' beside them. */
  mcpServers?: acp.McpServer[];
  /** A last change to the params (the extension's `_meta`). */
  decorate?: (params: acp.NewSessionRequest) => acp.NewSessionRequest;
}

export class AcpClient {
  private readonly conn: acp.ClientConnection;
  private capabilities: AgentCapabilities | undefined;
  private auth: unknown[] = [];
  private info: acp.Implementation | undefined;
  private steers = false;
  private exitReport: AgentExitedParams | undefined;
  /** The prompt turn running in each session. */
  private readonly activePrompts = new Map<string, Promise<unknown>>();

  constructor(
    io: { stdin: Writable; stdout: Readable },
    private readonly options: AcpClientOptions,
  ) {
    const sdk = acpSdk(); // loaded by the agent actor before it connects (acpSdk.ts says why)
    const app = clientApp(sdk, options, (report) => (this.exitReport = report));
    // Text chunks that arrive together reach the SDK as one (textChunkMerge.ts says why).
    const merged = io.stdout.pipe(new TextChunkMerger());
    io.stdout.once('error', (e) => merged.destroy(e));
    this.conn = app.connect(sdk.ndJsonStream(Writable.toWeb(io.stdin), Readable.toWeb(merged) as ReadableStream<Uint8Array>));
  }

  /** What the agent accepts in prompts (images, embedded resources); known after initialize. */
  get promptCapabilities(): PromptCapabilities {
    return this.capabilities?.promptCapabilities ?? {};
  }
  /** What the conductor said about its agent's exit (it exits right after), if it did. */
  get agentExit(): AgentExitedParams | undefined {
    return this.exitReport;
  }
  /** The connection ended (stream closed, or close()). */
  get closed(): boolean {
    return this.conn.signal.aborted;
  }
  /** Sessions with a prompt turn running, and the turns. */
  get runningPrompts(): ReadonlyMap<string, Promise<unknown>> {
    return this.activePrompts;
  }

  async initialize(): Promise<acp.InitializeResponse> {
    const { files, terminals, ide, elicitation } = this.options.client ?? {};
    const init = await this.options.guard<acp.InitializeResponse>(
      this.conn.agent.request('initialize', {
        protocolVersion: acpSdk().PROTOCOL_VERSION,
        clientCapabilities: {
          fs: { readTextFile: !!files, writeTextFile: !!files },
          terminal: !!terminals,
          // Boolean config options are shown as switches; agents send them only to clients that say so.
          session: { configOptions: { boolean: {} } },
          // Forms and URLs the agent asks the user about, shown as cards (src/chat/elicitations.ts).
          ...(elicitation ? { elicitation: { form: {}, url: {} } } : {}),
          ...(this.options.authTerminal ? { auth: { terminal: true } } : {}),
          // Our extensions to ACP: the editor shows the conductor's tool progress on its cards
          // itself, and answers _symposium/ide/* (so the conductor needs no IDE adapter).
          _meta: withToolProgressCapability(ide ? withIdeCapability(undefined, { operations: [...IDE_OPERATIONS] }) : undefined),
        },
        clientInfo: this.options.clientInfo,
      }),
    );
    this.capabilities = init.agentCapabilities;
    this.info = init.agentInfo ?? undefined;
    this.steers = advertisesSteering(init);
    // Raw: the sign-in card checks each method (src/protocol/signIn.ts), including types v1 lacks.
    this.auth = Array.isArray(init.authMethods) ? init.authMethods : [];
    return init;
  }

  /** The agent's `agentInfo` from initialize (undefined: it sent none, or not yet initialized). */
  get agentInfo(): acp.Implementation | undefined {
    return this.info;
  }

  /** The agent's `authMethods` from initialize, unchecked. */
  get authMethods(): readonly unknown[] {
    return this.auth;
  }

  /** ACP `authenticate {methodId}` (agent-handled methods only). */
  async authenticate(methodId: string): Promise<void> {
    await this.options.guard(this.conn.agent.request('authenticate', { methodId }));
  }

  /** The agent offers ACP `logout` (`agentCapabilities.auth.logout`); known after initialize. */
  get canSignOut(): boolean {
    const logout = this.capabilities?.auth?.logout;
    return logout !== undefined && logout !== null;
  }

  /** ACP `logout`: the agent ends its authenticated session (the next request may ask to sign in again). */
  async logout(): Promise<void> {
    await this.options.guard(this.conn.agent.request('logout', {}));
  }

  /** The agent takes extra user input into a running turn (`_session/steering`); known after initialize. */
  get canSteer(): boolean {
    return this.steers;
  }

  /**
   * Steers `text` into the session's running turn. `promptRequired` when no turn runs (the text is
   * still ours to send); an answer we do not know counts as that too, so the text is never lost.
   */
  async steer(sessionId: string, text: string): Promise<SteeringOutcome> {
    const res = await this.options.guard(this.conn.agent.request<unknown>(STEERING_METHOD, steeringParams(sessionId, text)));
    return steeringOutcome(res) ?? 'promptRequired';
  }

  /** The conductor's components in chain order (its `agentCapabilities._meta.symposium`); [] for a plain agent. */
  get conductorComponents(): string[] {
    const ours = (this.capabilities?._meta as Record<string, unknown> | undefined)?.[SYMPOSIUM_META_KEY] as
      { components?: unknown } | undefined;
    return Array.isArray(ours?.components) ? ours.components.filter((c): c is string => typeof c === 'string') : [];
  }

  /**
   * The folders besides cwd a session gets of `offered`: all of them when the agent takes
   * `additionalDirectories` (`sessionCapabilities.additionalDirectories`), else none. The editor's
   * fs/* and terminals are confined to exactly cwd plus these.
   */
  sessionDirectories(offered: readonly string[] | undefined): string[] {
    const takes = this.capabilities?.sessionCapabilities?.additionalDirectories;
    return takes !== undefined && takes !== null ? [...(offered ?? [])] : [];
  }

  /** `cwd` and what sessionDirectories() lets through, as a session/new|load|resume|fork carries them. */
  private sessionFolders(cwd: string, offered: readonly string[] | undefined): { cwd: string; additionalDirectories?: string[] } {
    const additionalDirectories = this.sessionDirectories(offered);
    return { cwd, ...(additionalDirectories.length ? { additionalDirectories } : {}) };
  }

  /** The params of `session/new` (and `session/fork`'s besides the sessionId) for `setup`. */
  private sessionParams(setup: SessionSetup): acp.NewSessionRequest {
    const base: acp.NewSessionRequest = {
      ...this.sessionFolders(setup.cwd, setup.additionalDirectories),
      mcpServers: setup.mcpServers ?? [],
    };
    return setup.decorate ? setup.decorate(base) : base;
  }

  /**
   * Creates a session in `cwd`, with `additionalDirectories` when the agent takes them (`decorate`
   * may add to its params, e.g. `_meta` for the conductor's components).
   */
  async newSession(setup: SessionSetup): Promise<{ sessionId: string; controls: SessionControls }> {
    const { cwd } = setup;
    const params = this.sessionParams(setup);
    const res = await this.options.guard(this.conn.agent.request('session/new', params));
    this.options.log.info('session', 'created', { agent: this.options.agentName, sessionId: res.sessionId, cwd });
    // `models` predates configOptions and is not in the v1 schema; agents still send it.
    const models = parseLegacyModels((res as { models?: unknown }).models);
    return { sessionId: res.sessionId, controls: { modes: res.modes ?? null, configOptions: res.configOptions ?? null, models } };
  }

  /**
   * The MCP transports the agent behind the conductor takes itself (`_meta.symposium.agentMcpCapabilities`):
   * the conductor takes HTTP and SSE servers for every agent and bridges them to stdio for one that
   * does not. undefined: no conductor said so.
   */
  get agentMcpTransports(): AgentMcpTransports | undefined {
    const ours = (this.capabilities?._meta as Record<string, unknown> | undefined)?.[SYMPOSIUM_META_KEY];
    const mcp = isObject(ours) ? ours.agentMcpCapabilities : undefined;
    return isObject(mcp) ? { http: mcp.http === true, sse: mcp.sse === true } : undefined;
  }

  /** Whether the agent offers `session/fork` (`sessionCapabilities.fork`, unstable in the schema). */
  get canForkSession(): boolean {
    const caps = this.capabilities?.sessionCapabilities as { fork?: unknown } | undefined;
    return caps?.fork !== undefined && caps.fork !== null;
  }

  /**
   * `session/fork`: a new session that starts as a copy of `sessionId` as it is now (the whole
   * conversation). Set up like a new one (`decorate` sees the same params as for session/new),
   * plus the session it copies.
   */
  async forkSession(sessionId: string, setup: SessionSetup): Promise<{ sessionId: string; controls: SessionControls }> {
    const { cwd } = setup;
    const params = { ...this.sessionParams(setup), sessionId };
    const res = await this.options.guard(this.conn.agent.request<unknown>('session/fork', params));
    // Unstable, so the SDK does not check the answer: the fields the tab uses are checked here.
    const fork: Record<string, unknown> = isObject(res) ? res : {};
    if (typeof fork.sessionId !== 'string') throw new Error('the agent answered session/fork without a "sessionId"');
    this.options.log.info('session', 'forked', { agent: this.options.agentName, from: sessionId, sessionId: fork.sessionId, cwd });
    const controls: SessionControls = {
      modes: isObject(fork.modes) && Array.isArray(fork.modes.availableModes) ? (fork.modes as unknown as acp.SessionModeState) : null,
      configOptions: Array.isArray(fork.configOptions) ? (fork.configOptions as acp.SessionConfigOption[]) : null,
      models: parseLegacyModels(fork.models),
    };
    return { sessionId: fork.sessionId, controls };
  }

  /** What the agent said it can do (loadSession, sessionCapabilities); known after initialize. */
  get agentCapabilities(): AgentCapabilities {
    return this.capabilities ?? {};
  }

  /**
   * Continues an earlier session: `session/resume` (the agent keeps its context, no replay) or
   * `session/load` (the agent replays the conversation as session/update before it answers).
   */
  async reopenSession(
    how: 'resume' | 'load',
    sessionId: string,
    cwd: string,
    additionalDirectories?: readonly string[],
    mcpServers: acp.McpServer[] = [],
  ): Promise<{ controls: SessionControls }> {
    // The list sent is the session's whole list from now on (ACP), so it is sent again in full.
    const params: acp.LoadSessionRequest = { sessionId, ...this.sessionFolders(cwd, additionalDirectories), mcpServers };
    const res =
      how === 'resume'
        ? await this.options.guard(this.conn.agent.request('session/resume', params))
        : await this.options.guard(this.conn.agent.request('session/load', params));
    this.options.log.info('session', how === 'resume' ? 'resumed' : 'loaded', { agent: this.options.agentName, sessionId, cwd });
    // Notification handlers may still be queued behind the response (a load's replay): let them run.
    await new Promise((r) => setImmediate(r));
    const models = parseLegacyModels((res as { models?: unknown }).models);
    return { controls: { modes: res.modes ?? null, configOptions: res.configOptions ?? null, models } };
  }

  /** The agent's own sessions in `cwd` (session/list, every page), or [] when it cannot list. */
  async listSessions(cwd: string): Promise<acp.SessionInfo[]> {
    if (!this.capabilities?.sessionCapabilities?.list) return [];
    const all: acp.SessionInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await this.options.guard(this.conn.agent.request('session/list', { cwd, ...(cursor ? { cursor } : {}) }));
      all.push(...res.sessions);
      if (!res.nextCursor) break;
      cursor = res.nextCursor;
    }
    return all;
  }

  /** Whether the agent offers `session/delete` (`sessionCapabilities.delete`); known after initialize. */
  get canDeleteSession(): boolean {
    const del = this.capabilities?.sessionCapabilities?.delete;
    return del !== undefined && del !== null;
  }

  /**
   * `session/delete`: the agent forgets one of its own sessions (the ones session/list shows). A
   * session it does not know (`-32002`) counts as deleted already (the SDK resolves it so).
   */
  async deleteSession(sessionId: string): Promise<void> {
    await this.options.guard(this.conn.agent.request('session/delete', { sessionId }));
    this.options.log.info('session', 'deleted', { agent: this.options.agentName, sessionId });
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.options.guard(this.conn.agent.request('session/set_mode', { sessionId, modeId }));
  }

  /** Returns the agent's full, updated list of config options. A boolean option is set with `type: 'boolean'`. */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    const params: acp.SetSessionConfigOptionRequest =
      typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    const res = await this.options.guard(this.conn.agent.request('session/set_config_option', params));
    return res.configOptions;
  }

  /** The older model picker (`session/set_model`), for agents that sent `models`. */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.options.guard(this.conn.agent.request<unknown>('session/set_model', { sessionId, modelId }));
  }

  /** Runs one prompt turn; resolves with its stop reason. Updates arrive via onSessionUpdate. */
  async prompt(sessionId: string, prompt: string | ContentBlock[]): Promise<StopReason> {
    const blocks: ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    const turn = this.options.guard(this.conn.agent.request('session/prompt', { sessionId, prompt: blocks }));
    this.activePrompts.set(sessionId, turn);
    try {
      return (await turn).stopReason;
    } finally {
      if (this.activePrompts.get(sessionId) === turn) this.activePrompts.delete(sessionId);
    }
  }

  /** ACP session/cancel; the running prompt then ends with stopReason 'cancelled'. */
  cancel(sessionId: string): void {
    this.options.log.info('prompt', 'cancel', { agent: this.options.agentName, sessionId });
    void this.conn.agent
      .notify('session/cancel', { sessionId })
      .catch((e: unknown) => this.options.log.debug('agent', 'cancel not delivered', e));
  }

  /** Ends a session: cancels its prompt and frees it in the agent when the agent supports that. */
  async closeSession(sessionId: string): Promise<void> {
    if (this.activePrompts.has(sessionId)) this.cancel(sessionId);
    if (!this.capabilities?.sessionCapabilities?.close) return;
    await within(2_000, this.conn.agent.request('session/close', { sessionId })).catch((e: unknown) =>
      this.options.log.warn('session', 'session/close failed', e),
    );
  }

  close(): void {
    this.conn.close();
  }
}

function parseLegacyModels(raw: unknown): LegacyModels | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { currentModelId, availableModels } = raw as { currentModelId?: unknown; availableModels?: unknown };
  if (typeof currentModelId !== 'string' || !Array.isArray(availableModels)) return null;
  const models = availableModels.flatMap((m: unknown) => {
    const { modelId, name, description } = (m ?? {}) as { modelId?: unknown; name?: unknown; description?: unknown };
    return typeof modelId === 'string'
      ? [{ modelId, name: typeof name === 'string' ? name : modelId, description: typeof description === 'string' ? description : null }]
      : [];
  });
  return { currentModelId, availableModels: models };
}
