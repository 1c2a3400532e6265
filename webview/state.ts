// The webview's persisted state (seed "Webview State Persistence"), its freshness check, and
// per-tab deduplication by message index. Pure: no DOM, no mynah-ui at runtime.
//
// The state is kept only within one activation: the extension embeds a new session ID in the HTML
// each time it activates, and saved state with another ID is discarded (chat history survives
// hide/show and webview re-creation, not an editor restart).
import type { MynahUITabStoreModel } from '@aws/mynah-ui';
import type { TabId } from '../src/protocol/webview';
import type { Conversation } from './conversation';

export interface PersistedState {
  v: 1;
  sessionId: string;
  /** mynah-ui's getAllTabs(), chat items included. Opaque to everyone but mynah-ui. */
  tabs: MynahUITabStoreModel;
  /** mynah-ui tab id → protocol tab id (UUID v4); mynah makes its own ids. */
  tabIds: Record<string, TabId>;
  lastSeenIndex: Record<TabId, number>;
  /** Unsent prompt text per tab. */
  drafts: Record<TabId, string>;
  /** Our model of each tab's conversation (what mynah's chat items are rendered from). */
  conversations: Record<TabId, Conversation>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The saved state if it belongs to this activation and looks sane; otherwise undefined (start
 * clean). Old or foreign shapes are never migrated: a mismatched session ID clears everything.
 */
export function restoreState(saved: unknown, sessionId: string): PersistedState | undefined {
  if (!isRecord(saved) || saved.v !== 1 || saved.sessionId !== sessionId) return undefined;
  if (!isRecord(saved.tabs) || !isRecord(saved.tabIds) || !isRecord(saved.lastSeenIndex) || !isRecord(saved.drafts) || !isRecord(saved.conversations)) return undefined;
  return saved as unknown as PersistedState;
}

/**
 * lastSeenIndex per tab: a message is applied only if its index is above the last one applied for
 * its tab. Replays after hide/show or re-creation therefore never duplicate anything.
 */
export class SeenIndex {
  private readonly seen: Map<TabId, number>;

  constructor(initial: Record<TabId, number> = {}) {
    this.seen = new Map(Object.entries(initial));
  }

  /** True (and records it) if the message is new for its tab. */
  accept(tabId: TabId, index: number): boolean {
    if (index <= (this.seen.get(tabId) ?? 0)) return false;
    this.seen.set(tabId, index);
    return true;
  }

  forget(tabId: TabId): void {
    this.seen.delete(tabId);
  }

  toJSON(): Record<TabId, number> {
    return Object.fromEntries(this.seen);
  }
}
