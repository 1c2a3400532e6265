// The webview's model, apart from mynah-ui: which tabs are open, each tab's conversation and draft,
// the `@` menu, and how host messages change them (message protocol: per-tab index, applied once;
// resync replaces a tab's conversation). chatApp.ts puts what changed on screen; the host's unit
// tests drive this same model as their fake webview. Pure: no DOM, no mynah-ui.
import type { ContextRef, HostToWebview, MessageId, QueuedPrompt, TabId } from '../src/protocol/webview';
import { applyEntry, emptyConversation, type Conversation } from '../src/protocol/conversation';
import { contextKey } from './mappers/contextMenu';
import { SeenIndex, type ModelState } from './state';

/** What a host message changed, for the view to redraw. */
export type ModelChange =
  /** Already applied (a replay), or for a tab that is not open. */
  | { kind: 'none' }
  /** Every tab's `@` menu. */
  | { kind: 'context-items' }
  /** The host opened a tab: the view creates it (or, if it cannot, closes it in the model). */
  | { kind: 'open-tab'; tabId: TabId; title: string }
  /** The tab's conversation was replaced (resync): create the tab if needed, redraw all of it. */
  | { kind: 'rebuilt'; tabId: TabId; title: string }
  /** These blocks (ids from conversation.ts blockId) and the tab's own state (busy, pickers) changed. */
  | { kind: 'changed'; tabId: TabId; blockIds: string[] }
  /** Test hook: the host asks what the tab shows. */
  | { kind: 'query-rendered'; tabId: TabId; requestId: string };

const NONE: ModelChange = { kind: 'none' };

/**
 * The tab's waiting prompts are those a host message names (none: the card goes); anything
 * malformed is left out rather than drawn.
 */
function setQueued(conv: Conversation, v: unknown): void {
  const queued = Array.isArray(v)
    ? v.filter(
        (q): q is QueuedPrompt => typeof q === 'object' && q !== null && typeof q.messageId === 'string' && typeof q.text === 'string',
      )
    : [];
  if (queued.length > 0) conv.queued = queued;
  else delete conv.queued;
}

/** Attaches `refs` to the tab's next prompt; one already attached moves to the end, not twice. */
function attach(conv: Conversation, refs: readonly ContextRef[]): void {
  for (const ref of refs) conv.attached = [...(conv.attached ?? []).filter((r) => contextKey(r) !== contextKey(ref)), ref];
}
/** Entries kept choosable after the menu stopped listing them (the host lists up to a few thousand). */
const MAX_OFFERED = 10_000;
/** Prompts whose context is kept for a take-back (they wait in a queue of a few at most). */
const MAX_SENT_CONTEXT = 100;

export class WebviewModel {
  private readonly seen: SeenIndex;
  /** One per open tab: a tab is open exactly while it has a conversation here. */
  private readonly conversations: Map<TabId, Conversation>;
  private readonly drafts: Map<TabId, string>;
  /** What the `@` menu offers (the same for every tab; sent again on every webview-ready). */
  private contextMenu: ContextRef[] | undefined;
  /**
   * Every entry the menu offered lately, by key, newest last: a mention a typed query found stays
   * choosable when the query changes (typing on after picking it ends the query, and the menu then
   * no longer lists it), so a chosen entry is never dropped on send.
   */
  private readonly offered = new Map<string, ContextRef>();
  /** The context recent prompts were sent with, by message ID (see takeBackQueued). */
  private readonly sentContext = new Map<MessageId, ContextRef[]>();

  /** `saved.conversations` names the open tabs; indices and drafts of other tabs are dropped. */
  constructor(saved?: ModelState) {
    this.conversations = new Map(Object.entries(saved?.conversations ?? {}));
    const open = <T>(r: Record<TabId, T> | undefined): Record<TabId, T> =>
      Object.fromEntries(Object.entries(r ?? {}).filter(([tabId]) => this.conversations.has(tabId)));
    this.seen = new SeenIndex(open(saved?.lastSeenIndex));
    this.drafts = new Map(Object.entries(open(saved?.drafts)));
  }

  // ---- tabs -----------------------------------------------------------------------------------

  hasTab(tabId: TabId): boolean {
    return this.conversations.has(tabId);
  }
  tabIds(): TabId[] {
    return [...this.conversations.keys()];
  }

  /** A tab opened (by the user, or for the host). Keeps an existing conversation (a resync's). */
  addTab(tabId: TabId): void {
    if (!this.conversations.has(tabId)) this.conversations.set(tabId, emptyConversation());
  }

  /** Forgets everything about a closed tab, its seen index included (the host forgets it too). */
  closeTab(tabId: TabId): void {
    this.conversations.delete(tabId);
    this.drafts.delete(tabId);
    this.seen.forget(tabId);
  }

  /** The open tab's conversation (an empty, unsaved one for a tab that is not open). */
  conversation(tabId: TabId): Conversation {
    return this.conversations.get(tabId) ?? emptyConversation();
  }

