// Activation: wiring only. Activated by the chat view or a Symposium command (never at startup).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { resolveConfiguration } from './agents/resolveConfiguration';
import type { Runtime } from './agents/agentConfiguration';
import { ChatController } from './chat/chatController';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chatViewProvider';
import type { LogEvent } from './log/logEvent';
import { Logger } from './log/logger';
import { registerTestCommands } from './testing/testCommands';
import { DiffView } from './editor/diffView';
import { EditReview } from './editor/editReview';
import { EditorFiles } from './editor/files';
import { TerminalManager } from './editor/terminals';
import { DiscussCodeActions, WorkspaceContext } from './editor/workspaceContext';
import { PermissionSettings } from './permissions/permissionSettings';
import { UserSettings } from './agents/userSettings';

/** What activate() returns: tests subscribe to the structured log stream through it. */
export interface SymposiumApi {
  onLog: vscode.Event<LogEvent>;
  /** The activation session ID embedded in the webview HTML. */
  sessionId: string;
}

let controller: ChatController | undefined;

export function activate(context: vscode.ExtensionContext): SymposiumApi {
  const channel = vscode.window.createOutputChannel('Symposium', { log: true });
  const agentChannel = vscode.window.createOutputChannel('Symposium Agent', { log: true });
  const logger = new Logger(channel);
  context.subscriptions.push(channel, agentChannel, logger);

  // New per activation: the webview restores saved tabs only within the same activation.
  const sessionId = randomUUID();
  const testMode = context.extensionMode !== vscode.ExtensionMode.Production;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  logger.info('activation', 'activated', { sessionId, mode: vscode.ExtensionMode[context.extensionMode], version, vscode: vscode.version });

  const runtime: Runtime = { execPath: process.execPath, extensionPath: context.extensionPath };
  // Security-relevant settings come from user settings only (a workspace's are ignored, with a notice).
  const userSettings = new UserSettings(logger);
  const permissions = new PermissionSettings(userSettings);
  const diffView = new DiffView();
  const review = new EditReview(diffView, logger);
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('symposium');
  const allowedFolders = (): string[] => userSettings.allowedFolders();
  // The handlers need the controller (session → tab and folder); it is created right after them.
  let chat: ChatController | undefined;
  const lookupSession = (actorKey: string, sessionId: string) => chat?.lookupSession(actorKey, sessionId);
  const wsContext = new WorkspaceContext(allowedFolders);
  const files = new EditorFiles({ log: logger, lookupSession, allowedFolders, reviewEnabled: () => settings().get<boolean>('reviewAgentEdits') === true, review });
  const terminals = new TerminalManager({
    log: logger, lookupSession, allowedFolders,
    authorize: async (ctx, sessionId, description) => (await chat?.authorizeCommand(ctx, sessionId, description)) ?? false,
    onOutput: (payload) => chat?.sendToTab(payload),
  });
  context.subscriptions.push(userSettings, permissions, diffView, review, terminals);
  chat = new ChatController({
    permissions,
    editor: diffView,
    client: { files, terminals },
    resolveContext: (refs, caps, folder) => wsContext.resolve(refs, caps, folder),
    onTabOpened: () => refreshContext(),
    runtime,
    log: logger,
    clientInfo: { name: 'symposium-vscode', version },
    configure: (previousFolder) => resolveConfiguration(runtime, logger, userSettings, previousFolder),
    allowedFolders,
    onStderrLine: (agentName, line) => agentChannel.info(`[${agentName}] ${line}`),
    graceMs: 1_500,
  });
  controller = chat;
  // The `@` menu of every tab follows the workspace: files, open editors, symbols, the selection.
  let refreshTimer: NodeJS.Timeout | undefined;
  const refreshContext = (): void => {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      void wsContext.list().then((items) => chat?.broadcastContext(items), (e: unknown) => logger.warn('context', 'could not list workspace context', e));
    }, 300);
  };
  const filesChanged = (): void => { wsContext.invalidateFiles(); refreshContext(); };
  const fileWatcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
  context.subscriptions.push(
    { dispose: () => clearTimeout(refreshTimer) },
    vscode.window.onDidChangeActiveTextEditor(refreshContext),
    vscode.window.onDidChangeTextEditorSelection(refreshContext),
    // Created and deleted on disk by anyone (agents' commands included; a rename is both).
    fileWatcher, fileWatcher.onDidCreate(filesChanged), fileWatcher.onDidDelete(filesChanged),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new DiscussCodeActions(), { providedCodeActionKinds: [DiscussCodeActions.kind] }),
  );
  const provider = new ChatViewProvider(context.extensionUri, sessionId, chat, logger, testMode);
  context.subscriptions.push(provider, vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider));

  context.subscriptions.push(
    vscode.commands.registerCommand('symposium.openChat', () => provider.show()),
    vscode.commands.registerCommand('symposium.newTab', async () => {
      await provider.show();
      chat.openTab(randomUUID(), 'Chat', true);
    }),
    vscode.commands.registerCommand('symposium.restartAgent', () => chat.restartAll()),
    vscode.commands.registerCommand('symposium.showLogs', () => channel.show(true)),
    vscode.commands.registerCommand('symposium.showPermissionDecisions', () => permissions.show()),
    vscode.commands.registerCommand('symposium.discussSelection', async () => {
      const selection = wsContext.currentSelection();
      if (!selection) { void vscode.window.showInformationMessage('Symposium: open a file and select the code to discuss.'); return undefined; }
      await provider.show();
      const tabId = randomUUID();
      chat.openTab(tabId, 'Discuss', true);
      chat.sendToTab({ type: 'attach-context', tabId, item: selection });
      return tabId;
    }),
    vscode.commands.registerCommand('symposium.acceptAgentEdit', (uri?: vscode.Uri) => review.answer(true, uri)),
    vscode.commands.registerCommand('symposium.rejectAgentEdit', (uri?: vscode.Uri) => review.answer(false, uri)),
  );
  if (testMode) context.subscriptions.push(...registerTestCommands({ controller: chat, provider, logger, permissions, review, context: wsContext, deactivate }));
  return { onLog: logger.onLog, sessionId };
}

/** Stops every agent process before the extension host goes away (no orphans). */
export async function deactivate(): Promise<void> {
  const c = controller;
  controller = undefined;
  await c?.dispose();
}
