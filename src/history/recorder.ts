// Writes every tab's conversation to the history store as the chat shows it: it sees each message
// sent to a tab (TabMessages.onDidSend) and appends the conversation ones. A tab's conversation is
// recorded once it has both a session (`session-ready`) and a first prompt, so tabs nobody wrote in
// do not fill the history (what came before is kept until then); a reopened tab continues its
// stored conversation. Streamed chunks are merged while
// they stream and written at least every FLUSH_MS, so a crash loses at most that much of a reply.
// Also keeps the list of conversations open in tabs (for symposium.restoreTabs). A conversation has
// one writer: the window holding its ownership lock (ownership.ts); a tab showing a conversation
// another window holds is a read-only view whose entries are not written, until it forks into a
// conversation of its own. vscode-free.
import type { Log } from '../log/logEvent';
import { coalesce } from '../protocol/coalesce';
import { isConversationPayload, type ConversationEntry, type TabId, type TabPayload } from '../protocol/webview';
import type { HistoryLine, HistoryStore } from './historyStore';
import type { OwnershipLocks } from './ownership';
import type { PastConversation } from './reopen';
import { errorText } from '../protocol/errorText';
import { currentMode, modeOption } from '../protocol/sessionMode';

const FLUSH_MS = 300;
const TITLE_CHARS = 80;

interface TabRecord {
  conversationId: string;
  /** The last streamed entry, not yet written (it may still merge with the next). */
  pending?: ConversationEntry;
  timer?: NodeJS.Timeout;
  /** Another window holds the conversation: nothing is written for this tab. */
  viewOnly?: boolean;
}

export interface RecorderDeps {
  log: Log;
  store: HistoryStore;
  /** Which window writes which conversation (absent: this window writes every conversation). */
  locks?: OwnershipLocks;
  /** The agent session a tab shows now (read when the tab says `session-ready`). */
  sessionIdOf: (tabId: TabId) => string | undefined;
  /** The conversations open in tabs changed (persisted for restoreTabs). */
  onOpenChanged?: (conversationIds: string[]) => void;
}

export class HistoryRecorder {
  private readonly tabs = new Map<TabId, TabRecord>();
  /** Entries sent before the tab's session was ready (the echoed first prompt). */
  private readonly early = new Map<TabId, ConversationEntry[]>();
  /** Each tab's mode as its picker shows it, followed from before its conversation is recorded. */
  private readonly modes = new Map<TabId, string>();
  /** Tabs whose agent offers its modes as a config option: its older mode updates are not the picker's. */
  private readonly modeByOption = new Set<TabId>();
  /** While the window closes, closing tabs does not change the list of tabs to restore. */
  private openListFrozen = false;

  constructor(private readonly deps: RecorderDeps) {}

  /** Every message sent to a tab. */
  observe(payload: TabPayload): void {
    this.followMode(payload);
    if (!isConversationPayload(payload)) return;
    const { tabId, ...rest } = payload;
    const entry = rest as ConversationEntry;
    let rec = this.tabs.get(tabId);
    if (!rec) {
      const list = this.early.get(tabId) ?? [];
      if (list.length < 1_000) list.push(entry);
      this.early.set(tabId, list);
      const ready = [...list].reverse().find((e) => e.type === 'session-ready');
      if (!ready || ready.type !== 'session-ready' || !list.some((e) => e.type === 'prompt-started')) return;
      rec = this.begin(tabId, ready.agentName, ready.cwd);
      this.early.delete(tabId);
      if (!rec) return;
      for (const e of list) {
        this.record(rec, e);
        this.updateIndex(tabId, rec, e);
      }
      return;
    }
    if (rec.viewOnly) return;
    this.record(rec, entry);
    this.updateIndex(tabId, rec, entry);
  }

