// Activation: wiring only. Activated by the chat view or a Symposium command (never at startup).
// What is shared is made first and handed to whoever needs it: the core (log, settings), the
// session directory (which tab shows which session, in which folder), the tab message channel and
// the permission broker serve both the chat and the editor side; the agent pool owns every agent
// process. Then each feature registers itself and owns its disposables (register…(core, deps)),
// and the one inbox for the webview's messages is built from the features that answer them.
import * as vscode from 'vscode';
import { createCore } from './activation/core';
import { AgentPool } from './agents/agentPool';
import { resolveConfiguration } from './agents/resolveConfiguration';
import { registerAgentRegistry } from './agents/registry/registerRegistry';
import { createCheckpoints } from './checkpoints/checkpointSetup';
import type { ChatController } from './chat/chatController';
import { Elicitations } from './chat/elicitations';
import { registerChat } from './chat/registerChat';
import { RejectFeedback } from './chat/rejectFeedback';
import { SessionDirectory } from './chat/sessionDirectory';
import { TabMessages } from './chat/tabMessages';
import { routeWebviewMessage, type WebviewInbox } from './chat/webviewInbox';
import { registerContext } from './context/registerContext';
import { registerEditor } from './editor/registerEditor';
import { createHistory, registerHistoryUi } from './history/setup';
import { registerLm } from './lm/registerLm';
import { logConductorLine } from './log/conductorLog';
import type { LogEvent } from './log/logEvent';
import { PermissionBroker } from './permissions/permissionBroker';
import type { FeedbackDelivery } from './protocol/webview';
import { SETTINGS_TARGET_COMMANDS } from './settings/settingProblems';
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
  const core = createCore(context);
  const { log, settings } = core;

  // Shared by the chat and the editor side.
  const sessions = new SessionDirectory();
  const messages = new TabMessages(log);
  const permissions = new PermissionBroker({
    log,
    policyFor: (agent) => settings.permissionPolicy(agent),
    enableBypass: (agent) => settings.enableBypass(agent),
    record: (entry) => core.decisions.record(entry),
    tabFor: (actorKey, sessionId) => sessions.turnFor(actorKey, sessionId),
    post: (payload) => messages.send(payload),
    deliverFeedback: (actorKey, sessionId, title, text): Promise<FeedbackDelivery> => feedback.deliver(actorKey, sessionId, title, text),
  });
  // The agent's forms and URLs for the user, as cards in the session's tab.
  const elicitations = new Elicitations({
    log,
    tabFor: (actorKey, sessionId) => sessions.turnFor(actorKey, sessionId),
    post: (payload) => messages.send(payload),
    openExternal: async (url) => void (await vscode.env.openExternal(vscode.Uri.parse(url, true))),
  });
  // A checkpoint of the session's folders before every prompt (docs/checkpoints.md).
  let conversationOf: (tabId: string) => string | undefined = () => undefined;
  const checkpoints = createCheckpoints({
    context,
    storageDir: core.workspaceStorage,
    log,
    enabled: () => settings.checkpointsEnabled(),
    maxBytes: () => settings.checkpointsMaxBytes(),
    foldersOf: (tabId) => {
      // Every folder the agent may write in: the session's folders and symposium.allowedFolders.
      const bound = sessions.foldersOf(tabId);
      const cwd = controller?.tab(tabId)?.config?.workspaceFolder;
      const folders = bound.length ? bound : cwd ? [cwd] : [];
      return folders.length ? [...folders, ...core.allowedFolders()] : [];
    },
    conversationOf: (tabId) => conversationOf(tabId),
    send: (payload) => messages.send(payload),
  });
  const editor = registerEditor(core, {
    sessions,
    permissions,
    send: (p) => messages.send(p),
    beforeWrite: (f) => checkpoints.beforeWrite(f),
  });
  // Every conductor's protocol trace, streamed live (the traffic viewer, src/traffic/).
  const traffic = new TrafficStore(log);
  const pool = new AgentPool({
    runtime: core.runtime,
    log,
    clientInfo: { name: 'symposium-vscode', version: core.version },
    graceMs: 1_500,
    client: { ...editor.handlers, elicitation: elicitations },
    authTerminal: true,
    onPermissionRequest: (actor, params, signal) =>
      permissions.request({ actorKey: actor.key, agentName: actor.agentName, params, signal }),
    onStderrLine: (agentName, line) => logConductorLine(core.agentChannel, agentName, line),
    onTraceLine: (key, line, conductor) => traffic.addLine(key, line, conductor),
  });
  // Words given with a rejection: steered into the running turn, or sent with the next prompt.
  const feedback: RejectFeedback = new RejectFeedback({ log, pool });
  context.subscriptions.push(elicitations, traffic);

  const contextFeature = registerContext(core, { sessions, pool, messages });
  // Every conversation is kept (src/history/): the recorder follows each tab from here on.
  const history = createHistory({
    context,
    storageDir: core.workspaceStorage,
    log,
    messages,
    sessionIdOf: (tabId) => sessions.sessionFor(tabId)?.sessionId,
    maxConversations: () => settings.historyMaxConversations(),
    maxImageBytes: () => settings.maxImageBytes(),
    restoreTabs: () => settings.restoreTabs(),
    onConversationDeleted: (id) => void checkpoints.deleteConversation(id),
  });
  conversationOf = (tabId) => history.recorder.conversationOf(tabId);
  context.subscriptions.push(messages.onDidSend((p) => p.type === 'session-ready' && checkpoints.sessionStarted(p.tabId)));

  const { chat, provider, statusBar, userMcp } = registerChat(core, {
    sessions,
    messages,
    permissions,
    feedback,
    elicitations,
    pool,
    checkpoints,
    history: {
      adopt: (tabId, id) => history.recorder.adopt(tabId, id),
      fork: (tabId, conversation) => void history.recorder.fork(tabId, conversation),
      replaced: (tabId, entries) => history.recorder.replaced(tabId, entries),
      close: (tabId) => history.recorder.close(tabId),
    },
    context: {
      resolveContext: (refs, caps, folder, message) => contextFeature.menu.resolve(refs, caps, folder, message),
      decorateSession: (params, components) => contextFeature.openctx.decorateSession(params, components),
      onTabOpened: () => contextFeature.menu.refresh(),
    },
    diffView: editor.diffView,
  });
  controller = chat;
  const historyUi = registerHistoryUi(core, history, {
    chat,
    pool,
    showChat: () => provider.show(),
    configure: (folder: string) => resolveConfiguration(core.runtime, log, settings, folder),
  });
  const agentPicker = registerAgentRegistry(core);
  context.subscriptions.push(
    ...registerTraffic({ extensionUri: context.extensionUri, store: traffic, log, chat, sessions, testMode: core.testMode }),
  );
  const lm = registerLm(core, pool);

  // The one inbox for the webview's messages: the chat's half and the features beside it.
  const inbox: WebviewInbox = {
    ...chat.inbox(),
    exportTab: (tabId) => void historyUi.exportTab(tabId),
    openSettings: (target) => void vscode.commands.executeCommand(SETTINGS_TARGET_COMMANDS[target]),
    attachImage: (m) => contextFeature.attachImage(m),
    contextQuery: (query) => contextFeature.openctx.source.setQuery(query),
    checkpointAction: (m) => void checkpoints.action(m),
  };
  context.subscriptions.push(provider.onDidReceiveMessage((m) => routeWebviewMessage(m, inbox)));

  // What activation costs a user: everything above. The test commands below are registered only
  // outside production mode (dozens of commands, ~15 ms here); they are timed on their own.
  const activationMs = performance.now() - activationStart;
  if (core.testMode) {
    const inspector = new ChatInspector({ chat, sessions, pool, messages, permissions, fromWebview: provider.onDidReceiveMessage });
    context.subscriptions.push(
      inspector,
      ...registerTestCommands({
        chat,
        inspector,
        provider,
        logger: log,
        decisions: core.decisions,
        review: editor.review,
        context: contextFeature.menu,
        statusBar,
        agentPicker,
        userMcp,
        deactivate,
      }),
    );
  }
  const tenths = (ms: number): number => Math.round(ms * 10) / 10;
  log.info('activation', 'activate() done', {
    ms: tenths(activationMs),
    ...(core.testMode ? { withTestCommandsMs: tenths(performance.now() - activationStart) } : {}),
  });
  return { onLog: log.onLog, sessionId: core.sessionId, lm, activationMs };
}

/** Stops every agent process before the extension host goes away (no orphans). */
export async function deactivate(): Promise<void> {
  const c = controller;
  controller = undefined;
  await c?.dispose();
}
