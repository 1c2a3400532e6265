// The history as the user sees it: **Symposium: Chat History…** (also the History button in the
// chat's title bar) is a quick pick of this workspace's past conversations, newest first, searched
// by text as you type (titles and whole transcripts); each item can be exported or deleted, and the
// title bar clears everything (after a confirmation). Sessions the agent lists (session/list) that
// we have no transcript for are listed too, marked as such. Export writes Markdown to a new editor.
// Also restores the tabs that were open when the window closed (symposium.restoreTabs).
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SessionInfo } from '@agentclientprotocol/sdk';
import type { Log } from '../log/logEvent';
import type { TabId } from '../protocol/webview';
import { exportMarkdown } from './exporter';
import type { ConversationMeta, HistoryStore } from './historyStore';
import type { HistoryRecorder } from './recorder';
import type { PastConversation } from './reopen';
import { errorText } from '../protocol/errorText';

/** A session of the agent's own list that the history has no transcript for. */
export interface AgentSession {
  agentName: string;
  folder: string;
  sessionId: string;
  title: string;
  updatedAt?: string;
  /** The agent offers `session/delete`: the item has a Delete button. */
  canDelete: boolean;
}

/** One workspace folder's agent and its own sessions; `problem` says why they are missing. */
export interface AgentListing {
  agentName: string;
  folder: string;
  sessions: SessionInfo[];
  canDelete: boolean;
  /** The agent failed to list its sessions, or did not answer in time. */
  problem?: string;
}

export interface HistoryUiDeps {
  log: Log;
  store: HistoryStore;
  recorder: HistoryRecorder;
  /** Shows the chat view and opens a tab on the conversation; returns the tab. */
  reopen: (conversation: PastConversation) => Promise<TabId>;
  /** The current agent's own sessions per workspace folder (session/list; empty if it cannot). */
  agentSessions: () => Promise<AgentListing[]>;
  /** `session/delete` of one of the agent's own sessions, by the agent that listed it. */
  deleteAgentSession: (s: AgentSession) => Promise<void>;
  /** A chat tab of this window shows the agent session. */
  isSessionOpen: (sessionId: string) => boolean;
  /** Open live in another window (it holds the conversation's lock): not deleted from here. */
  isLiveElsewhere: (id: string) => boolean;
  restoreTabs: () => 'never' | 'ask' | 'always';
  openTabsState: vscode.Memento;
}

const OPEN_TABS_KEY = 'symposium.history.openConversations';
const EXPORT = { iconPath: new vscode.ThemeIcon('markdown'), tooltip: 'Export to Markdown' };
const DELETE = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this conversation' };
const DELETE_AGENT_SESSION = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this session from the agent' };
const CLEAR = { iconPath: new vscode.ThemeIcon('clear-all'), tooltip: 'Clear all history…' };

type Item = vscode.QuickPickItem & { meta?: ConversationMeta; agentSession?: AgentSession };

export class HistoryUi {
  constructor(private readonly deps: HistoryUiDeps) {}

  /**
   * The stored conversations plus the agent's sessions we have no transcript for, and why an
   * agent's sessions are missing (`problems`, one line per folder).
   */
  async listAll(): Promise<{ conversations: ConversationMeta[]; agentOnly: AgentSession[]; problems: string[] }> {
    const conversations = this.deps.store.list();
    return { conversations, ...(await this.agentOnly(conversations)) };
  }

  private async agentOnly(conversations: readonly ConversationMeta[]): Promise<{ agentOnly: AgentSession[]; problems: string[] }> {
    const known = new Set(conversations.flatMap((c) => (c.sessionId ? [c.sessionId] : [])));
    let listings: AgentListing[] = [];
    try {
      listings = await this.deps.agentSessions();
    } catch (e) {
      this.deps.log.warn('history', 'could not list the agent’s sessions', errorText(e));
      return { agentOnly: [], problems: [`The agent's own sessions could not be listed: ${errorText(e)}`] };
    }
    const problems: string[] = [];
    for (const l of listings) {
      if (!l.problem) continue;
      this.deps.log.warn('history', 'could not list the agent’s sessions', { agent: l.agentName, folder: l.folder, problem: l.problem });
      // The quick pick's title is one line: the reason's first line, shortened (the log has it whole).
      const reason = l.problem.split('\n', 1)[0]!;
      const short = reason.length > 160 ? `${reason.slice(0, 160)}…` : reason;
      problems.push(`${l.agentName} (${path.basename(l.folder)}) did not list its own sessions: ${short}`);
    }
    const agentOnly = listings.flatMap(({ agentName, folder, sessions, canDelete }) =>
      sessions
        .filter((s) => !known.has(s.sessionId))
        .map((s) => ({
          agentName,
          folder,
          sessionId: s.sessionId,
          title: s.title ?? `Session ${s.sessionId.slice(0, 8)}`,
          ...(s.updatedAt ? { updatedAt: s.updatedAt } : {}),
          canDelete,
        })),
    );
    return { agentOnly, problems };
  }

