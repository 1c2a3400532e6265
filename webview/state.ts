// The webview's persisted state (seed "Webview State Persistence"), its freshness check, and
// per-tab deduplication by message index. Pure: no DOM, no mynah-ui at runtime.
//
// The state is kept only within one activation: the extension embeds a new session ID in the HTML
// each time it activates, and saved state with another ID is discarded (chat history survives
// hide/show and webview re-creation, not an editor restart).
//
// The transcript is saved once, as our conversation model: mynah's chat items are rendered from it
// again on restore, so the saved mynah tabs carry none.
import type { MynahUIDataModel, MynahUITabStoreModel } from '@aws/mynah-ui';
import { isObject } from '../src/protocol/guards';
import type { TabId } from '../src/protocol/webview';
import type { Conversation } from '../src/protocol/conversation';

/** What the webview model (model.ts) saves: per open tab. */
export interface ModelState {
  lastSeenIndex: Record<TabId, number>;
  /** Unsent prompt text per tab. */
  drafts: Record<TabId, string>;
  /** Our model of each tab's conversation (what mynah's chat items are rendered from). */
  conversations: Record<TabId, Conversation>;
}

export interface PersistedState extends ModelState {
  /** 2: the saved mynah tabs no longer carry chat items (v1 saved the transcript twice). */
  v: 2;
  sessionId: string;
  /** mynah-ui's getAllTabs() without chat items, drafts or the @ menu. Opaque to all but mynah-ui. */
  tabs: MynahUITabStoreModel;
  /** mynah-ui tab id → protocol tab id (UUID v4); mynah makes its own ids. */
  tabIds: Record<string, TabId>;
}

const allValues = (r: Record<string, unknown>, ok: (v: unknown) => boolean): boolean => Object.values(r).every(ok);
const isConversation = (v: unknown): boolean => isObject(v) && Array.isArray(v.blocks);

/**
 * The saved state if it belongs to this activation and looks sane; otherwise undefined (start
 * clean). Old or foreign shapes are never migrated: they, and a mismatched session ID, clear
 * everything.
 */
export function restoreState(saved: unknown, sessionId: string): PersistedState | undefined {
  if (!isObject(saved) || saved.v !== 2 || saved.sessionId !== sessionId) return undefined;
  const { tabs, tabIds, lastSeenIndex, drafts, conversations } = saved;
  if (!isObject(tabs) || !isObject(tabIds) || !isObject(lastSeenIndex) || !isObject(drafts) || !isObject(conversations)) return undefined;
  if (!allValues(tabs, (t) => isObject(t) && (t.store === undefined || isObject(t.store)))) return undefined;
  if (!allValues(tabIds, (t) => typeof t === 'string') || !allValues(lastSeenIndex, (i) => typeof i === 'number')) return undefined;
  if (!allValues(drafts, (d) => typeof d === 'string') || !allValues(conversations, isConversation)) return undefined;
  return saved as unknown as PersistedState;
}

/**
 * The state to save: the model's part, and mynah's tabs (`getAllTabs()`) as mynah needs them on
 * restore, minus what is saved elsewhere or sent again: chat items (rendered from
 * `conversations`), the draft (in `drafts`) and the `@` menu (the host re-sends it on every
 * webview-ready). Tabs without a protocol tab ID are left out.
 */
export function persistedState(
  sessionId: string,
  model: ModelState,
  mynahTabs: MynahUITabStoreModel,
  tabIds: Record<string, TabId>,
): PersistedState {
  const tabs: MynahUITabStoreModel = {};
  const savedIds: Record<string, TabId> = {};
  for (const [mid, tab] of Object.entries(mynahTabs)) {
    const tabId = tabIds[mid];
    if (!tabId) continue;
    const { chatItems: _items, promptInputText: _draft, contextCommands: _menu, ...store } = tab.store ?? {};
    tabs[mid] = { ...tab, store };
    savedIds[mid] = tabId;
  }
  return { v: 2, sessionId, tabs, tabIds: savedIds, ...model };
}

/** What liveMynahTabs reads of mynah-ui (its MynahUI object). */
export interface MynahTabsSource {
  getSelectedTabId(): string | undefined;
  getTabData(mid: string): { getStore(): MynahUIDataModel | null | undefined } | null | undefined;
}

/**
 * mynah-ui's tabs as getAllTabs() lists them, `{isSelected, store}`, but the stores themselves
 * rather than getAllTabs()'s deep copy of them: that copies every chat item of every tab, which
 * persistedState then drops, so each save cost as much as the whole history (and saves come every
 * 50 ms in a streamed reply). Read-only: persistedState leaves the chat items out and the caller
 * copies the rest.
 */
export function liveMynahTabs(mynah: MynahTabsSource, mids: Iterable<string>): MynahUITabStoreModel {
  const selected = mynah.getSelectedTabId();
  const tabs: MynahUITabStoreModel = {};
  for (const mid of mids) tabs[mid] = { isSelected: mid === selected, store: mynah.getTabData(mid)?.getStore() ?? {} };
  return tabs;
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
