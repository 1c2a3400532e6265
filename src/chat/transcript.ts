// The host's record of each tab's conversation, as the conversation messages it sent (coalesced).
// It is the source of `resync` snapshots: when the outbox had to drop a hidden tab's buffer, or the
// webview lost a tab, the webview rebuilds the tab from these entries. Pure.
import type { ConversationEntry, ConversationPayload, QueuedPrompt, Resync, TabId } from '../protocol/webview';
import { coalesce } from '../protocol/coalesce';

interface TabTranscript {
  title: string;
  entries: ConversationEntry[];
}

export class Transcript {
  private readonly tabs = new Map<TabId, TabTranscript>();
  /** Each tab's waiting prompts (its last `prompt-queue`): not the conversation, but a resync carries them. */
  private readonly queued = new Map<TabId, QueuedPrompt[]>();

  /** Keeps at most `maxEntries` (coalesced) entries per tab; older ones are dropped first. */
  constructor(private readonly maxEntries = 2_000) {}

  open(tabId: TabId, title: string): void {
    if (!this.tabs.has(tabId)) this.tabs.set(tabId, { title, entries: [] });
  }

  record(payload: ConversationPayload): void {
    const t = this.tabs.get(payload.tabId);
    if (!t) return;
    const { tabId: _tabId, ...entry } = payload;
    const last = t.entries[t.entries.length - 1];
    const merged = last ? coalesce(last, entry) : undefined;
    if (merged) t.entries[t.entries.length - 1] = merged;
    else t.entries.push(entry);
    if (t.entries.length > this.maxEntries) {
      t.entries.splice(0, t.entries.length - this.maxEntries);
    }
  }

  setQueued(tabId: TabId, waiting: QueuedPrompt[]): void {
    if (waiting.length > 0 && this.tabs.has(tabId)) this.queued.set(tabId, waiting);
    else this.queued.delete(tabId);
  }

  snapshot(tabId: TabId): Omit<Resync, 'tabId'> | undefined {
    const t = this.tabs.get(tabId);
    if (!t) return undefined;
    const queued = this.queued.get(tabId);
    return { type: 'resync', title: t.title, entries: t.entries.map((e) => ({ ...e })), ...(queued ? { queued } : {}) };
  }

  /** The tab's conversation is now `entries` (a past conversation reopened, an agent's replay). */
  replace(tabId: TabId, title: string, entries: readonly ConversationEntry[]): void {
    this.tabs.set(tabId, { title, entries: [] });
    for (const e of entries) this.record({ ...e, tabId } as ConversationPayload);
  }

  forget(tabId: TabId): void {
    this.tabs.delete(tabId);
    this.queued.delete(tabId);
  }
}