  /**
   * A reopened tab continues a stored conversation, if this window can own it; false when another
   * window has it open (the tab is then a read-only view: nothing is written for it).
   */
  adopt(tabId: TabId, conversationId: string): boolean {
    this.close(tabId);
    const ownership = this.deps.locks?.acquire(conversationId) ?? { owned: true };
    if (!ownership.owned) {
      this.deps.log.info('history', 'conversation open in another window: read-only here', {
        tabId,
        conversationId,
        holderPid: ownership.holder?.pid,
      });
      this.tabs.set(tabId, { conversationId, viewOnly: true });
      return false;
    }
    this.tabs.set(tabId, { conversationId });
    this.openChanged();
    return true;
  }

  /**
   * A read-only view goes on as a conversation of its own: a new file that starts with the old
   * transcript (what the tab shows), written by this window from now on.
   */
  fork(tabId: TabId, past: PastConversation): string | undefined {
    const rec = this.tabs.get(tabId);
    if (!rec?.viewOnly) return rec?.conversationId;
    try {
      const { meta } = past;
      const fork = this.deps.store.create(
        { agentName: meta.agentName, folder: meta.folder, title: meta.title },
        new Set(this.openConversations()),
      );
      this.deps.locks?.acquire(fork.id);
      this.deps.store.append(
        fork.id,
        past.entries.map((e): HistoryLine => ({ t: 'entry', e })),
      );
      this.deps.store.update(fork.id, { turns: meta.turns, lastActivity: new Date().toISOString() });
      this.tabs.set(tabId, { conversationId: fork.id });
      this.deps.log.info('history', 'forked a conversation open in another window', { tabId, from: meta.id, to: fork.id });
      this.openChanged();
      return fork.id;
    } catch (e) {
      this.deps.log.error('history', 'could not fork the conversation', e);
      this.tabs.delete(tabId);
      return undefined;
    }
  }

  /** The agent's replay replaced the tab's conversation: the stored one starts over with it. */
  replaced(tabId: TabId, entries: ConversationEntry[]): void {
    const rec = this.tabs.get(tabId);
    if (!rec) return;
    this.flush(rec);
    this.write(rec.conversationId, [{ t: 'reset' }, ...entries.map((e): HistoryLine => ({ t: 'entry', e }))]);
  }

  /** The tab closed: its conversation is complete on disk. */
  close(tabId: TabId): void {
    const rec = this.tabs.get(tabId);
    this.early.delete(tabId);
    this.modes.delete(tabId);
    this.modeByOption.delete(tabId);
    if (!rec) return;
    this.flush(rec);
    this.tabs.delete(tabId);
    if (rec.viewOnly) return;
    this.deps.locks?.release(rec.conversationId);
    if (!this.openListFrozen) this.openChanged();
  }

  conversationOf(tabId: TabId): string | undefined {
    return this.tabs.get(tabId)?.conversationId;
  }

  tabOf(conversationId: string): TabId | undefined {
    for (const [tabId, rec] of this.tabs) if (rec.conversationId === conversationId) return tabId;
    return undefined;
  }

  /** The conversations this window writes (read-only views of another window's are not among them). */
  openConversations(): string[] {
    return [...this.tabs.values()].flatMap((r) => (r.viewOnly ? [] : [r.conversationId]));
  }

  /** Runs `f` (closing every tab as a window close does) without forgetting which tabs were open. */
  async keepingOpenList(f: () => Promise<void>): Promise<void> {
    this.openListFrozen = true;
    try {
      await f();
    } finally {
      this.openListFrozen = false;
    }
  }

  flushAll(): void {
    for (const rec of this.tabs.values()) this.flush(rec);
  }

  /** The window goes away: everything written, every conversation given up. */
  dispose(): void {
    this.flushAll();
    this.deps.locks?.dispose();
  }

  private begin(tabId: TabId, agentName: string, folder: string): TabRecord | undefined {
    try {
      const meta = this.deps.store.create({ agentName, folder }, new Set(this.openConversations()));
      this.deps.locks?.acquire(meta.id); // a new id: nobody else has it
      const rec = { conversationId: meta.id };
      const mode = this.modes.get(tabId);
      if (mode) this.deps.store.update(meta.id, { mode });
      this.tabs.set(tabId, rec);
      this.openChanged();
      return rec;
    } catch (e) {
      this.deps.log.error('history', 'could not start a conversation record', e);
      return undefined;
    }
  }