  /** Conversations whose title or transcript contains `query`. */
  search(query: string): ConversationMeta[] {
    return this.deps.store.list().filter((m) => this.deps.store.matches(m.id, query));
  }

  /** Reopens a stored conversation (or focuses nothing new when a tab already shows it). */
  async open(id: string): Promise<TabId | undefined> {
    const existing = this.deps.recorder.tabOf(id);
    if (existing) {
      void vscode.window.showInformationMessage('This conversation is already open in a chat tab.');
      return existing;
    }
    const stored = this.deps.store.read(id);
    if (!stored) {
      void vscode.window.showWarningMessage('This conversation is no longer in the history.');
      return undefined;
    }
    return this.deps.reopen({ meta: stored.meta, entries: stored.entries });
  }

  /** Continues one of the agent's own sessions (no transcript here: the agent's resume/load decides). */
  async openAgentSession(s: AgentSession): Promise<TabId> {
    const meta = this.deps.store.create(
      { agentName: s.agentName, folder: s.folder, title: s.title },
      new Set(this.deps.recorder.openConversations()),
    );
    const updated = this.deps.store.update(meta.id, { sessionId: s.sessionId }) ?? meta;
    return this.deps.reopen({ meta: updated, entries: [] });
  }

  exportText(id: string): string | undefined {
    const stored = this.deps.store.read(id);
    return stored && exportMarkdown(stored.meta, stored.entries);
  }

