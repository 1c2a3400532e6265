// The chat controller: what happens to chat tabs and their agent sessions. It owns the tabs (the
// shape of one: chatTab.ts) and runs the session lifecycle: a tab opens and gets a session in the
// agent process for its configuration; prompts queue, one at a time within a tab and concurrently
// across tabs; cancel, close, a crashing process (every tab it served is told) and restart. It
// routes by ID without interpreting content. Its collaborators are created before it, at activation,
// and shared with the editor side: the session directory (who shows which session), the permission
// broker, the per-tab message channel and the agent pool. vscode-free: settings and the folder picker
// come in as `configure`, the editor as `EditorActions`. The parts around it, one job per file:
//   webviewInbox.ts          where each webview message goes;
//   promptTurn.ts            one prompt, when its turn in the tab's queue comes;
//   pastConversationTabs.ts  tabs reopened from the history (read-only until continued);
//   agentRestart.ts          which tabs a restart affects, and stopping their processes;
//   tabFailures.ts           what a tab is told when no session starts or a prompt fails;
//   signIn.ts                a session the agent refuses until the user signs in → a sign-in card;
//   tabRequests.ts           approvals, pickers, opening diffs and locations;
//   sessionUpdates.ts        where an agent's session/update goes;
//   editAndResend.ts         an edited earlier prompt: files restored, a fork or a new session;
//   chatControllerDeps.ts    what it is built with.
import { randomUUID } from 'node:crypto';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { AgentFailure, ContextRef, MessageId, SessionControls, TabId, TabPayload } from '../protocol/webview';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { AgentActor } from '../agents/agentActor';
import { sessionSetup, type AgentConfiguration } from '../agents/agentConfiguration';
import { keepMode } from '../agents/sessionMode';
import type { AgentPool } from '../agents/agentPool';
import type { PastConversation } from '../history/reopen';
import { anyTabUses, releaseClosedTabProcess, restartTabs, tabsSharingProcess } from './agentRestart';
import { modeToKeep, newChatTab, type ChatTab } from './chatTab';
import { prepareResend } from './editAndResend';
import { DiffStore } from './diffStore';
import { EarlyUpdates } from './earlyUpdates';
import { PastConversationTabs } from './pastConversationTabs';
import { promptStarted, runPromptTurn, type PromptTurnDeps, type UserPrompt } from './promptTurn';
import type { SessionDirectory } from './sessionDirectory';
import type { ChatControllerDeps } from './chatControllerDeps';
import { routeSessionUpdate, type SessionUpdateRoute } from './sessionUpdates';
import { startWithNotice } from '../agents/slowStart';
import { isAuthRequired, SignInFlow, type SignInAgent } from './signIn';
import { mcpServersNotice, newSettingNotices, noFolderFailure, sessionStartFailure } from './tabFailures';
import type { TabMessages } from './tabMessages';
import { type TabRequestContext } from './tabRequests';
import type { ChatInbox } from './webviewInbox';
import { promptQueue, steerQueued } from './steerQueued';
import { DisposableBase } from '../node/disposable';

export class ChatController extends DisposableBase {
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
  private readonly pastTabs: PastConversationTabs;
  private readonly promptTurnDeps: PromptTurnDeps;
  private readonly updateRoute: SessionUpdateRoute;

