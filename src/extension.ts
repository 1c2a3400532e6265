// Activation: wiring only. Activated by the chat view or a Symposium command (never at startup).
// What is shared is created first and handed to whoever needs it: the session directory (which tab
// shows which session, in which folder), the tab message channel and the permission broker serve
// both the chat controller and the editor's file and terminal handlers; the agent pool gets those
// handlers and the broker; the controller gets all of them.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { AgentPool } from './agents/agentPool';
import { resolveConfiguration } from './agents/resolveConfiguration';
import { BUILTIN_AGENT_NAME, type Runtime } from './agents/agentConfiguration';
import { AgentStatusBar } from './chat/agentStatusBar';
import { SETTINGS_TARGET_COMMANDS } from './settings/settingProblems';
import { CHOOSE_AGENT_COMMAND, LazyAgentPicker } from './agents/registry/lazyPicker';
import { DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS } from './lm/provider';
import { LmRegistration } from './lm/registration';
import { ChatController } from './chat/chatController';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chatViewProvider';
import { SessionDirectory } from './chat/sessionDirectory';
import { TabMessages } from './chat/tabMessages';
import { ContextMenu } from './context/contextMenu';
import { PastedImages } from './context/pastedImages';
import { WorkspaceSource } from './context/workspaceSource';
import { registerOpenCtx } from './context/openctx';
import { DiffView } from './editor/diffView';
import { DiscussCodeActions, discussSelection } from './editor/discussSelection';
import { EditReview } from './editor/editReview';
import { EditorFiles } from './editor/files';
import { createEditorTerminals } from './editor/terminals';
import { EditorIde } from './ide/editorIde';
import { runSignInTerminal } from './editor/signInTerminal';
import { registerSignOut } from './chat/signOut';
import { createCheckpoints } from './checkpoints/checkpointSetup';
import { createHistory, registerHistoryCommands } from './history/setup';
import type { HistoryUi } from './history/historyUi';
import type { LogEvent } from './log/logEvent';
import { logConductorLine } from './log/conductorLog';
import { Logger } from './log/logger';
import { PermissionBroker } from './permissions/permissionBroker';
import { RejectFeedback } from './chat/rejectFeedback';
import { Elicitations } from './chat/elicitations';
import type { FeedbackDelivery } from './protocol/webview';
import { DecisionLog } from './permissions/decisionLog';
import { Settings } from './settings/settings';
import { ChatInspector } from './testing/chatInspector';
import { registerTestCommands } from './testing/testCommands';
import { registerTraffic } from './traffic/registerTraffic';
import { TrafficStore } from './traffic/trafficStore';

/** What activate() returns: tests subscribe to the structured log stream through it. */
export interface SymposiumApi {
  onLog: vscode.Event<LogEvent>;
  /** The activation session ID embedded in the webview HTML. */
  sessionId: string;
  /** The experimental LM provider's state (tests: registered only with the setting on). */
  lm: {
    readonly registered: boolean;
    readonly processRunning: boolean;
    readonly processPid: number | undefined;
    readonly models: vscode.LanguageModelChatInformation[];
  };
  /** How long activate() took, in ms, without the test commands registered only outside production mode (the bench records it; the goal is ≤ 50 ms). */
  activationMs: number;
}

let controller: ChatController | undefined;

