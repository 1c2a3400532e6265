// One agent process as the chat uses it: a conductor process (conductorProcess.ts) with an ACP
// client on its stdio (acpClient.ts), and the lifecycle that ties them together: start (spawn +
// initialize, shared by concurrent callers), sessions and prompts that fail with AgentExitedError
// as soon as the process is gone, stop (cancel running prompts, close the connection, then end
// the process), and one failure report when the process dies on its own (agentEnd.ts). One actor
// never outlives its process: a restart is a new actor (agentPool.ts). Nothing else spawns or kills it.
// vscode-free, so plain-Node tests can drive it against the real conductor + ElizACP.
import type {
  AgentCapabilities,
  ContentBlock,
  McpServer,
  NewSessionRequest,
  SessionInfo,
  PromptCapabilities,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
  StopReason,
} from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { AgentFailure, SessionControls } from '../protocol/webview';
import { Emitter } from '../util/emitter';
import { within } from '../node/deadline';
import { AcpClient, type SessionSetup } from './acpClient';
import type { SessionUpdateEvent } from './clientApp';
import { loadAcpSdk } from './acpSdk';
import type { SpawnSpec } from './agentConfiguration';
import type { AgentMcpTransports } from '../mcp/mcpSummary';
import type { ClientHandlers } from './clientHandlers';
import { ConductorProcess } from './conductorProcess';
import { ToolProgressMapper } from '../protocol/toolProgressMapper';
import { AgentEnd, AgentExitedError } from './agentEnd';
import type { SteeringOutcome } from '../protocol/steering';

export interface AgentActorOptions {
  /** The configuration key; also part of every session reference. */
  key: string;
  agentName: string;
  spec: SpawnSpec;
  log: Log;
  /** Every stderr line of the process (conductor and agent logs). */
  onStderrLine?: (line: string) => void;
  /** Every line of the conductor's protocol trace (src/traffic/). */
  onTraceLine?: (line: string) => void;
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
  /** The state or the number of running prompts changed (the status bar follows it). */
  onStateChange?: () => void;
  /** The editor can run `terminal` auth methods. */
  authTerminal?: boolean;
}

/** A session's setup (AcpClient's), whose `decorate` also gets the conductor's components. */
export interface ActorSessionSetup extends Omit<SessionSetup, 'decorate'> {
  decorate?: (params: NewSessionRequest, conductorComponents: string[]) => NewSessionRequest;
}

export type ActorState = 'idle' | 'starting' | 'running' | 'stopping' | 'exited';

export class AgentActor {
  private state: ActorState = 'idle';
  private readonly process: ConductorProcess;
  private acp: AcpClient | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly updates = new Emitter<SessionUpdateEvent>();
  private prompts = 0;
  private readonly toolProgress = new ToolProgressMapper();
  private readonly end: AgentEnd;

  /** ACP session/update notifications, in arrival order. */
  readonly onSessionUpdate = this.updates.event;
  /** The process ended without stop() being called (crash, agent exit, broken chain). Fires once. */
  get onDidFail(): AgentEnd['onDidFail'] {
    return this.end.onDidFail;
  }

  constructor(private readonly options: AgentActorOptions) {
    this.process = new ConductorProcess({
      name: options.agentName,
      spec: options.spec,
      log: options.log,
      graceMs: options.graceMs,
      onStderrLine: options.onStderrLine,
      onTraceLine: options.onTraceLine,
    });
    this.end = new AgentEnd({
      agentName: options.agentName,
      log: options.log,
      process: this.process,
      connection: () => this.acp,
      onStateChange: options.onStateChange,
    });
    this.process.onDidExit((exit) => {
      this.state = 'exited';
      this.end.exited(exit);
    });
    // The actor's listeners end with its process.
    this.process.processScope.add(this.updates);
  }

  get key(): string {
    return this.options.key;
  }
  get agentName(): string {
    return this.options.agentName;
  }
  get currentState(): ActorState {
    return this.state;
  }
  /** Prompt turns running now (any session). */
  get runningPromptCount(): number {
    return this.prompts;
  }
  /** Why the process ended on its own, once it has. */
  get failure(): AgentFailure | undefined {
    return this.end.failure;
  }
  private setState(state: ActorState): void {
    this.state = state;
    this.options.onStateChange?.();
  }
  get pid(): number | undefined {
    return this.process.pid;
  }
  /** The conductor's stderr so far; it relays the agent's own as log lines (slowStart.ts reads them). */
  stderrText(): string {
    return this.process.stderrText();
  }
  /** What the agent accepts in prompts (images, embedded resources); known after initialize. */
  get promptCapabilities(): PromptCapabilities {
    return this.acp?.promptCapabilities ?? {};
  }
  /** Whether new sessions can still be created here (not stopping, not dead). */
  get usable(): boolean {
    return this.state === 'idle' || this.state === 'starting' || this.state === 'running';
  }