  constructor(private readonly deps: ChatControllerDeps) {
    super();
    ({ log: this.log, sessions: this.sessions, messages: this.messages, permissions: this.permissions, pool: this.pool } = deps);
    this.tabRequests = {
      log: deps.log,
      permissions: deps.permissions,
      elicitations: deps.elicitations,
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
        // The session's folders (its cwd and the additional directories the agent was given), else the tab's folder.
        const bound = this.sessions.foldersOf(tabId);
        const folder = this.tabs.get(tabId)?.config?.workspaceFolder;
        const folders = bound.length ? bound : folder ? [folder] : [];
        return folders.length ? [...folders, ...(deps.allowedFolders?.() ?? [])] : [];
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
    this.pastTabs = new PastConversationTabs({ ...deps, early: this.early });
    this.promptTurnDeps = { ...deps, signIn: this.signIn };
    this.updateRoute = { ...deps, early: this.early, diffs: this.diffs, tab: (tabId) => this.tabs.get(tabId), send: (p) => this.send(p) };
    this.pool.onDidCreateActor((actor) => {
      actor.onSessionUpdate((e) => this.onSessionUpdate(actor, e.sessionId, e.update));
      actor.onDidFail((failure) => this.onActorFailed(actor, failure));
    });
  }

  /** The controller's half of the webview inbox (webviewInbox.ts routes each message). */
  inbox(): ChatInbox {
    return {
      open: () => !this.isDisposed,
      log: this.log,
      messages: this.messages,
      tabs: this,
      knowsTab: (tabId) => this.tabs.has(tabId),
      signIn: this.signIn,
      tabRequests: this.tabRequests,
    };
  }

  /**
   * Opens a tab and starts its session. `announce` tells the webview to create the tab (when the
   * host, not the webview, opened it). Idempotent.
   */
  openTab(tabId: TabId, title: string, announce: boolean): void {
    if (this.isDisposed || this.tabs.has(tabId)) return;
    const tab = newChatTab(tabId, title);
    this.tabs.set(tabId, tab);
    this.messages.openTab(tabId, title);
    this.log.info('session', 'tab opened', { tabId });
    if (announce) this.send({ type: 'open-tab', tabId, title });
    this.deps.onTabOpened?.(tabId);
    this.enqueue(tab, () => this.startSession(tab));
  }

  /**
   * Opens a tab on a past conversation: its transcript at once (read-only), then the agent is asked
   * to continue the session (pastConversationTabs.ts). Idempotent.
   */
  reopenTab(tabId: TabId, conversation: PastConversation, announce: boolean): void {
    if (this.isDisposed || this.tabs.has(tabId)) return;
    const tab = newChatTab(tabId, conversation.meta.title);
    this.tabs.set(tabId, tab);
    this.messages.openTab(tabId, tab.title);
    if (announce) this.send({ type: 'open-tab', tabId, title: tab.title });
    this.pastTabs.show(tab, conversation);
    this.deps.onTabOpened?.(tabId);
    this.enqueue(tab, async () => {
      await this.pastTabs.continueSession(tab, {
        bind: (actor, sessionId, controls, config) => this.bindSession(tab, actor, sessionId, controls, config),
        gone: () => tab.closed || this.isDisposed,
      });
      // Closed while the agent resumed it: the tab learnt its configuration only now.
      if (tab.closed) releaseClosedTabProcess(this.pool, this.tabs.values(), tab);
    });
  }

  /** A read-only past conversation goes on in a fresh session; the next prompt carries its transcript. */
  continueInNewSession(tabId: TabId): void {
    const tab = this.tabs.get(tabId);
    if (tab && this.pastTabs.continueInNewSession(tab)) this.enqueue(tab, () => this.startSession(tab));
  }

  prompt(tabId: TabId, messageId: MessageId, text: string, context: ContextRef[] = [], resendOf?: MessageId): void {
    let tab = this.tabs.get(tabId);
    if (!tab) {
      this.log.warn('prompt', 'prompt for an unknown tab; opening it', { tabId });
      this.openTab(tabId, 'Chat', false);
      tab = this.tabs.get(tabId)!;
    }
    this.log.info('prompt', 'received', { tabId, messageId, chars: text.length });
    const p: UserPrompt = { messageId, text, context };
    // Echoed at once when the tab is idle, so the user sees the prompt even while the session
    // starts; when it starts if it waits behind another prompt, so it shows below that answer.
    const echoed = !tab.active && tab.queued === 0;
    if (echoed) this.send(promptStarted(tabId, p));
    else {
      tab.waiting.push(p);
      this.sendQueue(tab);
    }
    tab.queued++;
    const t = tab;
    this.enqueue(t, async () => {
      // The turn before is recorded first (its card lists none of this turn's writes); till then
      // this prompt still counts as queued.
      await this.deps.checkpoints?.lastTurnRecorded?.(t.tabId);
      t.queued--;
      if (!echoed) {
        const at = t.waiting.indexOf(p);
        if (at < 0) return; // withdrawn: the user took it back into the input
        t.waiting.splice(at, 1);
        this.sendQueue(t);
      }
      if (resendOf && !(await this.prepareResend(t, resendOf, messageId))) return;
      await runPromptTurn(this.promptTurnDeps, t, p, echoed);
    });
  }

  /** "Edit and resend" (editAndResend.ts): restore the files, then a fork of the session or a new one. */
  private prepareResend(tab: ChatTab, resendOf: MessageId, messageId: MessageId): Promise<boolean> {
    return prepareResend(
      {
        log: this.log,
        sessions: this.sessions,
        pool: this.pool,
        checkpoints: this.deps.checkpoints,
        decorateSession: this.deps.decorateSession,
        send: (p) => this.send(p),
        startSession: (t) => this.startSession(t),
        bindSession: (t, actor, sessionId, controls, config) => this.bindSession(t, actor, sessionId, controls, config),
        gone: (t) => t.closed || this.isDisposed,
      },
      tab,
      resendOf,
      messageId,
    );
  }

  /** The queued prompts' "Edit": those not started are dropped (the webview put them back into its input). */
  withdrawQueued(tabId: TabId): void {
    const tab = this.tabs.get(tabId);
    if (!tab || tab.waiting.length === 0) return;
    this.log.info('prompt', 'queued prompts withdrawn', { tabId, count: tab.waiting.length });
    tab.waiting = [];
    this.sendQueue(tab);
  }

  /** The queued prompts' "Send now (steer)": into the running turn (steerQueued.ts). */
  steerQueued(tabId: TabId): void {
    const tab = this.tabs.get(tabId);
    const requeue = (t: ChatTab, p: UserPrompt): void => this.prompt(t.tabId, p.messageId, p.text, p.context);
    if (tab) void steerQueued({ log: this.log, send: (m) => this.send(m), sendQueue: (t) => this.sendQueue(t), requeue }, tab);
  }

  private sendQueue(tab: ChatTab): void {
    const ref = this.sessions.sessionFor(tab.tabId);
    this.send(promptQueue(tab, !!(ref && this.pool.get(ref.actorKey)?.canSteer)));
  }

  cancel(tabId: TabId): void {
    const active = this.tabs.get(tabId)?.active;
    if (!active) return;
    // ACP: after session/cancel the client answers the turn's open permission requests `cancelled`.
    this.permissions.cancelTab(tabId, 'the prompt was cancelled');
    this.deps.elicitations?.cancelTab(tabId, 'the prompt was cancelled');
    active.actor.cancel(active.sessionId);
  }

  /** Whether an open tab talks to the agent process of `actorKey`. */
  usesProcess(actorKey: string): boolean {
    return anyTabUses(this.tabs.values(), actorKey);
  }

  /** Closing a tab ends its session; nothing more is sent for it. */
  closeTab(tabId: TabId): void {
    const tab = this.tabs.get(tabId);
    if (!tab) return;
    tab.closed = true;
    this.permissions.cancelTab(tabId, 'the tab was closed');
    this.deps.elicitations?.cancelTab(tabId, 'the tab was closed');
    this.tabs.delete(tabId);
    this.signIn.forgetTab(tabId);
    this.diffs.forget(tabId);
    this.messages.closeTab(tabId);
    this.deps.history?.close(tabId);
    const ref = this.sessions.unbindTab(tabId);
    this.log.info('session', 'tab closed', { tabId, sessionId: ref?.sessionId });
    if (ref) void this.pool.get(ref.actorKey)?.closeSession(ref.sessionId);
    releaseClosedTabProcess(this.pool, this.tabs.values(), tab);
  }

  /** Restarts the agent process behind this tab; every tab of that configuration gets a new session. */
  async restartTabConfiguration(tabId: TabId): Promise<void> {
    const tab = this.tabs.get(tabId);
    if (tab) await this.restart(tabsSharingProcess(this.tabs.values(), tab));
  }

  /** Restarts every agent process (the `Restart Agent` command); settings changes apply. */
  restartAll(): Promise<void> {
    return this.restart([...this.tabs.values()]);
  }

  private restart(tabs: ChatTab[]): Promise<void> {
    return restartTabs(tabs, this.deps, (t, stopped) =>
      this.enqueue(t, async () => {
        await stopped;
        if (!t.closed && !this.isDisposed) await this.startSession(t, { restart: true });
      }),
    );
  }

  private enqueue(tab: ChatTab, step: () => Promise<void>): void {
    tab.queue = tab.queue.then(step).catch((e: unknown) => this.log.error('session', 'unexpected error', e));
  }

  private async startSession(tab: ChatTab, opts: { restart?: boolean } = {}): Promise<void> {
    const config = await this.deps.configure(tab.config?.workspaceFolder, tab.past?.conversation.meta.agentName);
    if (tab.closed || this.isDisposed) return;
    if (!config) {
      this.failTab(tab, noFolderFailure());
      return;
    }
    const mode = modeToKeep(tab, config.agent.name);
    tab.config = config;
    for (const notice of newSettingNotices(tab, config)) this.send(notice);
    let actor: AgentActor | undefined;
    try {
      actor = this.pool.acquire(config);
      const { sessionId, controls } = await startWithNotice(actor.newSession(sessionSetup(config, this.deps.decorateSession)), actor, {
        tabId: tab.tabId,
        agent: config.agent,
        noticeMs: this.deps.slowStartNoticeMs,
        gone: () => tab.closed,
        send: (p) => this.send(p),
      });
      if (tab.closed || this.isDisposed) {
        void actor.closeSession(sessionId);
        return;
      }
      const modeWarning = mode ? await keepMode({ actor, sessionId, controls, wanted: mode, log: this.log }) : undefined;
      if (tab.closed || this.isDisposed) {
        void actor.closeSession(sessionId);
        return;
      }
      this.bindSession(tab, actor, sessionId, controls, config);
      if (modeWarning) this.send({ type: 'tab-notice', tabId: tab.tabId, level: 'warning', text: modeWarning });
      if (opts.restart || tab.failureNotice) {
        this.send({ type: 'agent-restarted', tabId: tab.tabId, noticeId: tab.failureNotice, agentName: actor.agentName });
        tab.failureNotice = undefined;
      }
    } catch (e) {
      if (tab.closed || this.isDisposed) return;
      // The agent wants the user signed in: the tab shows its methods instead of a failure.
      if (actor && isAuthRequired(e, actor) && this.signIn.offer(tab.tabId, actor, config.agent, e)) return;
      const failure = sessionStartFailure(e, config.agent.name, actor !== undefined && isAuthRequired(e, actor));
      this.log.error('session', 'could not start a session', { tabId: tab.tabId, failure });
      this.failTab(tab, failure);
    }
  }

  private bindSession(tab: ChatTab, actor: AgentActor, sessionId: string, controls: SessionControls, config: AgentConfiguration): void {
    tab.config = config;
    // The folders the agent was given are exactly the ones the editor serves it (fs/*, terminals).
    this.sessions.bind(
      tab.tabId,
      { actorKey: actor.key, sessionId },
      {
        cwd: config.workspaceFolder,
        additionalDirectories: actor.sessionDirectories(config.additionalDirectories),
        agentName: config.agent.name,
      },
    );
    tab.controls = controls;
    this.send({ type: 'session-ready', tabId: tab.tabId, agentName: actor.agentName, cwd: config.workspaceFolder, controls });
    for (const notice of mcpServersNotice(tab, config, actor.agentMcpTransports)) this.send(notice);
    this.signIn.sessionStarted(tab.tabId, actor);
    // Methods the agent lists without requiring them: offered once per process, without blocking.
    this.signIn.offerOnStart(tab.tabId, actor, config.agent);
    for (const u of this.early.take(actor.key, sessionId)) this.onSessionUpdate(actor, sessionId, u);
  }

  private onSessionUpdate(actor: AgentActor, sessionId: string, update: SessionUpdate): void {
    routeSessionUpdate(this.updateRoute, actor, sessionId, update);
  }

  private onActorFailed(actor: AgentActor, failure: AgentFailure): void {
    this.pool.remove(actor);
    this.permissions.cancelActor(actor.key, 'the agent stopped');
    this.deps.elicitations?.cancelActor(actor.key, 'the agent stopped');
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
  override async dispose(): Promise<void> {
    if (this.isDisposed) return;
    super.dispose();
    this.permissions.dispose();
    await this.pool.stopAll('the extension is deactivating');
  }
}