  /** The tab's mode changed (the user's pick, or the agent's own update): the conversation keeps it. */
  private followMode(payload: TabPayload): void {
    if (payload.type === 'session-ready') {
      if (modeOption(payload.controls)) this.modeByOption.add(payload.tabId);
      else this.modeByOption.delete(payload.tabId);
    }
    if (payload.type === 'agent-update' && payload.update.sessionUpdate === 'current_mode_update' && this.modeByOption.has(payload.tabId))
      return;
    const mode = modeIn(payload);
    if (mode === undefined || this.modes.get(payload.tabId) === mode) return;
    this.modes.set(payload.tabId, mode);
    const rec = this.tabs.get(payload.tabId);
    if (!rec || rec.viewOnly) return;
    try {
      this.deps.store.update(rec.conversationId, { mode });
    } catch (e) {
      this.deps.log.warn('history', 'could not update the index', e);
    }
  }

  private record(rec: TabRecord, entry: ConversationEntry): void {
    const merged = rec.pending && coalesce(rec.pending, entry);
    if (merged) {
      rec.pending = merged;
      return;
    }
    this.flush(rec);
    if (entry.type === 'agent-update' || entry.type === 'terminal-output') {
      rec.pending = entry;
      rec.timer = setTimeout(() => this.flush(rec), FLUSH_MS);
      rec.timer.unref?.();
    } else {
      this.write(rec.conversationId, [{ t: 'entry', e: entry }]);
    }
  }

  private flush(rec: TabRecord): void {
    if (rec.timer) clearTimeout(rec.timer);
    rec.timer = undefined;
    const pending = rec.pending;
    rec.pending = undefined;
    if (pending) this.write(rec.conversationId, [{ t: 'entry', e: pending }]);
  }

  private write(conversationId: string, lines: HistoryLine[]): void {
    try {
      this.deps.store.append(conversationId, lines);
    } catch (e) {
      this.deps.log.error('history', 'could not write the conversation', {
        conversationId,
        error: errorText(e),
      });
    }
  }

  /** The index follows the conversation: session, title, turns, last activity. */
  private updateIndex(tabId: TabId, rec: TabRecord, entry: ConversationEntry): void {
    const store = this.deps.store;
    const now = new Date().toISOString();
    try {
      if (entry.type === 'session-ready') {
        const sessionId = this.deps.sessionIdOf(tabId);
        store.update(rec.conversationId, {
          agentName: entry.agentName,
          folder: entry.cwd,
          ...(sessionId ? { sessionId } : {}),
          lastActivity: now,
        });
      } else if (entry.type === 'prompt-started') {
        const meta = store.meta(rec.conversationId);
        if (!meta) return;
        const firstLine = entry.text.trim().split('\n')[0]?.slice(0, TITLE_CHARS) ?? '';
        store.update(rec.conversationId, {
          turns: meta.turns + 1,
          lastActivity: now,
          ...(meta.turns === 0 && meta.title === 'New chat' && firstLine ? { title: firstLine } : {}),
        });
      } else if (entry.type === 'agent-update' && entry.update.sessionUpdate === 'session_info_update' && entry.update.title) {
        store.update(rec.conversationId, { title: entry.update.title.slice(0, 200), lastActivity: now });
      } else if (entry.type === 'prompt-ended' || entry.type === 'prompt-failed') {
        this.flush(rec);
        store.update(rec.conversationId, { lastActivity: now });
      }
    } catch (e) {
      this.deps.log.warn('history', 'could not update the index', e);
    }
  }

  private openChanged(): void {
    this.deps.onOpenChanged?.(this.openConversations());
  }
}

/** The mode a message to a tab shows it in, if it says. */
function modeIn(payload: TabPayload): string | undefined {
  if (payload.type === 'session-ready' || payload.type === 'controls-changed') return currentMode(payload.controls);
  if (payload.type !== 'agent-update') return undefined;
  const u = payload.update;
  if (u.sessionUpdate === 'current_mode_update') return u.currentModeId;
  if (u.sessionUpdate === 'config_option_update') return currentMode({ configOptions: u.configOptions });
  return undefined;
}
