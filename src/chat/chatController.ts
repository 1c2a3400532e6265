// The chat controller: what happens to chat tabs and their agent sessions. It routes each message
// from the webview (message protocol, webview → host) and runs the session lifecycle: a tab opens
// and gets a session in the agent process for its configuration; prompts run one at a time within
// a tab and concurrently across tabs; cancel, close, a crashing process (every tab it served is
// told) and restart. It routes by ID without interpreting content. Its collaborators are created
// before it, at activation, and shared with the editor side: the session directory (who shows
// which session), the permission broker, the per-tab message channel and the agent pool.
// vscode-free: settings and the folder picker come in as `configure`, the editor as `EditorActions`.
// A session the agent refuses until the user signs in becomes a sign-in card (signIn.ts). Reopened past
// conversations (reopenTab) share the tab lifecycle; their logic is in src/history/reopen.ts.
// Where each webview message goes is in webviewInbox.ts.
import { randomUUID } from 'node:crypto';
import type { ContentBlock, NewSessionRequest, PromptCapabilities, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type {
  AgentFailure,
  AttachImage,
  ContextRef,
  ConversationEntry,
  MessageId,
  SessionControls,
  TabId,
  TabPayload,
  WebviewToHost,
} from '../protocol/webview';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { AgentExitedError, type AgentActor } from '../agents/agentActor';
import { configurationKey, type AgentConfiguration } from '../agents/agentConfiguration';
import type { AgentPool } from '../agents/agentPool';
import { DiffStore } from './diffStore';
import { EarlyUpdates } from './earlyUpdates';
import type { SessionDirectory } from './sessionDirectory';
import { applyControlUpdate } from './sessionControls';
import { type EditorActions, type TabRequestContext } from './tabRequests';
import { routeWebviewMessage } from './webviewInbox';
import { isAuthRequired, SignInFlow, type SignInAgent, type SignInDeps } from './signIn';
import type { TabMessages } from './tabMessages';
import { continuePastSession, READ_ONLY_PROMPT_ERROR, transcriptContext, type PastConversation, type PastState } from '../history/reopen';

export interface ChatControllerDeps {
  log: Log;
  /** Tab ↔ session ↔ folder ↔ agent; the controller binds and unbinds, others look up. */
  sessions: SessionDirectory;
  /** Everything sent to a tab goes through here. */
  messages: TabMessages;
  permissions: PermissionBroker;
  /** The agent processes (one per configuration); the controller subscribes to each new one. */
  pool: AgentPool;
  /**
   * The configuration for a new session: current settings, and the workspace folder (the
   * previous one on restart; otherwise asks the user when there are several). undefined = none.
   */
  configure: (previousFolder?: string, agentName?: string) => Promise<AgentConfiguration | undefined>;
  /** @-mentions → ACP content blocks, as the agent's prompt capabilities allow. */
  resolveContext?: (refs: ContextRef[], caps: PromptCapabilities, folder: string, message: string) => Promise<ContentBlock[]>;
  /** Adds to a new session's params what the conductor's components need (OpenCtx providers), given the chain. */
  decorateSession?: (params: NewSessionRequest, conductorComponents: string[]) => NewSessionRequest;
  /** What the user typed after `@` (OpenCtx providers are asked for mentions matching it). */
  onContextQuery?: (query: string) => void;
  /** An image pasted or dropped onto a tab's prompt (src/context/pastedImages.ts). */
  attachImage?: (m: AttachImage) => void;
  /** A tab was opened (its `@` menu needs filling). */
  onTabOpened?: (tabId: TabId) => void;
  editor?: EditorActions;
  /** symposium.allowedFolders: besides a tab's folder, where tool-call locations may be opened. */
  allowedFolders?: () => string[];
  /** Runs an agent's terminal sign-in in an editor terminal (signIn.ts); absent: terminal methods are not offered. */
  runSignInTerminal?: SignInDeps['runInTerminal'];
  /** The conversation history (src/history/): which stored conversation a reopened tab continues. */
  history?: {
    /** Whether this window now owns the conversation (false: open live in another window). */
    adopt(tabId: TabId, conversationId: string): boolean;
    /** The tab's read-only copy goes on as a new conversation (a new file, the transcript copied). */
    fork(tabId: TabId, conversation: PastConversation): void;
    replaced(tabId: TabId, entries: ConversationEntry[]): void;
    close(tabId: TabId): void;
    /** The tab's menu: Export to Markdown. */
    exportTab(tabId: TabId): void;
  };
}

/** A chat tab as the controller keeps it. */
export interface ChatTab {
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
  /** A conversation reopened from the history (read-only until continued). */
  past?: PastState;
}

export class ChatController {
  private readonly tabs = new Map<TabId, ChatTab>();
  private readonly diffs = new DiffStore();
  private readonly early = new EarlyUpdates();
  private readonly tabRequests: TabRequestContext;
  private readonly log: Log;
  private readonly sessions: SessionDirectory;
  private readonly messages: TabMessages;
  private readonly permissions: PermissionBroker;
  private readonly pool: AgentPool;
  private readonly signIn: SignInFlow;
  private disposed = false;

  constructor(private readonly deps: ChatControllerDeps) {
    ({ log: this.log, sessions: this.sessions, messages: this.messages, permissions: this.permissions, pool: this.pool } = deps);
    this.tabRequests = {
      log: deps.log,
      permissions: deps.permissions,
      diffs: this.diffs,
      editor: deps.editor,
      send: (p) => this.send(p),
      session: (tabId) => {
        const tab = this.tabs.get(tabId);
        const ref = this.sessions.sessionFor(tabId);
        const actor = ref && this.pool.get(ref.actorKey);
        return tab && ref && actor ? { actor, sessionId: ref.sessionId, controls: tab.controls } : undefined;
      },
      roots: (tabId) => {
        const folder = this.tabs.get(tabId)?.config?.workspaceFolder;
        return folder ? [folder, ...(deps.allowedFolders?.() ?? [])] : [];
      },
    };
    this.signIn = new SignInFlow({
      log: deps.log,
      send: (p) => this.send(p),
      runInTerminal: deps.runSignInTerminal,
      retry: (tabId, how) => {
        const tab = this.tabs.get(tabId);
        if (how === 'restart') void this.restartTabConfiguration(tabId);
        else if (tab && !tab.closed) this.enqueue(tab, () => this.startSession(tab));
      },
    });
    this.pool.onDidCreateActor((actor) => {
      actor.onSessionUpdate((e) => this.onSessionUpdate(actor, e.sessionId, e.update));
      actor.onDidFail((failure) => this.onActorFailed(actor, failure));
    });
  }

  /** A validated message from the webview (webviewInbox.ts says where each goes). */
  handle(m: WebviewToHost): void {
    if (this.disposed) return;
    routeWebviewMessage(m, {
      log: this.log,
      messages: this.messages,
      tabs: this,
      knowsTab: (tabId) => this.tabs.has(tabId),
      signIn: this.signIn,
      tabRequests: this.tabRequests,
      exportTab: (tabId) => this.deps.history?.exportTab(tabId),
      attachImage: (msg) => this.deps.attachImage?.(msg),
      contextQuery: (query) => this.deps.onContextQuery?.(query),
    });
  }

  /**
   * Opens a tab and starts its session. `announce` tells the webview to create the tab (when the
   * host, not the webview, opened it). Idempotent.
   */
  openTab(tabId: TabId, title: string, announce: boolean): void {
    if (this.disposed || this.tabs.has(tabId)) return;
    const tab: ChatTab = { tabId, title, queue: Promise.resolve(), queued: 0, closed: false, controls: {} };
    this.tabs.set(tabId, tab);
    this.messages.openTab(tabId, title);
    this.log.info('session', 'tab opened', { tabId });
    if (announce) this.send({ type: 'open-tab', tabId, title });
    this.deps.onTabOpened?.(tabId);
    this.enqueue(tab, () => this.startSession(tab));
  }

  /**
   * Opens a tab on a past conversation: its transcript at once (read-only), then the agent is asked
   * to continue the session (src/history/reopen.ts). Idempotent.
   */
  reopenTab(tabId: TabId, conversation: PastConversation, announce: boolean): void {
    if (this.disposed || this.tabs.has(tabId)) return;
    const { title } = conversation.meta;
    const past: PastState = { conversation, readOnly: true };
    const tab: ChatTab = { tabId, title, queue: Promise.resolve(), queued: 0, closed: false, controls: {}, past };
    this.tabs.set(tabId, tab);
    this.messages.openTab(tabId, title);
    if (this.deps.history && !this.deps.history.adopt(tabId, conversation.meta.id)) past.elsewhere = true;
    if (announce) this.send({ type: 'open-tab', tabId, title });
    this.messages.restore(tabId, title, conversation.entries);
    this.log.info('session', 'past conversation reopened', { tabId, conversation: conversation.meta.id });
    this.deps.onTabOpened?.(tabId);
    this.enqueue(tab, async () => {
      const config = await continuePastSession(
        {
          log: this.log,
          configure: (folder, agentName) => this.deps.configure(folder, agentName),
          acquire: (c) => this.pool.acquire(c),
          send: (p) => this.send(p),
          restore: (id, t, entries) => this.messages.restore(id, t, entries),
          replaced: (id, entries) => this.deps.history?.replaced(id, entries),
          captureUpdates: (actorKey, sessionId) => {
            this.early.capture(actorKey, sessionId);
            return { take: () => this.early.take(actorKey, sessionId) };
          },
          bind: (actor, sessionId, controls, c) => this.bindSession(tab, actor, sessionId, controls, c),
          gone: () => tab.closed || this.disposed,
        },
        tabId,
        past,
      );
      tab.config ??= config;
    });
  }

  /** A read-only past conversation goes on in a fresh session; the next prompt carries its transcript. */
  continueInNewSession(tabId: TabId): void {
    const tab = this.tabs.get(tabId);
    if (!tab?.past?.readOnly) return;
    tab.past.readOnly = false;
    tab.past.contextPending = true;
    // Open live in another window: never append to its file; this becomes a conversation of its own.
    if (tab.past.elsewhere) this.deps.history?.fork(tabId, tab.past.conversation);
    this.send({
      type: 'tab-notice',
      tabId,
      level: 'info',
      text: 'A new session: the agent does not remember this conversation. Your next prompt carries its transcript as context.',
    });
    const t = tab;
    this.enqueue(t, () => this.startSession(t));
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

  private echoPrompt(tab: ChatTab, messageId: MessageId, text: string, context: ContextRef[]): void {
    this.send({
      type: 'prompt-started',
      tabId: tab.tabId,
      messageId,
      text,
      ...(context.length ? { attachments: context.map((c) => c.name) } : {}),
    });
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
    this.signIn.forgetTab(tabId);
    this.diffs.forget(tabId);
    this.messages.closeTab(tabId);
    this.deps.history?.close(tabId);
    const ref = this.sessions.unbindTab(tabId);
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

  private async restart(affects: (t: ChatTab) => boolean): Promise<void> {
    const tabs = [...this.tabs.values()].filter(affects);
    const keys = new Set(tabs.flatMap((t) => (t.config ? [configurationKey(t.config)] : [])));
    const actors = [...keys].flatMap((k) => {
      const a = this.pool.get(k);
      return a ? [a] : [];
    });
    this.log.info('agent', 'restart', { tabs: tabs.map((t) => t.tabId), processes: actors.length });
    for (const a of actors) {
      this.pool.remove(a);
      this.permissions.cancelActor(a.key, 'the agent is restarting');
    }
    for (const t of tabs) this.sessions.unbindTab(t.tabId);
    // Stopping cancels running prompts, which frees each tab's queue for the new session.
    await Promise.allSettled(actors.map((a) => a.stop('restart')));
    if (this.disposed) return;
    for (const t of tabs) {
      if (t.closed) continue;
      this.enqueue(t, () => this.startSession(t, { restart: true }));
    }
  }

  private enqueue(tab: ChatTab, step: () => Promise<void>): void {
    tab.queue = tab.queue.then(step).catch((e: unknown) => this.log.error('session', 'unexpected error', e));
  }

  private async startSession(tab: ChatTab, opts: { restart?: boolean } = {}): Promise<void> {
    const config = await this.deps.configure(tab.config?.workspaceFolder, tab.past?.conversation.meta.agentName);
    if (tab.closed || this.disposed) return;
    if (!config) {
      this.failTab(tab, {
        agentName: 'agent',
        message: 'No workspace folder chosen for this chat.',
        exitCode: null,
        signal: null,
        stderrTail: '',
      });
      return;
    }
    tab.config = config;
    let actor: AgentActor | undefined;
    try {
      actor = this.pool.acquire(config);
      const { sessionId, controls } = await actor.newSession(config.workspaceFolder, this.deps.decorateSession);
      if (tab.closed || this.disposed) {
        void actor.closeSession(sessionId);
        return;
      }
      this.bindSession(tab, actor, sessionId, controls, config);
      if (opts.restart || tab.failureNotice) {
        this.send({ type: 'agent-restarted', tabId: tab.tabId, noticeId: tab.failureNotice, agentName: actor.agentName });
        tab.failureNotice = undefined;
      }
    } catch (e) {
      if (tab.closed || this.disposed) return;
      // The agent wants the user signed in: the tab shows its methods instead of a failure.
      if (actor && isAuthRequired(e, actor) && this.signIn.offer(tab.tabId, actor, config.agent, e)) return;
      const failure =
        e instanceof AgentExitedError
          ? e.failure
          : {
              agentName: config.agent.name,
              message: e instanceof Error ? e.message : String(e),
              exitCode: null,
              signal: null,
              stderrTail: '',
            };
      this.log.error('session', 'could not start a session', { tabId: tab.tabId, failure });
      this.failTab(tab, failure);
    }
  }

  private bindSession(tab: ChatTab, actor: AgentActor, sessionId: string, controls: SessionControls, config: AgentConfiguration): void {
    tab.config = config;
    this.sessions.bind(tab.tabId, { actorKey: actor.key, sessionId }, { cwd: config.workspaceFolder, agentName: config.agent.name });
    tab.controls = controls;
    this.send({ type: 'session-ready', tabId: tab.tabId, agentName: actor.agentName, cwd: config.workspaceFolder, controls });
    this.signIn.sessionStarted(tab.tabId, actor);
    // Methods the agent lists without requiring them: offered once per process, without blocking.
    this.signIn.offerOnStart(tab.tabId, actor, config.agent);
    for (const u of this.early.take(actor.key, sessionId)) this.onSessionUpdate(actor, sessionId, u);
  }

  private async runPrompt(tab: ChatTab, messageId: MessageId, text: string, context: ContextRef[], echoed: boolean): Promise<void> {
    if (tab.closed) return;
    // A queued prompt is announced when it starts, not when queued, so the webview shows it
    // after the previous answer.
    if (!echoed) this.echoPrompt(tab, messageId, text, context);
    if (tab.past?.readOnly) {
      this.send({ type: 'prompt-failed', tabId: tab.tabId, messageId, error: READ_ONLY_PROMPT_ERROR });
      return;
    }
    const ref = this.sessions.sessionFor(tab.tabId);
    const actor = ref && this.pool.get(ref.actorKey);
    if (!ref || !actor) {
      this.send({ type: 'prompt-failed', tabId: tab.tabId, messageId, error: 'The agent is not running. Use Restart to start it again.' });
      return;
    }
    tab.active = { messageId, actor, sessionId: ref.sessionId };
    this.sessions.startTurn(tab.tabId, messageId);
    try {
      const attached =
        context.length && this.deps.resolveContext && tab.config
          ? await this.deps.resolveContext(context, actor.promptCapabilities, tab.config.workspaceFolder, text)
          : [];
      // A past conversation continued in a new session: its transcript goes with the first prompt.
      const past = tab.past?.contextPending ? [transcriptContext(tab.past.conversation, !!actor.promptCapabilities.embeddedContext)] : [];
      if (tab.past) tab.past.contextPending = false;
      const stopReason = await actor.prompt(ref.sessionId, [
        ...past,
        ...(text.trim() ? [{ type: 'text' as const, text }] : []),
        ...attached,
      ]);
      this.log.info('prompt', 'ended', { tabId: tab.tabId, messageId, stopReason });
      this.send({ type: 'prompt-ended', tabId: tab.tabId, messageId, stopReason });
    } catch (e) {
      const error = e instanceof AgentExitedError ? `Interrupted: ${e.failure.message}` : e instanceof Error ? e.message : String(e);
      this.log.warn('prompt', 'failed', { tabId: tab.tabId, messageId, error });
      this.send({ type: 'prompt-failed', tabId: tab.tabId, messageId, error });
      if (isAuthRequired(e, actor) && tab.config) this.signIn.offer(tab.tabId, actor, tab.config.agent, e);
    } finally {
      tab.active = undefined;
      this.sessions.endTurn(tab.tabId);
      // Approved commands the agent did not run in this turn do not carry over to the next.
      this.permissions.endTurn(ref.actorKey, ref.sessionId);
    }
  }

  private onSessionUpdate(actor: AgentActor, sessionId: string, update: SessionUpdate): void {
    const tabId = this.sessions.tabFor({ actorKey: actor.key, sessionId });
    const tab = tabId && this.tabs.get(tabId);
    if (!tab) {
      this.log.debug('session', 'update for a session without a tab (yet)', { sessionId, kind: update.sessionUpdate });
      this.early.hold(actor.key, sessionId, update);
      return;
    }
    this.diffs.record(tab.tabId, update);
    applyControlUpdate(tab.controls, update as Parameters<typeof applyControlUpdate>[1]);
    this.send({ type: 'agent-update', tabId: tab.tabId, messageId: tab.active?.messageId, update });
  }

  private onActorFailed(actor: AgentActor, failure: AgentFailure): void {
    this.pool.remove(actor);
    this.permissions.cancelActor(actor.key, 'the agent stopped');
    const tabIds = this.sessions.unbindActor(actor.key);
    this.log.error('agent', 'process died; informing tabs', { agent: actor.agentName, tabs: tabIds, failure });
    for (const tabId of tabIds) {
      const tab = this.tabs.get(tabId);
      if (tab) this.failTab(tab, failure);
    }
    // A conductor whose chain broke (a proxy exited) still runs but serves nothing: out of the
    // pool, nobody else would end it. Restart starts a new one.
    if (actor.currentState !== 'exited') void actor.stop('a proxy in its chain exited');
  }

  private failTab(tab: ChatTab, failure: AgentFailure): void {
    const noticeId = randomUUID();
    tab.failureNotice = noticeId;
    this.send({ type: 'agent-failed', tabId: tab.tabId, noticeId, failure });
  }

  private send(payload: TabPayload): void {
    this.messages.send(payload);
  }

  /** "Sign In to the Agent…": the tab's agent's auth methods as a card, while its session works. */
  offerSignIn(tabId: TabId, agent: SignInAgent): boolean {
    const tab = this.tabs.get(tabId);
    const message = `${tab?.config?.agent.name ?? 'The agent'} offers these ways to sign in.`;
    return !!tab?.config && this.signIn.offer(tabId, agent, tab.config.agent, message, true);
  }

  /** The open tabs, read-only (for the test inspector). */
  openTabs(): readonly Readonly<ChatTab>[] {
    return [...this.tabs.values()];
  }

  tab(tabId: TabId): Readonly<ChatTab> | undefined {
    return this.tabs.get(tabId);
  }

  /** Deactivation: stop every process (cancel → terminate → kill); nothing is sent afterwards. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.permissions.dispose();
    await this.pool.stopAll('the extension is deactivating');
  }
}