  draft(tabId: TabId): string {
    return this.drafts.get(tabId) ?? '';
  }
  /**
   * The queued prompts were taken back into the input (the host's next `prompt-queue` agrees): the
   * attachments they were sent with are attached to the tab again, for the prompt that follows.
   */
  takeBackQueued(tabId: TabId): void {
    const conv = this.conversations.get(tabId);
    if (!conv) return;
    const refs = (conv.queued ?? []).flatMap((q) => this.sentContext.get(q.messageId) ?? []);
    attach(conv, refs);
    delete conv.queued;
  }

  setDraft(tabId: TabId, text: string): void {
    if (this.conversations.has(tabId)) this.drafts.set(tabId, text);
  }

  get contextItems(): ContextRef[] | undefined {
    return this.contextMenu;
  }

  /** What the `@` menu offers now or offered lately (what a chosen entry is looked up in). */
  get offeredContext(): ContextRef[] {
    return [...this.offered.values()];
  }

  /** The context a prompt carries: what was attached to the tab, then what was chosen in the `@` menu. */
  promptContext(tabId: TabId, chosen: ContextRef[]): ContextRef[] {
    return [...(this.conversations.get(tabId)?.attached ?? []), ...chosen];
  }

  /**
   * A prompt went to the host: the tab's draft and attachments are used up. The prompt is not added
   * to the conversation here: the host echoes it (`prompt-started`) at once when the tab is idle,
   * or when it starts if it waits behind another one.
   */
  promptSent(tabId: TabId, messageId?: MessageId, context: ContextRef[] = []): void {
    const conv = this.conversations.get(tabId);
    if (!conv) return;
    conv.attached = [];
    this.drafts.set(tabId, '');
    if (messageId === undefined || context.length === 0) return;
    // Kept a while (in memory) so that a prompt taken back from the queue gets its attachments back.
    this.sentContext.set(messageId, context);
    for (const oldest of this.sentContext.keys()) {
      if (this.sentContext.size <= MAX_SENT_CONTEXT) break;
      this.sentContext.delete(oldest);
    }
  }

  // ---- host messages --------------------------------------------------------------------------

  receive(m: HostToWebview): ModelChange {
    if (m.type === 'context-items') {
      // Global, not part of a tab's sequence.
      this.contextMenu = m.items;
      for (const r of m.items) {
        this.offered.delete(contextKey(r));
        this.offered.set(contextKey(r), r);
      }
      for (const key of this.offered.keys()) {
        if (this.offered.size <= MAX_OFFERED) break;
        this.offered.delete(key);
      }
      return { kind: 'context-items' };
    }
    // Only open-tab and resync open a tab; the rest for a tab that is not open (closed here, the
    // host not yet told) is dropped without recording its index, so a closed tab leaves nothing.
    const opens = m.type === 'open-tab' || m.type === 'resync';
    if (!opens && m.type !== 'query-rendered' && !this.hasTab(m.tabId)) return NONE;
    // Message protocol: replays after hide/show or re-creation repeat messages; apply each index once.
    if (!this.seen.accept(m.tabId, m.index)) return NONE;
    switch (m.type) {
      case 'open-tab':
        // Already open: nothing to draw, but the index is new and will be saved.
        if (this.hasTab(m.tabId)) return { kind: 'changed', tabId: m.tabId, blockIds: [] };
        this.addTab(m.tabId);
        return { kind: 'open-tab', tabId: m.tabId, title: m.title };
      case 'resync': {
        const conv = emptyConversation();
        for (const e of m.entries) applyEntry(conv, e);
        setQueued(conv, m.queued);
        this.conversations.set(m.tabId, conv);
        return { kind: 'rebuilt', tabId: m.tabId, title: m.title };
      }
      case 'query-rendered':
        if (!this.hasTab(m.tabId)) this.seen.forget(m.tabId);
        return { kind: 'query-rendered', tabId: m.tabId, requestId: m.requestId };
      case 'attach-context': {
        attach(this.conversation(m.tabId), [m.item]);
        return { kind: 'changed', tabId: m.tabId, blockIds: [] };
      }
      case 'prompt-queue': {
        setQueued(this.conversation(m.tabId), m.waiting);
        return { kind: 'changed', tabId: m.tabId, blockIds: [] };
      }
      default: {
        const { tabId, index: _index, ...entry } = m;
        return { kind: 'changed', tabId, blockIds: applyEntry(this.conversation(tabId), entry) };
      }
    }
  }

  /** What to save: every open tab's conversation, draft and seen index. */
  toState(): ModelState {
    return {
      lastSeenIndex: this.seen.toJSON(),
      drafts: Object.fromEntries(this.drafts),
      conversations: Object.fromEntries(this.conversations),
    };
  }

  /** The seen indices alone (webview-ready, ack). */
  lastSeenIndex(): Record<TabId, number> {
    return this.seen.toJSON();
  }
}