export function activate(context: vscode.ExtensionContext): SymposiumApi {
  const activationStart = performance.now();
  const channel = vscode.window.createOutputChannel('Symposium', { log: true });
  const agentChannel = vscode.window.createOutputChannel('Symposium Agent', { log: true });
  const logger = new Logger(channel);
  context.subscriptions.push(channel, agentChannel, logger);

  // New per activation: the webview restores saved tabs only within the same activation.
  const sessionId = randomUUID();
  const testMode = context.extensionMode !== vscode.ExtensionMode.Production;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  logger.info('activation', 'activated', { sessionId, mode: vscode.ExtensionMode[context.extensionMode], version, vscode: vscode.version });

  const runtime: Runtime = {
    execPath: process.execPath,
    extensionPath: context.extensionPath,
    compileCacheDir: vscode.Uri.joinPath(context.globalStorageUri, 'compile-cache').fsPath,
  };
  // Every symposium.* setting; the security-relevant ones from user settings only (a workspace's
  // are ignored, with a notice).
  const settings = new Settings(logger, undefined, context.workspaceState);
  const decisions = new DecisionLog();
  const allowedFolders = (): string[] => settings.allowedFolders();
  context.subscriptions.push(settings, decisions);

  // Shared by the chat and the editor side.
  const sessions = new SessionDirectory();
  const messages = new TabMessages(logger);
  const permissions = new PermissionBroker({
    log: logger,
    policyFor: (agent) => settings.permissionPolicy(agent),
    enableBypass: (agent) => settings.enableBypass(agent),
    record: (entry) => decisions.record(entry),
    tabFor: (actorKey, sessionId) => sessions.turnFor(actorKey, sessionId),
    post: (payload) => messages.send(payload),
    deliverFeedback: (actorKey, sessionId, title, text): Promise<FeedbackDelivery> => feedback.deliver(actorKey, sessionId, title, text),
  });

  // The editor side of ACP: files (with optional review) and terminals.
  const diffView = new DiffView();
  const review = new EditReview(diffView, logger);
  const lookupSession = (actorKey: string, sessionId: string) => sessions.lookupSession(actorKey, sessionId);
  // A checkpoint of the session's folders before every prompt (src/checkpoints/, docs/checkpoints.md).
  let conversationOf: (tabId: string) => string | undefined = () => undefined;
  const checkpoints = createCheckpoints({
    context,
    log: logger,
    enabled: () => settings.checkpointsEnabled(),
    maxBytes: () => settings.checkpointsMaxBytes(),
    foldersOf: (tabId) => {
      const cwd = controller?.tab(tabId)?.config?.workspaceFolder;
      return cwd ? [cwd, ...allowedFolders()] : [];
    },
    conversationOf: (tabId) => conversationOf(tabId),
    send: (payload) => messages.send(payload),
  });
  const files = new EditorFiles({
    log: logger,
    lookupSession,
    allowedFolders,
    reviewEnabled: () => settings.reviewAgentEdits(),
    review,
    beforeWrite: (file) => checkpoints.beforeWrite(file),
  });
  const terminals = createEditorTerminals({
    log: logger,
    lookupSession,
    allowedFolders,
    authorize: (ctx, sessionId, description) => permissions.authorizeCommand(ctx, sessionId, description),
    onOutput: (payload) => messages.send(payload),
  });
  context.subscriptions.push(diffView, review, terminals);
  // No terminal outlives its session, and no approval carries over to another one.
  sessions.onDidEndSession(({ actorKey, sessionId }) => {
    terminals.releaseSession(actorKey, sessionId);
    permissions.forgetSession(actorKey, sessionId);
    feedback.forget(actorKey, sessionId);
  });

  // The agent's forms and URLs for the user, as cards in the session's tab.
  const elicitations = new Elicitations({
    log: logger,
    tabFor: (actorKey, sessionId) => sessions.turnFor(actorKey, sessionId),
    post: (payload) => messages.send(payload),
    openExternal: async (url) => void (await vscode.env.openExternal(vscode.Uri.parse(url, true))),
  });
  context.subscriptions.push(elicitations);

  // Every conductor's protocol trace, streamed live (the traffic viewer, src/traffic/).
  const traffic = new TrafficStore(logger);
  context.subscriptions.push(traffic);
  const pool = new AgentPool({
    runtime,
    log: logger,
    clientInfo: { name: 'symposium-vscode', version },
    graceMs: 1_500,
    client: { files, terminals, ide: new EditorIde({ log: logger, lookupSession, allowedFolders }), elicitation: elicitations },
    authTerminal: true,
    onPermissionRequest: (actor, params, signal) =>
      permissions.request({ actorKey: actor.key, agentName: actor.agentName, params, signal }),
    onStderrLine: (agentName, line) => logConductorLine(agentChannel, agentName, line),
    onTraceLine: (key, line) => traffic.addLine(key, line),
  });
  // Words given with a rejection: steered into the running turn, or sent with the next prompt.
  const feedback: RejectFeedback = new RejectFeedback({ log: logger, pool });
  // The `@` menu of every tab follows the workspace: files, open editors, symbols, the selection.
  // Pasted and dropped images are attachments too (asked first: they claim only their own URIs).
  const pasted = new PastedImages();
  // OpenCtx providers (docs/openctx.md): their mentions in the menu, their annotations in editors.
  const openctx = registerOpenCtx(logger);
  context.subscriptions.push(openctx);
  const contextMenu = new ContextMenu(
    [pasted, new WorkspaceSource(allowedFolders), openctx.source],
    (items) => messages.broadcastContext(items),
    logger,
  );
  context.subscriptions.push(contextMenu);
  // Every conversation is kept (src/history/): the recorder follows each tab from here on.
  let historyUi: HistoryUi | undefined;
  const history = createHistory({
    context,
    log: logger,
    messages,
    sessionIdOf: (tabId) => sessions.sessionFor(tabId)?.sessionId,
    maxConversations: () => settings.historyMaxConversations(),
    maxImageBytes: () => settings.maxImageBytes(),
    restoreTabs: () => settings.restoreTabs(),
    onConversationDeleted: (id) => void checkpoints.deleteConversation(id),
  });
  conversationOf = (tabId) => history.recorder.conversationOf(tabId);
  context.subscriptions.push(messages.onDidSend((p) => p.type === 'session-ready' && checkpoints.sessionStarted(p.tabId)));
  const chat = new ChatController({
    checkpoints,
    history: {
      adopt: (tabId, id) => history.recorder.adopt(tabId, id),
      fork: (tabId, conversation) => void history.recorder.fork(tabId, conversation),
      replaced: (tabId, entries) => history.recorder.replaced(tabId, entries),
      close: (tabId) => history.recorder.close(tabId),
      exportTab: (tabId) => void historyUi?.exportTab(tabId),
    },
    log: logger,
    sessions,
    messages,
    permissions,
    feedback,
    elicitations,
    pool,
    configure: (previousFolder, agentName) => resolveConfiguration(runtime, logger, settings, previousFolder, agentName),
    resolveContext: (refs, caps, folder, message) => contextMenu.resolve(refs, caps, folder, message),
    onContextQuery: (query) => openctx.source.setQuery(query),
    decorateSession: (params, components) => openctx.decorateSession(params, components),
    onTabOpened: () => contextMenu.refresh(),
    attachImage: (m) => {
      const ref = sessions.sessionFor(m.tabId);
      const outcome = pasted.attach(m, ref && pool.get(ref.actorKey)?.promptCapabilities, settings.maxImageBytes());
      logger.info('context', outcome.ok ? 'image attached' : 'image refused', {
        tabId: m.tabId,
        name: m.name,
        size: m.size,
        ...(outcome.ok ? { uri: outcome.item.uri } : {}),
      });
      messages.send(
        outcome.ok
          ? { type: 'attach-context', tabId: m.tabId, item: outcome.item }
          : { type: 'tab-notice', tabId: m.tabId, level: 'warning', text: outcome.notice },
      );
    },
    editor: diffView,
    allowedFolders,
    runSignInTerminal,
    openSettings: (target) => void vscode.commands.executeCommand(SETTINGS_TARGET_COMMANDS[target]),
  });
  controller = chat;
  // The agent's state at a glance, with a menu (switch, restart, logs, chat).
  const statusBar = new AgentStatusBar(
    pool,
    () => settings.agentSettings(runtime).current.name,
    () => vscode.commands.executeCommand(CHOOSE_AGENT_COMMAND),
    () => settings.settingProblems(runtime),
  );
  context.subscriptions.push(statusBar);
  // Agents from the ACP registry (bundled + symposium.registry.urls) next to the user's own.
  const agentPicker = new LazyAgentPicker(context.extensionPath, {
    log: logger,
    runtime,
    settings,
    storageDir: context.globalStorageUri.fsPath,
  });

  const provider = new ChatViewProvider(context.extensionUri, sessionId, messages, logger, testMode, () => settings.maxImageBytes());
  // The chat's title bar names the agent new chats talk to.
  const showAgentName = (): void => provider.setAgentName(settings.agentSettings(runtime).current.name);
  showAgentName();
  context.subscriptions.push(
    provider,
    provider.onDidReceiveMessage((m) => chat.handle(m)),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
  );

  context.subscriptions.push(
    vscode.commands.registerCommand('symposium.openChat', () => provider.show()),
    vscode.commands.registerCommand('symposium.newTab', async () => {
      await provider.show();
      chat.openTab(randomUUID(), 'Chat', true);
    }),
    vscode.commands.registerCommand('symposium.restartAgent', () => chat.restartAll()),
    vscode.commands.registerCommand('symposium.showLogs', () => channel.show(true)),
    vscode.commands.registerCommand(CHOOSE_AGENT_COMMAND, () => agentPicker.choose()),
    // The sign-in card in every open chat whose agent offers auth methods (sign in without being asked).
    vscode.commands.registerCommand('symposium.signIn', async () => {
      let offered = 0;
      for (const tab of chat.openTabs()) {
        const ref = sessions.sessionFor(tab.tabId);
        const actor = ref && pool.get(ref.actorKey);
        if (actor && actor.authMethods.length > 0 && chat.offerSignIn(tab.tabId, actor)) offered++;
      }
      logger.info('auth', 'sign-in offered on request', { tabs: offered });
      if (offered === 0) void vscode.window.showInformationMessage('Symposium: no open chat has an agent that offers a way to sign in.');
      else await provider.show();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('symposium.currentAgent') || e.affectsConfiguration('symposium.agents')) showAgentName();
    }),
    registerSignOut(pool, () => settings.agentSettings(runtime).current.name, logger),
    vscode.commands.registerCommand('symposium.showPermissionDecisions', () => decisions.show()),
    ...registerTraffic({ extensionUri: context.extensionUri, store: traffic, log: logger, chat, sessions, testMode }),
    vscode.commands.registerCommand('symposium.discussSelection', () =>
      discussSelection({
        show: () => provider.show(),
        openTab: (tabId) => chat.openTab(tabId, 'Discuss', true),
        attach: (tabId, item) => messages.send({ type: 'attach-context', tabId, item }),
      }),
    ),
    vscode.commands.registerCommand('symposium.acceptAgentEdit', (uri?: vscode.Uri) => review.answer(true, uri)),
    vscode.commands.registerCommand('symposium.rejectAgentEdit', (uri?: vscode.Uri) => review.answer(false, uri)),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new DiscussCodeActions(), {
      providedCodeActionKinds: [DiscussCodeActions.kind],
    }),
  );
  const historyDeps = {
    chat,
    pool,
    showChat: () => provider.show(),
    configure: (folder: string) => resolveConfiguration(runtime, logger, settings, folder),
  };
  historyUi = history.ui(historyDeps);
  context.subscriptions.push(...registerHistoryCommands(historyUi, history.recorder, historyDeps, testMode));
  // symposium.restoreTabs: the chats open when the window last closed (never by default).
  void historyUi.restore().catch((e: unknown) => logger.error('history', 'could not restore tabs', e));
  // The experimental LM provider (docs/language-model.md): registered only with the setting on.
  const lm = new LmRegistration({
    enabled: () => settings.enableExperimentalLM(),
    source: {
      agents: () => {
        const s = settings.agentSettings(runtime);
        // An untrusted workspace gets the built-in agent only, as the chat does.
        const agents = vscode.workspace.isTrusted ? s.agents : { [BUILTIN_AGENT_NAME]: s.agents[BUILTIN_AGENT_NAME]! };
        return { agents, components: s.components };
      },
      tokenLimits: () => settings.lmTokenLimits({ maxInputTokens: DEFAULT_MAX_INPUT_TOKENS, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS }),
      acceptsImages: (name) => {
        const running = pool.all().filter((a) => a.agentName === name && a.currentState === 'running');
        const actor = running[running.length - 1];
        return actor ? actor.promptCapabilities.image === true : undefined;
      },
    },
    runtime,
    log: logger,
    onStderrLine: (line) => agentChannel.info(`[lm] ${line}`),
  });
  context.subscriptions.push(
    lm,
    // An agent that starts in the chat tells what it accepts: the models say so from then on.
    pool.onDidChangeActorState((a) => {
      if (a.currentState === 'running') lm.refreshModels();
    }),
  );
  // What activation costs a user: everything above. The test commands below are registered only
  // outside production mode (dozens of commands, ~15 ms here); they are timed on their own.
  const activationMs = performance.now() - activationStart;
  if (testMode) {
    const inspector = new ChatInspector({ chat, sessions, pool, messages, permissions, fromWebview: provider.onDidReceiveMessage });
    context.subscriptions.push(
      inspector,
      ...registerTestCommands({
        chat,
        inspector,
        provider,
        logger,
        decisions,
        review,
        context: contextMenu,
        statusBar,
        agentPicker,
        deactivate,
      }),
    );
  }
  const tenths = (ms: number): number => Math.round(ms * 10) / 10;
  logger.info('activation', 'activate() done', {
    ms: tenths(activationMs),
    ...(testMode ? { withTestCommandsMs: tenths(performance.now() - activationStart) } : {}),
  });
  return { onLog: logger.onLog, sessionId, lm, activationMs };
}

/** Stops every agent process before the extension host goes away (no orphans). */
export async function deactivate(): Promise<void> {
  const c = controller;
  controller = undefined;
  await c?.dispose();
}
