// Activation wiring of the conversation history (docs/history.md): the store in the workspace's
// storage, the recorder that follows every tab, the commands (history quick pick, export, clear),
// the restore of last window's tabs, and in test mode the `symposium.test.*` history commands.
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionCore } from '../activation/core';
import type { AgentActor } from '../agents/agentActor';
import type { AgentPool } from '../agents/agentPool';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { Event } from '../util/emitter';
import type { Log } from '../log/logEvent';
import type { TabId, TabPayload } from '../protocol/webview';
import { errorText } from '../protocol/errorText';
import { within } from '../node/deadline';
import { HistoryStore } from './historyStore';
import { HistoryUi, type AgentListing } from './historyUi';
import type { PastConversation } from './reopen';
import { OwnershipLocks } from './ownership';
import { HistoryRecorder } from './recorder';

export interface HistorySetupDeps {
  context: vscode.ExtensionContext;
  /** The extension's folder for this workspace's data: the history goes in `history/`. */
  storageDir: string;
  log: Log;
  /** Every message sent to a tab (the recorder keeps the conversation from them). */
  messages: { onDidSend: Event<TabPayload> };
  sessionIdOf: (tabId: TabId) => string | undefined;
  maxConversations: () => number;
  maxImageBytes: () => number;
  restoreTabs: () => 'never' | 'ask' | 'always';
  /** A conversation was deleted: its checkpoints go with it. */
  onConversationDeleted?: (id: string) => void;
}

/** Before the chat controller: the store and the recorder it reports reopened tabs to. */
export function createHistory(deps: HistorySetupDeps): { store: HistoryStore; recorder: HistoryRecorder; ui: (more: UiDeps) => HistoryUi } {
  const dir = path.join(deps.storageDir, 'history');
  // This window's claim on the conversations it has open (released when it closes or goes away).
  const locks = new OwnershipLocks(dir);
  const store = new HistoryStore(dir, {
    log: deps.log,
    maxConversations: deps.maxConversations,
    maxImageBytes: deps.maxImageBytes,
    isLive: (id) => locks.isLive(id),
    onDeleted: (id) => deps.onConversationDeleted?.(id),
  });
  let ui: HistoryUi | undefined;
  const recorder = new HistoryRecorder({
    log: deps.log,
    store,
    locks,
    sessionIdOf: deps.sessionIdOf,
    onOpenChanged: (ids) => ui?.saveOpenTabs(ids),
  });
  deps.context.subscriptions.push(
    deps.messages.onDidSend((p) => recorder.observe(p)),
    { dispose: () => recorder.dispose() },
  );
  return {
    store,
    recorder,
    ui: (more) => {
      ui = new HistoryUi({
        log: deps.log,
        store,
        recorder,
        isLiveElsewhere: (id) => !recorder.openConversations().includes(id) && locks.isLive(id),
        restoreTabs: deps.restoreTabs,
        openTabsState: deps.context.workspaceState,
        reopen: async (conversation) => {
          await more.showChat();
          const tabId = randomUUID();
          more.chat.reopenTab(tabId, conversation, true);
          return tabId;
        },
        agentSessions: async () => {
          const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
          const listings = await Promise.all(
            folders.map(async (folder): Promise<AgentListing | undefined> => {
              const listed = await withAgentOf(more, folder, async (actor) => ({
                sessions: await actor.listSessions(folder),
                canDelete: await actor.canDeleteSession(),
              }));
              if (!listed) return undefined;
              if ('problem' in listed)
                return { agentName: listed.agentName, folder, sessions: [], canDelete: false, problem: listed.problem };
              return { agentName: listed.agentName, folder, ...listed.result };
            }),
          );
          return listings.filter((l) => l !== undefined);
        },
        deleteAgentSession: async (s) => {
          // Only the agent that listed the session may be asked to delete it (the current agent may have changed since).
          const done = await withAgentOf(more, s.folder, async (actor) => {
            if (actor.agentName !== s.agentName) throw new Error(`the current agent is ${actor.agentName}, not ${s.agentName}`);
            await actor.deleteSession(s.sessionId);
          });
          if (!done) throw new Error(`no agent is configured for ${s.folder}`);
          if ('problem' in done) throw new Error(done.problem);
        },
        isSessionOpen: (sessionId) => more.chat.openTabs().some((t) => deps.sessionIdOf(t.tabId) === sessionId),
      });
      return ui;
    },
  };
}

/**
 * How long the history waits for an agent to start and answer a listing or a deletion. A real
 * agent starts in 0.1–2 s here; one that hangs must not keep the list waiting, nor its process.
 */
export const AGENT_ANSWER_MS = 10_000;

