// The chat (docs/extension.md): the controller that routes tabs to sessions, the sidebar view, the
// agent's status-bar item, and the chat's commands (open, new tab, restart, sign in and out, discuss
// a selection). Owns their disposables; the webview's messages are routed by the inbox that
// activation builds (webviewInbox.ts), not here.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ExtensionCore } from '../activation/core';
import type { AgentPool } from '../agents/agentPool';
import { CHOOSE_AGENT_COMMAND } from '../agents/registry/lazyPicker';
import { resolveConfiguration } from '../agents/resolveConfiguration';
import type { TurnCheckpoints } from '../checkpoints/turnCheckpoints';
import type { DiffView } from '../editor/diffView';
import { UserMcpServers } from '../mcp/userMcpServers';
import { discussSelection } from '../editor/discussSelection';
import { runSignInTerminal } from './signInTerminal';
import { startAgentEarly } from './earlyAgentStart';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { AgentStatusBar } from './agentStatusBar';
import { ChatController } from './chatController';
import type { ChatControllerDeps } from './chatControllerDeps';
import { CHAT_VIEW_ID, ChatViewProvider } from './chatViewProvider';
import type { Elicitations } from './elicitations';
import type { RejectFeedback } from './rejectFeedback';
import type { SessionDirectory } from './sessionDirectory';
import { registerSignOut } from './signOut';
import { registerForgetMcp } from '../mcp/forgetMcp';
import type { TabMessages } from './tabMessages';

export interface ChatFeatureDeps {
  sessions: SessionDirectory;
  messages: TabMessages;
  permissions: PermissionBroker;
  feedback: RejectFeedback;
  elicitations: Elicitations;
  pool: AgentPool;
  checkpoints: TurnCheckpoints;
  /** The conversation history: which stored conversation a reopened tab continues. */
  history: ChatControllerDeps['history'];
  /** The `@` menu (src/context/): mentions resolved into a prompt, OpenCtx providers for new sessions. */
  context: Pick<ChatControllerDeps, 'resolveContext' | 'decorateSession' | 'onTabOpened'>;
  diffView: DiffView;
}

export interface ChatFeature {
  chat: ChatController;
  provider: ChatViewProvider;
  statusBar: AgentStatusBar;
  /** The user's MCP servers for each new session (src/mcp/). */
  userMcp: UserMcpServers;
}

export function registerChat(core: ExtensionCore, deps: ChatFeatureDeps): ChatFeature {
  const { log, settings, runtime } = core;
  const { sessions, messages, pool } = deps;
  const userMcp = new UserMcpServers({
    log,
    secrets: core.context.secrets,
    workspaceState: core.context.workspaceState,
    globalState: core.context.globalState,
    globalStorageUri: core.context.globalStorageUri,
    enabled: () => settings.mcpServersEnabled(),
  });
  const chat = new ChatController({
    log,
    sessions,
    messages,
    permissions: deps.permissions,
    feedback: deps.feedback,
    elicitations: deps.elicitations,
    pool,
    checkpoints: deps.checkpoints,
    history: deps.history,
    // Every session the chat starts (new, restart, reopened, forked) gets the user's MCP servers.
    configure: async (previousFolder, agentName) => {
      const config = await resolveConfiguration(runtime, log, settings, previousFolder, agentName);
      return config && { ...config, userMcp: await userMcp.forSession(config.workspaceFolder, config.additionalDirectories) };
    },
    ...deps.context,
    editor: deps.diffView,
    allowedFolders: core.allowedFolders,
    runSignInTerminal,
  });
  // The agent's state at a glance, with a menu (switch, restart, logs, chat).
  const statusBar = new AgentStatusBar(
    pool,
    () => settings.agentSettings(runtime).current.name,
    () => vscode.commands.executeCommand(CHOOSE_AGENT_COMMAND),
    () => settings.settingProblems(runtime),
  );
  const provider = new ChatViewProvider(core.context.extensionUri, core.sessionId, messages, log, core.testMode, () =>
    settings.maxImageBytes(),
  );
  // The chat's title bar names the agent new chats talk to.
  const showAgentName = (): void => provider.setAgentName(settings.agentSettings(runtime).current.name);
  showAgentName();
  core.context.subscriptions.push(
    statusBar,
    provider,
    provider.onDidResolveView(() => void startAgentEarly(pool, (folder) => resolveConfiguration(runtime, log, settings, folder), log)),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
    // No approval or pending feedback carries over to another session.
    sessions.onDidEndSession(({ actorKey, sessionId }) => {
      deps.permissions.forgetSession(actorKey, sessionId);
      deps.feedback.forget(actorKey, sessionId);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('symposium.currentAgent') || e.affectsConfiguration('symposium.agents')) showAgentName();
    }),
    vscode.commands.registerCommand('symposium.openChat', () => provider.show()),
    vscode.commands.registerCommand('symposium.newTab', async () => {
      await provider.show();
      chat.openTab(randomUUID(), 'Chat', true);
    }),
    vscode.commands.registerCommand('symposium.restartAgent', () => chat.restartAll()),
    vscode.commands.registerCommand('symposium.showLogs', () => core.channel.show(true)),
    vscode.commands.registerCommand('symposium.showPermissionDecisions', () => core.decisions.show()),
    // The sign-in card in every open chat whose agent offers auth methods (sign in without being asked).
    vscode.commands.registerCommand('symposium.signIn', async () => {
      let offered = 0;
      for (const tab of chat.openTabs()) {
        const ref = sessions.sessionFor(tab.tabId);
        const actor = ref && pool.get(ref.actorKey);
        if (actor && actor.authMethods.length > 0 && chat.offerSignIn(tab.tabId, actor)) offered++;
      }
      log.info('auth', 'sign-in offered on request', { tabs: offered });
      if (offered === 0) void vscode.window.showInformationMessage('Symposium: no open chat has an agent that offers a way to sign in.');
      else await provider.show();
    }),
    registerForgetMcp(userMcp),
    registerSignOut(pool, () => settings.agentSettings(runtime).current.name, log),
    vscode.commands.registerCommand('symposium.discussSelection', () =>
      discussSelection({
        show: () => provider.show(),
        openTab: (tabId) => chat.openTab(tabId, 'Discuss', true),
        attach: (tabId, item) => messages.send({ type: 'attach-context', tabId, item }),
      }),
    ),
  );
  return { chat, provider, statusBar, userMcp };
}
