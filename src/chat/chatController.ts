// The host's coordinator between the webview and agent processes (seed "Message Protocol"): tabs
// and their sessions, prompts (sequential within a tab, concurrent across tabs), cancel, close,
// crash → every affected tab, restart. It routes by ID without interpreting content.
// vscode-free: settings and the folder picker come in as `configure`, the webview as `post`.
import { randomUUID } from 'node:crypto';
import type { ContentBlock, PromptCapabilities, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import { isConversationPayload } from '../protocol/webview';
import type { AgentFailure, AttachContext, ContextItems, ContextRef, HostToWebview, MessageId, SessionControls, TabId, TabPayload, TerminalOutput, WebviewToHost } from '../protocol/webview';
import { PermissionBroker, type CommandDescription, type PendingPermission, type PermissionBrokerDeps } from '../permissions/permissionBroker';
import { DiffStore } from './diffStore';
import { EarlyUpdates } from './earlyUpdates';
import { applyControlUpdate } from './sessionControls';
import { handleTabRequest, type EditorActions, type TabRequestContext } from './tabRequests';

export type { EditorActions } from './tabRequests';
import { AgentActor, AgentExitedError } from '../agents/agentActor';
import { configurationKey, type AgentConfiguration } from '../agents/agentConfiguration';
import { AgentPool, type AgentPoolOptions } from '../agents/agentPool';
import { Outbox, type OutboxLimits, type OutboxStats } from './outbox';
import { Router } from './router';
import { Transcript } from './transcript';

export interface ChatControllerOptions extends Omit<AgentPoolOptions, 'onActor' | 'onPermissionRequest'> {
  /**
   * The configuration for a new session: current settings, and the workspace folder (the
   * previous one on restart; otherwise asks the user when there are several). undefined = none.
   */
  configure: (previousFolder?: string) => Promise<AgentConfiguration | undefined>;
  outboxLimits?: OutboxLimits;
  /** The user's permission rules and where decisions go. */
  permissions: Pick<PermissionBrokerDeps, 'policyFor' | 'enableBypass' | 'record'>;
  /** @-mentions → ACP content blocks, as the agent's prompt capabilities allow. */
  /** A tab was opened (its `@` menu needs filling). */
  onTabOpened?: (tabId: TabId) => void;
  resolveContext?: (refs: ContextRef[], caps: PromptCapabilities, folder: string) => Promise<ContentBlock[]>;
  editor?: EditorActions;
  /** symposium.allowedFolders: besides a tab's folder, where tool-call locations may be opened. */
  allowedFolders?: () => string[];
}

interface TabState {
  tabId: TabId;
  title: string;
  config?: AgentConfiguration;
  /** Session creation, then every prompt, chained: prompts within a tab run one at a time. */
  queue: Promise<void>;
  active?: { messageId: MessageId; actor: AgentActor; sessionId: string };
  queued: number;
  /** The failure card currently shown (its Restart resolves it). */
  failureNotice?: string;
  /** The session's pickers, as the agent last described them. */
  controls: SessionControls;
  closed: boolean;
}

export interface TabInfo {
  tabId: TabId;
  title: string;
  agentName?: string;
  cwd?: string;
  sessionId?: string;
  /** The conductor process serving the tab's session. */
  agentPid?: number;
  busy: boolean;
  failed: boolean;
}

export class ChatController {
  private readonly tabs = new Map<TabId, TabState>();
  private readonly router = new Router();
  private readonly transcript = new Transcript();
  private readonly outbox: Outbox;
  private readonly pool: AgentPool;
  private readonly captures = new Map<TabId, string[]>();
  private readonly diffs = new DiffStore();
  private readonly early = new EarlyUpdates();
  private readonly permissions: PermissionBroker;
  private readonly tabRequests: TabRequestContext;
  private readonly log: Log;
  private post: ((m: HostToWebview) => void) | undefined;
  private disposed = false;
  private contextItems: ContextItems | undefined;

  constructor(private readonly options: ChatControllerOptions) {
    this.log = options.log;
    this.outbox = new Outbox((m) => this.post?.(m), (tabId) => this.transcript.snapshot(tabId), options.outboxLimits);
    const rules = options.permissions; // a class instance: its methods do not spread
    this.permissions = new PermissionBroker({
      policyFor: (agent) => rules.policyFor(agent),
      enableBypass: (agent) => rules.enableBypass(agent),
      record: (entry) => rules.record(entry),
      log: options.log,
      tabFor: (actorKey, sessionId) => {
        const tabId = this.router.tabFor({ actorKey, sessionId });
        const tab = tabId ? this.tabs.get(tabId) : undefined;
        return tab && { tabId: tab.tabId, messageId: tab.active?.messageId };
      },
      post: (payload) => this.send(payload),
    });
    this.tabRequests = {
      log: options.log, permissions: this.permissions, diffs: this.diffs, editor: options.editor,
      send: (p) => this.send(p),
      session: (tabId) => {
        const tab = this.tabs.get(tabId);
        const ref = this.router.sessionFor(tabId);
        const actor = ref && this.pool.get(ref.actorKey);
        return tab && ref && actor ? { actor, sessionId: ref.sessionId, controls: tab.controls } : undefined;
      },
      roots: (tabId) => {
        const folder = this.tabs.get(tabId)?.config?.workspaceFolder;
        return folder ? [folder, ...(options.allowedFolders?.() ?? [])] : [];
      },
    };
    this.pool = new AgentPool({
      ...options,
      onPermissionRequest: (actor, params, signal) => this.permissions.request({ actorKey: actor.key, agentName: actor.agentName, params, signal }),
      onActor: (actor) => {
        actor.onSessionUpdate((e) => this.onSessionUpdate(actor, e.sessionId, e.update));
        actor.onDidFail((failure) => this.onActorFailed(actor, failure));
      },
    });
  }

  /** Where host→webview messages go while the webview is live. */
  setPost(post: ((m: HostToWebview) => void) | undefined): void {
    this.post = post;
  }

  /** The webview is hidden, disposed or being created: buffer until its next `webview-ready`. */
  webviewUnavailable(reason: string): void {
    this.log.info('webview', 'unavailable; buffering', { reason });
    this.outbox.pause();
  }

  /** A validated message from the webview. */
  handle(m: WebviewToHost): void {
    if (this.disposed) return;
    switch (m.type) {
      case 'webview-ready': {
        this.log.info('webview', 'ready', { lastSeenIndex: m.lastSeenIndex, openTabs: m.openTabs });
        this.outbox.ready(m.lastSeenIndex, m.openTabs);
        if (this.contextItems) this.post?.(this.contextItems);
        // Tabs the webview has and we do not (a fresh webview's first tab): give them sessions.
        for (const tabId of m.openTabs) if (!this.tabs.has(tabId)) this.openTab(tabId, 'Chat', false);
        return;
      }
      case 'new-tab': this.openTab(m.tabId, 'Chat', false); return;
      case 'prompt': this.prompt(m.tabId, m.messageId, m.text, m.context); return;
      case 'cancel': this.cancel(m.tabId); return;
      case 'close-tab': this.closeTab(m.tabId); return;
      case 'restart-agent': void this.restartTabConfiguration(m.tabId); return;
      case 'ack': this.outbox.ack(m.lastSeenIndex); return;
      case 'rendered': this.onRendered?.(m); return;
      case 'log': this.log[m.level]('webview', m.message); return;
      case 'permission-answer': case 'set-mode': case 'set-config-option': case 'set-model': case 'open-diff': case 'open-location':
        handleTabRequest(this.tabRequests, m);
        return;
    }
  }

  /** Test hook: receives `rendered` answers. */
  onRendered: ((m: Extract<WebviewToHost, { type: 'rendered' }>) => void) | undefined;

  /**
   * Opens a tab and starts its session. `announce` tells the webview to create the tab (when the
   * host, not the webview, opened it). Idempotent.
   */
  openTab(tabId: TabId, title: string, announce: boolean): void {
    if (this.disposed || this.tabs.has(tabId)) return;
    const tab: TabState = { tabId, title, queue: Promise.resolve(), queued: 0, closed: false, controls: {} };
    this.tabs.set(tabId, tab);
    this.transcript.open(tabId, title);
    this.log.info('session', 'tab opened', { tabId });
    if (announce) this.send({ type: 'open-tab', tabId, title });
    this.options.onTabOpened?.(tabId);
    this.enqueue(tab, () => this.startSession(tab));
  }

  prompt(tabId: TabId, messageId: MessageId, text: string, context: ContextRef[] = []): void {
    let tab = this.tabs.get(tabId);
    if (!tab) {
      this.log.warn('prompt', 'prompt for an unknown tab; opening it', { tabId });
      this.openTab(tabId, 'Chat', false);
      tab = this.tabs.get(tabId)!;
    }
    this.log.info('prompt', 'received', { tabId, messageId, chars: text.length });
    // The prompt-started echo is the one place a prompt appears in the tab (the webview does not
    // draw it itself): at once when the tab is idle, so the user sees it even while the session
    // starts; when it starts if it waits behind another prompt, so it shows below that answer.
    const echoed = !tab.active && tab.queued === 0;
    if (echoed) this.echoPrompt(tab, messageId, text, context);
    tab.queued++;
    const t = tab;
    this.enqueue(t, async () => {
      t.queued--;
      await this.runPrompt(t, messageId, text, context, echoed);
    });
  }

  private echoPrompt(tab: TabState, messageId: MessageId, text: string, context: ContextRef[]): void {
    this.send({ type: 'prompt-started', tabId: tab.tabId, messageId, text, ...(context.length ? { attachments: context.map((c) => c.name) } : {}) });
  }

  cancel(tabId: TabId): void {
    const active = this.tabs.get(tabId)?.active;
    if (!active) return;
    // ACP: after session/cancel the client answers the turn's open permission requests `cancelled`.
    this.permissions.cancelTab(tabId, 'the prompt was cancelled');
    active.actor.cancel(active.sessionId);
  }

  /** Closing a tab ends its session; nothing more is sent for it. */
  closeTab(tabId: TabId): void {
    const tab = this.tabs.get(tabId);
    if (!tab) return;
    tab.closed = true;
    this.permissions.cancelTab(tabId, 'the tab was closed');
    this.tabs.delete(tabId);
    this.diffs.forget(tabId);
    this.outbox.forget(tabId);
    this.transcript.forget(tabId);
    this.captures.delete(tabId);
    const ref = this.router.unbindTab(tabId);
    if (ref) this.sessionEnded(ref.actorKey, ref.sessionId);
    this.log.info('session', 'tab closed', { tabId, sessionId: ref?.sessionId });
    if (ref) void this.pool.get(ref.actorKey)?.closeSession(ref.sessionId);
  }

  /** Restarts the agent process behind this tab; every tab of that configuration gets a new session. */
  async restartTabConfiguration(tabId: TabId): Promise<void> {
    const tab = this.tabs.get(tabId);
    if (!tab) return;
    const key = tab.config ? configurationKey(tab.config) : undefined;
    await this.restart((t) => t === tab || (key !== undefined && t.config !== undefined && configurationKey(t.config) === key));
  }

  /** Restarts every agent process (the `Restart Agent` command); settings changes apply. */
  restartAll(): Promise<void> {
    return this.restart(() => true);
  }

  private async restart(affects: (t: TabState) => boolean): Promise<void> {
    const tabs = [...this.tabs.values()].filter(affects);
    const keys = new Set(tabs.flatMap((t) => (t.config ? [configurationKey(t.config)] : [])));
    const actors = [...keys].flatMap((k) => { const a = this.pool.get(k); return a ? [a] : []; });
    this.log.info('agent', 'restart', { tabs: tabs.map((t) => t.tabId), processes: actors.length });
    for (const a of actors) { this.pool.remove(a); this.permissions.cancelActor(a.key, 'the agent is restarting'); }
    for (const t of tabs) { const ref = this.router.unbindTab(t.tabId); if (ref) this.sessionEnded(ref.actorKey, ref.sessionId); }
    // Stopping cancels running prompts, which frees each tab's queue for the new session.
    await Promise.allSettled(actors.map((a) => a.stop('restart')));
    if (this.disposed) return;
    for (const t of tabs) {
      if (t.closed) continue;
      this.enqueue(t, () => this.startSession(t, { restart: true }));
    }
  }

  private enqueue(tab: TabState, step: () => Promise<void>): void {
    tab.queue = tab.queue.then(step).catch((e: unknown) => this.log.error('session', 'unexpected error', e));
  }

  private async startSession(tab: TabState, opts: { restart?: boolean } = {}): Promise<void> {
    const config = await this.options.configure(tab.config?.workspaceFolder);
    if (tab.closed || this.disposed) return;
    if (!config) {
      this.failTab(tab, { agentName: 'agent', message: 'No workspace folder chosen for this chat.', exitCode: null, signal: null, stderrTail: '' });
      return;
    }
    tab.config = config;
    let actor: AgentActor;
    try {
      actor = this.pool.acquire(config);
      const { sessionId, controls } = await actor.newSession(config.workspaceFolder);
      if (tab.closed || this.disposed) {
        void actor.closeSession(sessionId);
        return;
      }
      this.router.bind(tab.tabId, { actorKey: actor.key, sessionId });
      tab.controls = controls;
      this.send({ type: 'session-ready', tabId: tab.tabId, agentName: actor.agentName, cwd: config.workspaceFolder, controls });
      for (const u of this.early.take(actor.key, sessionId)) this.onSessionUpdate(actor, sessionId, u);
      if (opts.restart || tab.failureNotice) {
        this.send({ type: 'agent-restarted', tabId: tab.tabId, noticeId: tab.failureNotice, agentName: actor.agentName });
        tab.failureNotice = undefined;
      }
    } catch (e) {
      if (tab.closed || this.disposed) return;
      const failure = e instanceof AgentExitedError ? e.failure
        : { agentName: config.agent.name, message: e instanceof Error ? e.message : String(e), exitCode: null, signal: null, stderrTail: '' };
      this.log.error('session', 'could not start a session', { tabId: tab.tabId, failure });
      this.failTab(tab, failure);
    }
  }

  private async runPrompt(tab: TabState, messageId: MessageId, text: string, context: ContextRef[], echoed: boolean): Promise<void> {
    if (tab.closed) return;
    // A queued prompt is announced when it starts, not when queued, so the webview shows it
    // after the previous answer.
    if (!echoed) this.echoPrompt(tab, messageId, text, context);
    const ref = this.router.sessionFor(tab.tabId);
    const actor = ref && this.pool.get(ref.actorKey);
    if (!ref || !actor) {
      this.send({ type: 'prompt-failed', tabId: tab.tabId, messageId, error: 'The agent is not running. Use Restart to start it again.' });
      return;
    }
    tab.active = { messageId, actor, sessionId: ref.sessionId };
    try {
      const attached = context.length && this.options.resolveContext && tab.config
        ? await this.options.resolveContext(context, actor.promptCapabilities, tab.config.workspaceFolder) : [];
      const stopReason = await actor.prompt(ref.sessionId, [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...attached]);
      this.log.info('prompt', 'ended', { tabId: tab.tabId, messageId, stopReason });
      this.send({ type: 'prompt-ended', tabId: tab.tabId, messageId, stopReason });
    } catch (e) {
      const error = e instanceof AgentExitedError ? `Interrupted: ${e.failure.message}` : e instanceof Error ? e.message : String(e);
      this.log.warn('prompt', 'failed', { tabId: tab.tabId, messageId, error });
      this.send({ type: 'prompt-failed', tabId: tab.tabId, messageId, error });
    } finally {
      tab.active = undefined;
      // Approved commands the agent did not run in this turn do not carry over to the next.
      this.permissions.endTurn(ref.actorKey, ref.sessionId);
    }
  }

  private onSessionUpdate(actor: AgentActor, sessionId: string, update: SessionUpdate): void {
    const tabId = this.router.tabFor({ actorKey: actor.key, sessionId });
    const tab = tabId && this.tabs.get(tabId);
    if (!tab) {
      this.log.debug('session', 'update for a session without a tab (yet)', { sessionId, kind: update.sessionUpdate });
      this.early.hold(actor.key, sessionId, update);
      return;
    }
    this.diffs.record(tab.tabId, update);
    applyControlUpdate(tab.controls, update as Parameters<typeof applyControlUpdate>[1]);
    this.send({ type: 'agent-update', tabId: tab.tabId, messageId: tab.active?.messageId, update });
    const capture = this.captures.get(tab.tabId);
    if (capture && update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') capture.push(update.content.text);
  }

  private onActorFailed(actor: AgentActor, failure: AgentFailure): void {
    this.pool.remove(actor);
    this.permissions.cancelActor(actor.key, 'the agent stopped');
    for (const t of this.router.tabsOf(actor.key)) { const ref = this.router.sessionFor(t); if (ref) this.sessionEnded(ref.actorKey, ref.sessionId); }
    const tabIds = this.router.unbindActor(actor.key);
    this.log.error('agent', 'process died; informing tabs', { agent: actor.agentName, tabs: tabIds, failure });
    for (const tabId of tabIds) {
      const tab = this.tabs.get(tabId);
      if (tab) this.failTab(tab, failure);
    }
  }

  /** No terminal outlives its session, and no approval carries over to another one. */
  private sessionEnded(actorKey: string, sessionId: string): void {
    this.options.client?.terminals?.releaseSession(actorKey, sessionId);
    this.permissions.forgetSession(actorKey, sessionId);
  }

  /** For the editor's file and terminal handlers: which tab and folder a session belongs to. */
  lookupSession(actorKey: string, sessionId: string): { tabId: TabId; cwd: string; agentName: string } | undefined {
    const tabId = this.router.tabFor({ actorKey, sessionId });
    const tab = tabId ? this.tabs.get(tabId) : undefined;
    return tab?.config && { tabId: tab.tabId, cwd: tab.config.workspaceFolder, agentName: tab.config.agent.name };
  }

  /** Editor-side messages for a tab: terminal output, attachments. */
  sendToTab(payload: TerminalOutput | AttachContext): void { this.send(payload); }

  /** The `@` menu for every tab: sent now if the webview is there, and on every webview-ready. */
  broadcastContext(items: ContextItems['items']): void {
    this.contextItems = { type: 'context-items', items };
    this.post?.(this.contextItems);
  }

  /** Asks before a command runs, unless an approval or the agent's rules already cover it. */
  authorizeCommand(ctx: { actorKey: string; agentName: string; signal: AbortSignal }, sessionId: string, description: CommandDescription): Promise<boolean> {
    return this.permissions.authorizeCommand(ctx, sessionId, description);
  }

  private failTab(tab: TabState, failure: AgentFailure): void {
    const noticeId = randomUUID();
    tab.failureNotice = noticeId;
    this.send({ type: 'agent-failed', tabId: tab.tabId, noticeId, failure });
  }

  private send(payload: TabPayload): void {
    if (!this.tabs.has(payload.tabId)) return;
    if (isConversationPayload(payload)) this.transcript.record(payload);
    this.outbox.push(payload);
  }

  // ---- test support (symposium.test.* commands) --------------------------------------------

  getTabs(): TabInfo[] {
    return [...this.tabs.values()].map((t) => {
      const ref = this.router.sessionFor(t.tabId);
      return {
        tabId: t.tabId, title: t.title, agentName: t.config?.agent.name, cwd: t.config?.workspaceFolder, sessionId: ref?.sessionId,
        agentPid: ref ? this.pool.get(ref.actorKey)?.pid : undefined,
        busy: t.active !== undefined || t.queued > 0, failed: t.failureNotice !== undefined,
      };
    });
  }

  /** Resolves once the tab's session exists and every queued prompt has finished. */
  async whenIdle(tabId: TabId): Promise<void> {
    for (;;) {
      const tab = this.tabs.get(tabId);
      if (!tab) return;
      const q = tab.queue;
      await q;
      if (this.tabs.get(tabId)?.queue === q) return;
    }
  }

  hasActivePrompt(tabId: TabId): boolean {
    const t = this.tabs.get(tabId);
    return !!t && (t.active !== undefined || t.queued > 0);
  }

  startCapturing(tabId: TabId): void { this.captures.set(tabId, []); }
  getCaptured(tabId: TabId): string { return (this.captures.get(tabId) ?? []).join(''); }
  stopCapturing(tabId: TabId): string { const s = this.getCaptured(tabId); this.captures.delete(tabId); return s; }

  /** Asks the webview what it rendered for the tab (answered via onRendered). */
  queryRendered(tabId: TabId, requestId: string): void {
    this.send({ type: 'query-rendered', tabId, requestId });
  }

  outboxStats(): OutboxStats { return this.outbox.stats(); }
  pendingPermissions(tabId?: TabId): PendingPermission[] { return this.permissions.pendingFor(tabId); }
  sessionControls(tabId: TabId): SessionControls | undefined { return this.tabs.get(tabId)?.controls; }
  agentProcesses(): { key: string; agentName: string; pid: number | undefined; state: string }[] {
    return this.pool.all().map((a) => ({ key: a.key, agentName: a.agentName, pid: a.pid, state: a.currentState }));
  }

  /** Deactivation: stop every process (cancel → terminate → kill); nothing is sent afterwards. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.permissions.dispose();
    await this.pool.stopAll('the extension is deactivating');
  }
}