  /** Spawns the process and runs `initialize`; concurrent callers share one start. */
  start(): Promise<void> {
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    this.setState('starting');
    // The ACP SDK's code loads on the first start (acpSdk.ts); the chat view starts it early.
    await loadAcpSdk();
    this.throwIfStoppedWhileStarting();
    const io = this.process.spawn();
    const acp = new AcpClient(io, {
      actorKey: this.key,
      agentName: this.agentName,
      log: this.options.log,
      clientInfo: this.options.clientInfo,
      guard: (request) => this.end.guard(request),
      onSessionUpdate: (e) => {
        this.toolProgress.observe(e.sessionId, e.update);
        this.updates.fire(e);
      },
      // Progress of an in-process MCP tool, shown on the session's running card of that tool.
      onToolProgress: (p) => {
        const update = this.toolProgress.toUpdate(p);
        if (update) this.updates.fire({ sessionId: p.sessionId, update });
      },
      onPermissionRequest: this.options.onPermissionRequest,
      onComponentExited: (p) => {
        if (this.state !== 'stopping' && this.state !== 'exited') this.end.chainBroke(p);
      },
      client: this.options.client,
      authTerminal: this.options.authTerminal,
    });
    this.acp = acp;
    this.process.processScope.add({ dispose: () => acp.close() });
    const init = await acp.initialize();
    this.throwIfStoppedWhileStarting();
    this.setState('running');
    this.options.log.info('agent', 'initialized', {
      agent: this.agentName,
      pid: this.pid,
      protocolVersion: init.protocolVersion,
      agentInfo: init.agentInfo,
    });
  }

  /** After an await in doStart: stop() may have been called meanwhile. */
  private throwIfStoppedWhileStarting(): void {
    if (this.state !== 'starting') throw new AgentExitedError(this.end.current('the agent was stopped while starting'));
  }

  /** The MCP transports the agent behind the conductor takes itself (undefined: not known, or no conductor). */
  get agentMcpTransports(): AgentMcpTransports | undefined {
    return this.acp?.agentMcpTransports;
  }

  /** The agent's `agentInfo` from initialize (undefined before it, or when it sent none). */
  get agentInfo(): { name: string; version: string } | undefined {
    return this.acp?.agentInfo;
  }

  /** The agent's `authMethods` from initialize (unchecked; empty before it). */
  get authMethods(): readonly unknown[] {
    return this.acp?.authMethods ?? [];
  }

  /** ACP `authenticate {methodId}`. */
  async authenticate(methodId: string): Promise<void> {
    await this.connection().authenticate(methodId);
  }

  /** The running agent offers sign-out (`auth.logout`). */
  get canSignOut(): boolean {
    return this.acp?.canSignOut ?? false;
  }

  /** ACP `logout`. */
  async signOut(): Promise<void> {
    await this.connection().logout();
  }

  /** The running agent takes extra user input into a running turn (`_session/steering`). */
  get canSteer(): boolean {
    return this.acp?.canSteer ?? false;
  }

  /** Steers user input into the session's running turn (see AcpClient.steer). */
  async steer(sessionId: string, text: string): Promise<SteeringOutcome> {
    return this.connection().steer(sessionId, text);
  }

  /** Creates a session; also returns the pickers (modes, config options, models) it offers. */
  async newSession(setup: ActorSessionSetup): Promise<{ sessionId: string; controls: SessionControls }> {
    await this.start();
    return this.connection().newSession(this.forConnection(setup));
  }

  /** Of `offered`, the folders besides cwd a session of this agent gets (see AcpClient.sessionDirectories). */
  sessionDirectories(offered: readonly string[] | undefined): string[] {
    return this.acp?.sessionDirectories(offered) ?? [];
  }