  /** Opens the conversation's Markdown in a new editor (the user saves it where they like). */
  async exportToEditor(id: string): Promise<void> {
    const content = this.exportText(id);
    if (content === undefined) return;
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** Export: the given conversation, else a pick (the open ones first). */
  async exportCommand(id?: string): Promise<void> {
    const chosen = id ?? (await this.pickConversation('Export which conversation to Markdown?'));
    if (chosen) await this.exportToEditor(chosen);
  }

  /** The tab menu's Export: the conversation the tab shows (nothing yet: says so). */
  async exportTab(tabId: TabId): Promise<void> {
    this.deps.recorder.flushAll();
    const id = this.deps.recorder.conversationOf(tabId);
    if (!id) {
      void vscode.window.showInformationMessage('Nothing to export yet: this chat has no conversation.');
      return;
    }
    this.deps.log.info('history', 'exporting a tab', { tabId, conversation: id });
    await this.exportToEditor(id);
  }

  async deleteOne(id: string, confirm = true): Promise<boolean> {
    const meta = this.deps.store.meta(id);
    if (!meta) return false;
    if (this.deps.isLiveElsewhere(id)) {
      void vscode.window.showInformationMessage(`“${meta.title}” is open in another window; close it there to delete it.`);
      return false;
    }
    if (confirm && !(await this.confirm(`Delete the conversation “${meta.title}”?`, 'Delete'))) return false;
    this.deps.store.delete(id);
    return true;
  }

  /**
   * Deletes one of the agent's own sessions from the agent (`session/delete`) after a modal
   * confirmation. A session a chat tab shows is not deleted from under it: the user is told to
   * close the tab first, as for a conversation open in another window. A refusal shows the agent's
   * reason. Resolves whether the agent deleted it.
   */
  async deleteAgentSession(s: AgentSession, confirm = true): Promise<boolean> {
    if (!s.canDelete) return false;
    if (this.deps.isSessionOpen(s.sessionId)) {
      this.deps.log.info('history', 'agent session open in a tab: not deleted', { sessionId: s.sessionId });
      void vscode.window.showInformationMessage(`“${s.title}” is open in a chat tab; close the tab to delete the session.`);
      return false;
    }
    if (confirm && !(await this.confirm(`Delete the session “${s.title}” from ${s.agentName}? The agent forgets it for good.`, 'Delete')))
      return false;
    try {
      await this.deps.deleteAgentSession(s);
      return true;
    } catch (e) {
      const reason = errorText(e);
      this.deps.log.warn('history', 'the agent did not delete its session', { sessionId: s.sessionId, reason });
      void vscode.window.showErrorMessage(`${s.agentName} could not delete the session “${s.title}”: ${reason}`);
      return false;
    }
  }

  async clearAll(confirm = true): Promise<boolean> {
    if (
      confirm &&
      !(await this.confirm('Delete every past conversation of this workspace? Conversations open in a chat tab are kept.', 'Clear All'))
    )
      return false;
    const open = new Set(this.deps.recorder.openConversations());
    for (const m of this.deps.store.list()) if (!open.has(m.id) && !this.deps.isLiveElsewhere(m.id)) this.deps.store.delete(m.id);
    return true;
  }

  /** The history quick pick (the command and the title-bar button). */
  async show(): Promise<void> {
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = 'Chat history';
    qp.placeholder = 'Search past conversations (title and text)';
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.buttons = [CLEAR];
    let base: Item[] = [];
    const showItems = (): void => {
      // Transcript matches show even when the title does not contain the words.
      const value = qp.value.trim();
      const hits = value ? new Set(this.search(value).map((m) => m.id)) : new Set<string>();
      qp.items = base.map((i) => (i.meta && hits.has(i.meta.id) ? { ...i, alwaysShow: true } : i));
    };
    const refresh = async (): Promise<void> => {
      // The stored conversations at once; the agent's own sessions when (and if) it answers.
      qp.busy = true;
      const conversations = this.deps.store.list();
      const stored = conversations.map((m) => this.item(m));
      base = [...stored, ...base.filter((i) => i.agentSession)];
      showItems();
      const { agentOnly, problems } = await this.agentOnly(conversations);
      base = [...stored, ...agentOnly.map((s) => agentItem(s))];
      showItems();
      qp.title = problems.length ? `Chat history (${problems.join('; ')})` : 'Chat history';
      qp.busy = false;
      this.deps.log.info('history', 'history shown', {
        conversations: conversations.length,
        agentOnly: agentOnly.length,
        ...(problems.length ? { problems } : {}),
      });
    };
    qp.onDidChangeValue(showItems);
    qp.onDidTriggerItemButton(async ({ item, button }) => {
      if (item.agentSession) {
        if (button === DELETE_AGENT_SESSION && (await this.deleteAgentSession(item.agentSession))) await refresh();
        return;
      }
      if (!item.meta) return;
      if (button === EXPORT) await this.exportToEditor(item.meta.id);
      else if (button === DELETE && (await this.deleteOne(item.meta.id))) await refresh();
    });
    qp.onDidTriggerButton(async () => {
      if (await this.clearAll()) await refresh();
    });
    qp.onDidAccept(async () => {
      const item = qp.selectedItems[0];
      qp.hide();
      if (item?.meta) await this.open(item.meta.id);
      else if (item?.agentSession) await this.openAgentSession(item.agentSession);
    });
    qp.onDidHide(() => qp.dispose());
    qp.show();
    await refresh();
  }

  /** symposium.restoreTabs at activation: reopen what was open when the window closed. */
  async restore(): Promise<TabId[]> {
    const ids = this.deps.openTabsState.get<string[]>(OPEN_TABS_KEY, []).filter((id) => this.deps.store.meta(id));
    const mode = this.deps.restoreTabs();
    if (ids.length === 0 || mode === 'never') return [];
    if (mode === 'ask') {
      // Logged first: tests wait for it to know the notification is (about to be) showing.
      this.deps.log.info('history', 'asking to restore tabs', { conversations: ids.length });
      const answer = await vscode.window.showInformationMessage(
        `Reopen the ${ids.length === 1 ? 'chat' : `${ids.length} chats`} that were open when this window closed?`,
        'Reopen',
      );
      if (answer !== 'Reopen') return [];
    }
    this.deps.log.info('history', 'restoring tabs', { conversations: ids.length });
    const tabs: TabId[] = [];
    for (const id of ids) {
      const tab = await this.open(id);
      if (tab) tabs.push(tab);
    }
    return tabs;
  }

  /** The conversations open in tabs (kept for the next window). */
  saveOpenTabs(ids: string[]): void {
    void this.deps.openTabsState.update(OPEN_TABS_KEY, ids);
  }

  private item(m: ConversationMeta): Item {
    return {
      label: m.title,
      description: `${m.agentName} · ${path.basename(m.folder)}`,
      detail: `${new Date(m.lastActivity).toLocaleString()} · ${m.turns} ${m.turns === 1 ? 'turn' : 'turns'}${this.deps.recorder.tabOf(m.id) ? ' · open' : ''}`,
      meta: m,
      buttons: [EXPORT, DELETE],
    };
  }

  private async pickConversation(placeHolder: string): Promise<string | undefined> {
    const open = new Set(this.deps.recorder.openConversations());
    const all = this.deps.store.list().sort((a, b) => Number(open.has(b.id)) - Number(open.has(a.id)));
    const picked = await vscode.window.showQuickPick(
      all.map((m) => this.item(m)),
      { placeHolder },
    );
    return picked?.meta?.id;
  }

  private async confirm(text: string, action: string): Promise<boolean> {
    // A modal dialog: what a user expects before something is deleted for good (the e2e clicks its buttons).
    const answer = await vscode.window.showWarningMessage(text, { modal: true }, action);
    this.deps.log.info('history', answer === action ? 'confirmed' : 'not confirmed', { action });
    return answer === action;
  }
}

function agentItem(s: AgentSession): Item {
  return {
    label: s.title,
    description: `${s.agentName} · ${path.basename(s.folder)}`,
    detail: `${s.updatedAt ? `${new Date(s.updatedAt).toLocaleString()} · ` : ''}the agent's own session: no transcript here`,
    agentSession: s,
    ...(s.canDelete ? { buttons: [DELETE_AGENT_SESSION] } : {}),
  };
}

/** A new tab id for a reopened conversation. */
export const newTabId = (): TabId => randomUUID();
