// The `symposium.test.*` commands: the integration tests drive the extension through these, on the
// same code paths as the webview and the user, and observe it through the read-only inspector
// (chatInspector.ts). Registered only outside production mode.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { ChatViewProvider } from '../chat/chatViewProvider';
import type { Logger } from '../log/logger';
import type { DecisionRecord } from '../permissions/permissionBroker';
import type { EditReview } from '../editor/editReview';
import { type ContextRef } from '../protocol/webview';
import { parseWebviewMessage } from '../protocol/webviewMessages';
import type { ChatInspector } from './chatInspector';

export interface TestDeps {
  /** What the tests do as the webview would: open tabs, prompt, cancel, close, restart. */
  chat: Pick<ChatController, 'openTab' | 'prompt' | 'cancel' | 'closeTab' | 'restartTabConfiguration'>;
  inspector: ChatInspector;
  provider: ChatViewProvider;
  logger: Logger;
  decisions: { list(): DecisionRecord[] };
  review: EditReview;
  context: { list(): Promise<ContextRef[]> };
  /** The agent status-bar item (its text and tooltip). */
  statusBar: { readonly shown: { text: string; tooltip: string; history: string[]; count: number } };
  /** The agent picker (the labels it last offered, in order; what its last install confirmation showed). */
  agentPicker: { readonly lastChoices: string[]; readonly lastConfirmation: string[] };
  /** The user's MCP servers (what the last workspace confirmation listed). */
  userMcp: { readonly lastConfirmation: string[] };
  /** Runs the deactivation path (stops every agent process). */
  deactivate: () => Promise<void>;
}

export function registerTestCommands(deps: TestDeps): vscode.Disposable[] {
  const { chat, inspector, provider, logger } = deps;
  let tabCounter = 0;

  const commands: Record<string, (...args: never[]) => unknown> = {
    /** Opens a tab as the webview would (UUID v4 if none given); returns its ID. */
    simulateNewTab: (tabId?: string) => {
      const id = tabId ?? randomUUID();
      chat.openTab(id, `Test ${++tabCounter}`, true);
      return id;
    },
    getTabs: () => inspector.getTabs(),
    /** Sends a prompt as the webview would; returns the new message ID. */
    sendPrompt: (tabId: string, text: string, context?: unknown) => {
      const messageId = randomUUID();
      // Context goes through the same validation as the webview's.
      const parsed = context === undefined ? undefined : parseWebviewMessage({ type: 'prompt', tabId, messageId, text, context });
      if (parsed && !parsed.ok) throw new Error(parsed.error);
      chat.prompt(tabId, messageId, text, parsed?.ok && parsed.message.type === 'prompt' ? parsed.message.context : undefined);
      return messageId;
    },
    startCapturingResponses: (tabId: string) => inspector.startCapturing(tabId),
    getResponse: (tabId: string) => inspector.getCaptured(tabId),
    stopCapturingResponses: (tabId: string) => inspector.stopCapturing(tabId),
    hasActivePrompt: (tabId: string) => inspector.hasActivePrompt(tabId),
    /** Resolves true once the tab has its session and no prompt runs or waits (false on timeout). */
    waitForIdle: async (tabId: string, timeoutMs = 20_000) => {
      let timer: NodeJS.Timeout | undefined;
      const idle = await Promise.race([
        inspector.whenIdle(tabId).then(() => true),
        new Promise<false>((r) => (timer = setTimeout(() => r(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      return idle;
    },
    cancel: (tabId: string) => chat.cancel(tabId),
    closeTab: (tabId: string) => chat.closeTab(tabId),
    restartTab: (tabId: string) => chat.restartTabConfiguration(tabId),
    /** Collapses the sidebar: the webview is hidden (and torn down). */
    hideView: () => vscode.commands.executeCommand('workbench.action.closeSidebar'),
    showView: () => provider.show(),
    getViewState: () => ({ ...provider.state, live: inspector.outboxStats().live }),
    getOutboxStats: () => inspector.outboxStats(),
    getAgentProcesses: () => inspector.agentProcesses(),
    /** What the webview shows for the tab, once everything sent before this query is applied. */
    getRendered: (tabId: string, timeoutMs = 10_000) => inspector.rendered(tabId, timeoutMs),
    /** Feeds a raw message through the webview message path (validation included). */
    postFromWebview: (raw: unknown) => provider.receive(raw),
    getLogEvents: () => logger.events(),
    /** Permission requests waiting for the user (all tabs, or one). */
    getPendingPermissions: (tabId?: string) => inspector.pendingPermissions(tabId),
    /** Every permission decision so far (the decision log). */
    getPermissionDecisions: () => deps.decisions.list(),
    /** The tab's pickers as the host knows them (modes, config options, models). */
    getSessionControls: (tabId: string) => inspector.sessionControls(tabId),
    /** Editors open in the window (URIs), to see a diff or a revealed location. */
    getOpenEditors: () =>
      vscode.window.tabGroups.all.flatMap((g) =>
        g.tabs.map((t) => {
          const input = t.input;
          if (input instanceof vscode.TabInputTextDiff)
            return { kind: 'diff', label: t.label, original: input.original.toString(), modified: input.modified.toString() };
          if (input instanceof vscode.TabInputText) return { kind: 'text', label: t.label, uri: input.uri.toString() };
          return { kind: 'other', label: t.label };
        }),
      ),
    /** What the `@` menu offers right now (workspace files, folders, symbols, selection). */
    listContext: () => deps.context.list(),
    /** Files whose agent edit waits for review. */
    getPendingReviews: () => deps.review.pendingPaths(),
    /** The text of an open (possibly virtual) document. */
    getDocumentText: async (uri: string) => (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText(),
    /** The agent status-bar item as shown: text (with `$(icon)`s), tooltip, and the texts shown so far. */
    getAgentStatus: () => deps.statusBar.shown,
    /** The labels the agent picker last offered, in order (a test finds an item's position). */
    getAgentChoices: () => deps.agentPicker.lastChoices,
    /** What the agent picker's last install confirmation showed: the command line and each NAME=value it writes. */
    getAgentConfirmation: () => deps.agentPicker.lastConfirmation,
    /** What the last confirmation of a workspace's MCP servers listed (one line per server). */
    getMcpConfirmation: () => deps.userMcp.lastConfirmation,
    deactivate: () => deps.deactivate(),
  };
  return Object.entries(commands).map(([name, fn]) =>
    vscode.commands.registerCommand(`symposium.test.${name}`, fn as (...args: unknown[]) => unknown),
  );
}