  /** `session/fork` of a session of this process, set up like newSession (see AcpClient.forkSession). */
  async forkSession(sessionId: string, setup: ActorSessionSetup): Promise<{ sessionId: string; controls: SessionControls }> {
    await this.start();
    return this.connection().forkSession(sessionId, this.forConnection(setup));
  }

  /** The connection's setup: `decorate` also learns the conductor's components. */
  private forConnection({ decorate, ...setup }: ActorSessionSetup): SessionSetup {
    const connection = this.connection();
    return { ...setup, ...(decorate ? { decorate: (params) => decorate(params, connection.conductorComponents) } : {}) };
  }

  /** Whether the agent offers `session/fork`; starts the process. */
  async canForkSession(): Promise<boolean> {
    await this.start();
    return this.connection().canForkSession;
  }

  /** What the agent can do with old sessions (loadSession, sessionCapabilities.resume/list); starts the process. */
  async capabilities(): Promise<AgentCapabilities> {
    await this.start();
    return this.connection().agentCapabilities;
  }

  /** `session/resume` or `session/load` of an earlier session (see AcpClient.reopenSession). */
  async reopenSession(
    how: 'resume' | 'load',
    sessionId: string,
    cwd: string,
    additionalDirectories?: readonly string[],
    mcpServers: McpServer[] = [],
  ): Promise<{ controls: SessionControls }> {
    await this.start();
    return this.connection().reopenSession(how, sessionId, cwd, additionalDirectories, mcpServers);
  }

  /** The agent's own sessions in `cwd` (empty when it cannot list them). */
  async listSessions(cwd: string): Promise<SessionInfo[]> {
    await this.start();
    return this.connection().listSessions(cwd);
  }

  /** Whether the agent offers `session/delete`; starts the process. */
  async canDeleteSession(): Promise<boolean> {
    await this.start();
    return this.connection().canDeleteSession;
  }

  /** `session/delete` of one of the agent's own sessions (see AcpClient.deleteSession). */
  async deleteSession(sessionId: string): Promise<void> {
    await this.start();
    await this.connection().deleteSession(sessionId);
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    await this.connection().setMode(sessionId, modeId);
  }

  /** Returns the agent's full, updated list of config options. */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    return this.connection().setConfigOption(sessionId, configId, value);
  }

  /** The older model picker (`session/set_model`), for agents that sent `models`. */
  async setModel(sessionId: string, modelId: string): Promise<void> {
    await this.connection().setModel(sessionId, modelId);
  }

  /** Runs one prompt turn; resolves with its stop reason. Updates arrive via onSessionUpdate. */
  async prompt(sessionId: string, prompt: string | ContentBlock[]): Promise<StopReason> {
    const acp = this.connection();
    this.prompts++;
    this.options.onStateChange?.();
    try {
      return await acp.prompt(sessionId, prompt);
    } finally {
      this.prompts--;
      this.options.onStateChange?.();
    }
  }

  /** ACP session/cancel; the running prompt then ends with stopReason 'cancelled'. */
  cancel(sessionId: string): void {
    if (this.state !== 'running' && this.state !== 'stopping') return;
    this.acp?.cancel(sessionId);
  }

  /** Ends a session: cancels its prompt and frees it in the agent when the agent supports that. */
  async closeSession(sessionId: string): Promise<void> {
    if (this.state !== 'running') return;
    await this.connection().closeSession(sessionId);
  }

  /**
   * Ends the process: cancel running prompts (they may finish cleanly), close the connection, then
   * the process ends (stdin closed, SIGTERM, SIGKILL to its group). Idempotent.
   */
  stop(reason = 'stopped'): Promise<void> {
    this.stopping ??= this.doStop(reason);
    return this.stopping;
  }

  private doStop(reason: string): Promise<void> {
    const wasStarting = this.state === 'starting';
    if (this.state !== 'exited') this.setState('stopping');
    return this.process.stop(reason, async () => {
      const running = this.acp?.runningPrompts;
      if (!wasStarting && running && running.size > 0) {
        for (const sessionId of running.keys()) this.cancel(sessionId);
        await within(Math.min(500, this.options.graceMs ?? 2_000), Promise.allSettled([...running.values()]));
      }
      this.acp?.close();
    });
  }

  /** The ACP connection, while the process is starting or running. */
  private connection(): AcpClient {
    if (!this.acp || (this.state !== 'running' && this.state !== 'starting')) throw new AgentExitedError(this.end.current());
    return this.acp;
  }
}