/**
 * Runs `work` with the agent process the folder's chats use (started if none runs, and released
 * again when no tab uses it, also when it did not answer in time); undefined when the folder has
 * no agent configuration; `problem` when the agent failed or did not answer in time.
 */
async function withAgentOf<T>(
  more: UiDeps,
  folder: string,
  work: (actor: AgentActor) => Promise<T>,
): Promise<{ agentName: string; result: T } | { agentName: string; problem: string } | undefined> {
  const config = await more.configure(folder);
  if (!config) return undefined;
  const agentName = config.agent.name;
  const actor = more.pool.acquire(config);
  try {
    const answered = await within(AGENT_ANSWER_MS, work(actor));
    return answered ? { agentName, result: answered.value } : { agentName, problem: `no answer within ${AGENT_ANSWER_MS / 1000} s` };
  } catch (e) {
    return { agentName, problem: errorText(e) };
  } finally {
    if (!more.chat.usesProcess(actor.key)) more.pool.release(actor.key);
  }
}

export interface UiDeps {
  /** What the history asks of the chat (history does not depend on the chat's code; the chat uses reopen.ts). */
  chat: {
    reopenTab(tabId: TabId, conversation: PastConversation, announce: boolean): void;
    openTabs(): readonly { tabId: TabId }[];
    closeTab(tabId: TabId): void;
    usesProcess(actorKey: string): boolean;
  };
  pool: AgentPool;
  showChat: () => Promise<void>;
  configure: (folder: string) => Promise<AgentConfiguration | undefined>;
}

/** The contributed commands (and, in test mode, the test ones). */
export function registerHistoryCommands(ui: HistoryUi, recorder: HistoryRecorder, more: UiDeps, testMode: boolean): vscode.Disposable[] {
  const disposables = [
    vscode.commands.registerCommand('symposium.showHistory', () => ui.show()),
    vscode.commands.registerCommand('symposium.exportConversation', (id?: unknown) =>
      ui.exportCommand(typeof id === 'string' ? id : undefined),
    ),
    vscode.commands.registerCommand('symposium.clearHistory', () => ui.clearAll()),
  ];
  if (!testMode) return disposables;
  const idOf = (tabOrId: string): string => recorder.conversationOf(tabOrId) ?? tabOrId;
  const test: Record<string, (...args: never[]) => unknown> = {
    listHistory: () => ui.listAll(),
    searchHistory: (query: string) => ui.search(query).map((m) => m.id),
    conversationOfTab: (tabId: string) => recorder.conversationOf(tabId),
    reopenConversation: (id: string) => ui.open(id),
    openAgentSession: async (sessionId: string) => {
      const s = (await ui.listAll()).agentOnly.find((a) => a.sessionId === sessionId);
      return s ? ui.openAgentSession(s) : undefined;
    },
    /** The Markdown export of a conversation (by its id, or the tab that shows it). */
    exportConversation: (tabOrId: string) => {
      recorder.flushAll();
      return ui.exportText(idOf(tabOrId));
    },
    deleteConversation: (id: string) => ui.deleteOne(id, false),
    /** The agent session's Delete without its confirmation: whether the agent deleted it. */
    deleteAgentSession: async (sessionId: string) => {
      const s = (await ui.listAll()).agentOnly.find((a) => a.sessionId === sessionId);
      return s ? ui.deleteAgentSession(s, false) : false;
    },
    clearHistory: () => ui.clearAll(false),
    /**
     * Stands in for closing and reopening the window: every tab closes (the list of open tabs is
     * kept, as at a real close), every agent process stops, then symposium.restoreTabs applies.
     */
    simulateWindowReload: async () => {
      await recorder.keepingOpenList(async () => {
        for (const t of more.chat.openTabs()) more.chat.closeTab(t.tabId);
        for (const a of more.pool.all()) {
          more.pool.remove(a);
          await a.stop('window reload (test)');
        }
      });
      return ui.restore();
    },
  };
  return [
    ...disposables,
    ...Object.entries(test).map(([name, fn]) =>
      vscode.commands.registerCommand(`symposium.test.${name}`, fn as (...args: unknown[]) => unknown),
    ),
  ];
}

/** After the chat: the history quick pick, its commands, and symposium.restoreTabs (the chats open when the window last closed). */
export function registerHistoryUi(core: ExtensionCore, history: ReturnType<typeof createHistory>, more: UiDeps): HistoryUi {
  const ui = history.ui(more);
  core.context.subscriptions.push(...registerHistoryCommands(ui, history.recorder, more, core.testMode));
  void ui.restore().catch((e: unknown) => core.log.error('history', 'could not restore tabs', e));
  return ui;
}
