// `symposium.test.*` commands (seed "Testing Implementation"): the integration tests drive and
// observe the extension through these, exercising the same code paths as the webview and the
// user. Registered only outside production mode.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChatController } from '../chat/chatController';
import type { ChatViewProvider } from '../chat/chatViewProvider';
import type { Logger } from '../log/logger';
import type { PermissionSettings } from '../permissions/permissionSettings';
import type { EditReview } from '../editor/editReview';
import type { WorkspaceContext } from '../editor/workspaceContext';
import { parseWebviewMessage, type RenderedItem } from '../protocol/webview';

export interface TestDeps {
  controller: ChatController;
  provider: ChatViewProvider;
  logger: Logger;
  permissions: PermissionSettings;
  review: EditReview;
  context: WorkspaceContext;
  /** Runs the deactivation path (stops every agent process). */
  deactivate: () => Promise<void>;
}

export function registerTestCommands(deps: TestDeps): vscode.Disposable[] {
  const { controller, provider, logger } = deps;
  const pendingRendered = new Map<string, (items: RenderedItem[]) => void>();
  controller.onRendered = (m) => pendingRendered.get(m.requestId)?.(m.items);
  let tabCounter = 0;

  const commands: Record<string, (...args: never[]) => unknown> = {
    /** Opens a tab as the webview would (UUID v4 if none given); returns its ID. */
    simulateNewTab: (tabId?: string) => {
      const id = tabId ?? randomUUID();
      controller.openTab(id, `Test ${++tabCounter}`, true);
      return id;
    },
    getTabs: () => controller.getTabs(),
    /** Sends a prompt as the webview would; returns the new message ID. */
    sendPrompt: (tabId: string, text: string, context?: unknown) => {
      const messageId = randomUUID();
      // Context goes through the same validation as the webview's.
      const parsed = context === undefined ? undefined : parseWebviewMessage({ type: 'prompt', tabId, messageId, text, context });
      if (parsed && !parsed.ok) throw new Error(parsed.error);
      controller.prompt(tabId, messageId, text, parsed?.ok && parsed.message.type === 'prompt' ? parsed.message.context : undefined);
      return messageId;
    },
    startCapturingResponses: (tabId: string) => controller.startCapturing(tabId),
    getResponse: (tabId: string) => controller.getCaptured(tabId),
    stopCapturingResponses: (tabId: string) => controller.stopCapturing(tabId),
    hasActivePrompt: (tabId: string) => controller.hasActivePrompt(tabId),
    /** Resolves true once the tab has its session and no prompt runs or waits (false on timeout). */
    waitForIdle: async (tabId: string, timeoutMs = 20_000) => {
      let timer: NodeJS.Timeout | undefined;
      const idle = await Promise.race([controller.whenIdle(tabId).then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), timeoutMs)))]);
      clearTimeout(timer);
      return idle;
    },
    cancel: (tabId: string) => controller.cancel(tabId),
    closeTab: (tabId: string) => controller.closeTab(tabId),
    restartTab: (tabId: string) => controller.restartTabConfiguration(tabId),
    /** Collapses the sidebar: the webview is hidden (and torn down). */
    hideView: () => vscode.commands.executeCommand('workbench.action.closeSidebar'),
    showView: () => provider.show(),
    getViewState: () => ({ ...provider.state, live: controller.outboxStats().live }),
    getOutboxStats: () => controller.outboxStats(),
    getAgentProcesses: () => controller.agentProcesses(),
    /** What the webview shows for the tab, once everything sent before this query is applied. */
    getRendered: async (tabId: string, timeoutMs = 10_000) => {
      const requestId = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      try {
        return await new Promise<RenderedItem[] | undefined>((resolve) => {
          pendingRendered.set(requestId, resolve);
          timer = setTimeout(() => resolve(undefined), timeoutMs);
          controller.queryRendered(tabId, requestId);
        });
      } finally {
        clearTimeout(timer);
        pendingRendered.delete(requestId);
      }
    },
    /** Feeds a raw message through the webview message path (validation included). */
    postFromWebview: (raw: unknown) => provider.receive(raw),
    getLogEvents: () => logger.events(),
    /** Permission requests waiting for the user (all tabs, or one). */
    getPendingPermissions: (tabId?: string) => controller.pendingPermissions(tabId),
    /** Every permission decision so far (the decision log). */
    getPermissionDecisions: () => deps.permissions.list(),
    /** The tab's pickers as the host knows them (modes, config options, models). */
    getSessionControls: (tabId: string) => controller.sessionControls(tabId),
    /** Editors open in the window (URIs), to see a diff or a revealed location. */
    getOpenEditors: () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => {
      const input = t.input;
      if (input instanceof vscode.TabInputTextDiff) return { kind: 'diff', label: t.label, original: input.original.toString(), modified: input.modified.toString() };
      if (input instanceof vscode.TabInputText) return { kind: 'text', label: t.label, uri: input.uri.toString() };
      return { kind: 'other', label: t.label };
    })),
    /** What the `@` menu offers right now (workspace files, folders, symbols, selection). */
    listContext: () => deps.context.list(),
    /** Files whose agent edit waits for review. */
    getPendingReviews: () => deps.review.pendingPaths(),
    /** The text of an open (possibly virtual) document. */
    getDocumentText: async (uri: string) => (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText(),
    deactivate: () => deps.deactivate(),
  };
  return Object.entries(commands).map(([name, fn]) => vscode.commands.registerCommand(`symposium.test.${name}`, fn as (...args: unknown[]) => unknown));
}
