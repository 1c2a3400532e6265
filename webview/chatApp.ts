// The chat webview: builds mynah-ui (restoring saved tabs when the activation session ID matches),
// turns UI events into protocol messages, applies host messages exactly once (per-tab
// lastSeenIndex), and saves its state after every change so hide/show or re-creation loses
// nothing, drafts included.
import { MynahUI, type ChatPrompt, type MynahUIDataModel, type MynahUITabStoreModel } from '@aws/mynah-ui';
import type { ContextRef, ConversationEntry, HostToWebview, TabId } from '../src/protocol/webview';
import { applyEntry, blockId, emptyConversation, isBusy, type Conversation } from './conversation';
import { Host, isHostMessage } from './host';
import { blockToChatItems, conversationToChatItems, RESTART_BUTTON_ID } from './mappers/chatItems';
import { parsePermissionButton } from './mappers/permission';
import { pickerChanges, promptWithCommand, tabStoreFor } from './mappers/tabStore';
import { OPEN_DIFF_PREFIX } from './mappers/toolCall';
import { chosenContext, contextKey } from './mappers/contextMenu';
import { toolCallOf } from './toolCalls';
import { TabRenderer } from './renderer';
import { restoreState, SeenIndex, type PersistedState } from './state';
import { newUuid, TabIdMap } from './tabIds';

const TAB_DEFAULTS: MynahUIDataModel = {
  tabTitle: 'Chat',
  promptInputPlaceholder: 'Ask the agent… (Enter to send, Shift+Enter for a new line)',
  cancelButtonWhenLoading: true,
  showChatAvatars: false,
};

export class ChatApp {
  private readonly host = new Host();
  private ids = new TabIdMap();
  private seen = new SeenIndex();
  private drafts: Record<TabId, string> = {};
  private readonly conversations = new Map<TabId, Conversation>();
  private readonly renderers = new Map<TabId, TabRenderer>();
  private readonly storeShown = new Map<TabId, string>();
  private mynah!: MynahUI;
  /** Set while we create a tab for the host, so onTabAdd takes the host's tab ID. */
  private adopting: TabId | undefined;
  private persistTimer: ReturnType<typeof setTimeout> | undefined;
  private lastAck = '';
  private contextItems: ContextRef[] | undefined;

  constructor(private readonly sessionId: string, private readonly testMode: boolean) {}

  start(): void {
    const saved = restoreState(this.host.getState(), this.sessionId);
    if (!saved) this.host.setState(undefined);
    const tabs = saved ? this.restoredTabs(saved) : this.freshTabs();
    this.mynah = new MynahUI({
      rootSelector: '#mynah-root',
      config: {
        // Tests open many tabs in one window; people rarely want more than 20.
        test: this.testMode, maxTabs: this.testMode ? 100 : 20, texts: { mainTitle: 'Symposium', stopGenerating: 'Stop' },
        // Only Copy: inserting into the editor is not wired up (yet).
        codeBlockActions: { 'insert-to-cursor': null },
      },
      defaults: { store: TAB_DEFAULTS },
      tabs,
      onTabAdd: (mid) => this.onTabAdd(mid),
      onTabRemove: (mid) => this.onTabRemove(mid),
      // The selected tab is part of the saved tabs.
      onTabChange: () => this.schedulePersist(),
      onChatPrompt: (mid, prompt) => this.onChatPrompt(mid, prompt),
      onStopChatResponse: (mid) => this.withTab(mid, (tabId) => this.host.post({ type: 'cancel', tabId })),
      onInBodyButtonClicked: (mid, messageId, action) => this.withTab(mid, (tabId) => this.onButton(tabId, messageId, action.id)),
      onFileClick: (mid, filePath, _deleted, messageId, _eventId, details) => this.withTab(mid, (tabId) => this.onFileClick(tabId, filePath, messageId, details?.data)),
      onPromptInputOptionChange: (mid, values) => this.withTab(mid, (tabId) => {
        for (const m of pickerChanges(tabId, this.conversation(tabId).controls, values)) this.host.post(m);
      }),
    });
    for (const tabId of this.ids.tabIds()) {
      const r = this.rendererFor(tabId);
      r?.adopt(conversationToChatItems(this.conversation(tabId)));
    }
    window.addEventListener('message', (e: MessageEvent<unknown>) => this.onHostMessage(e.data));
    // Drafts: mynah's prompt input is a contenteditable div inside the tab's wrapper.
    document.addEventListener('input', (e) => this.onInput(e), true);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.sendReady();
      else this.persistNow();
    });
    window.addEventListener('error', (e) => this.host.log('error', `webview error: ${e.message}`));
    window.addEventListener('unhandledrejection', (e) => this.host.log('error', `webview unhandled rejection: ${String(e.reason)}`));
    this.persistNow();
    this.sendReady();
  }

  // ---- startup ------------------------------------------------------------------------------

  private freshTabs(): MynahUITabStoreModel {
    const tabId = newUuid();
    this.ids.set(tabId, tabId);
    this.conversations.set(tabId, emptyConversation());
    return { [tabId]: { isSelected: true, store: { ...TAB_DEFAULTS, ...tabStoreFor(emptyConversation()) } } };
  }

  private restoredTabs(saved: PersistedState): MynahUITabStoreModel {
    this.ids = new TabIdMap(saved.tabIds);
    this.seen = new SeenIndex(saved.lastSeenIndex);
    this.drafts = { ...saved.drafts };
    const tabs: MynahUITabStoreModel = {};
    for (const [mid, tab] of Object.entries(saved.tabs)) {
      const tabId = this.ids.tabId(mid);
      if (!tabId) continue;
      const conv = saved.conversations[tabId] ?? emptyConversation();
      this.conversations.set(tabId, conv);
      tabs[mid] = { ...tab, store: { ...tab.store, chatItems: conversationToChatItems(conv), ...tabStoreFor(conv), promptInputText: this.drafts[tabId] ?? '' } };
    }
    return tabs;
  }

  private sendReady(): void {
    this.host.post({ type: 'webview-ready', lastSeenIndex: this.seen.toJSON(), openTabs: this.ids.tabIds() });
  }

  // ---- UI events ----------------------------------------------------------------------------

  private onTabAdd(mid: string): void {
    if (this.ids.tabId(mid)) return;
    const tabId = this.adopting ?? newUuid();
    this.ids.set(mid, tabId);
    this.conversations.set(tabId, emptyConversation());
    this.renderers.delete(tabId);
    if (!this.adopting) {
      this.host.post({ type: 'new-tab', tabId });
      this.mynah.updateStore(mid, { tabTitle: `Chat ${Object.keys(this.mynah.getAllTabs()).length}` });
    }
    this.updateTabStore(tabId);
    this.schedulePersist();
  }

  private onTabRemove(mid: string): void {
    const tabId = this.ids.deleteMynah(mid);
    if (!tabId) return;
    this.conversations.delete(tabId);
    this.renderers.delete(tabId);
    this.storeShown.delete(tabId);
    delete this.drafts[tabId];
    this.host.post({ type: 'close-tab', tabId });
    this.persistNow();
  }

  private onButton(tabId: TabId, messageId: string | undefined, id: string): void {
    if (id === RESTART_BUTTON_ID) { this.host.post({ type: 'restart-agent', tabId }); return; }
    const perm = parsePermissionButton(id);
    if (perm) {
      const card = this.conversation(tabId).blocks.flatMap((b) => (b.kind === 'turn' ? b.permissions : [])).find((p) => p.requestId === perm.requestId);
      if (!card) return;
      if (perm.choice === 'bypass') { this.host.post({ type: 'permission-answer', tabId, requestId: perm.requestId, bypass: true }); return; }
      const option = card.options[perm.choice];
      if (option) this.host.post({ type: 'permission-answer', tabId, requestId: perm.requestId, optionId: option.optionId });
      return;
    }
    if (id.startsWith(OPEN_DIFF_PREFIX) && messageId) {
      const tool = toolCallOf(this.conversation(tabId), messageId);
      const item = tool?.content?.[Number(id.slice(OPEN_DIFF_PREFIX.length))];
      if (tool && item?.type === 'diff') this.host.post({ type: 'open-diff', tabId, toolCallId: tool.toolCallId, path: item.path });
      // "Open diff" can be used again and again.
      this.rendererFor(tabId)?.reenableButtons(messageId);
    }
  }

  private onFileClick(tabId: TabId, filePath: string, messageId: string | undefined, data: Record<string, string> | undefined): void {
    const tool = messageId ? toolCallOf(this.conversation(tabId), messageId) : undefined;
    if (data?.action === 'diff' && tool) { this.host.post({ type: 'open-diff', tabId, toolCallId: tool.toolCallId, path: filePath }); return; }
    const line = Number(data?.line);
    this.host.post({ type: 'open-location', tabId, path: filePath, ...(Number.isSafeInteger(line) && line > 0 ? { line } : {}) });
  }

  private onChatPrompt(mid: string, prompt: ChatPrompt): void {
    const tabId = this.ids.tabId(mid);
    const text = promptWithCommand(prompt.command, prompt.prompt ?? '');
    const conv = tabId ? this.conversation(tabId) : undefined;
    const context = [...(conv?.attached ?? []), ...chosenContext(this.contextItems, prompt.context)];
    if (!tabId || (text.trim() === '' && context.length === 0)) return;
    const messageId = newUuid();
    if (conv) conv.attached = [];
    // Shown at once when the tab is idle; a prompt sent while an answer streams is queued by the
    // host and shown when it starts (its prompt-started), below the answer it waited for.
    const attachments = context.map((r) => r.name);
    if (!isBusy(this.conversation(tabId))) this.apply(tabId, { type: 'prompt-started', messageId, text, ...(attachments.length ? { attachments } : {}) });
    this.drafts[tabId] = '';
    this.host.post({ type: 'prompt', tabId, messageId, text, ...(context.length ? { context } : {}) });
    this.persistNow();
  }

  private onInput(e: Event): void {
    const target = e.target;
    if (!(target instanceof HTMLElement) || !target.classList.contains('mynah-chat-prompt-input')) return;
    const mid = target.closest('[mynah-tab-id]')?.getAttribute('mynah-tab-id');
    const tabId = mid ? this.ids.tabId(mid) : undefined;
    if (!tabId) return;
    this.drafts[tabId] = target.innerText;
    // Saved at once: the page can be torn down any moment after the keystroke.
    this.persistNow();
  }

  private withTab(mid: string, f: (tabId: TabId) => void): void {
    const tabId = this.ids.tabId(mid);
    if (tabId) f(tabId);
  }

  // ---- host messages ------------------------------------------------------------------------

  private onHostMessage(data: unknown): void {
    if (!isHostMessage(data)) {
      this.host.log('warn', `webview: ignored a malformed host message: ${JSON.stringify(data)?.slice(0, 200)}`);
      return;
    }
    if (data.type === 'context-items') {
      // Global, not part of a tab's sequence: every tab's `@` menu.
      this.contextItems = data.items;
      for (const tabId of this.ids.tabIds()) this.updateTabStore(tabId);
      return;
    }
    // Replays after hide/show or re-creation repeat messages: apply each index once.
    if (!this.seen.accept(data.tabId, data.index)) return;
    try {
      this.dispatch(data);
    } catch (e) {
      this.host.log('error', `webview: failed to apply ${data.type}: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    }
    this.schedulePersist();
  }

  private dispatch(m: Exclude<HostToWebview, { type: 'context-items' }>): void {
    switch (m.type) {
      case 'open-tab':
        this.ensureTab(m.tabId, m.title);
        return;
      case 'resync':
        this.resync(m.tabId, m.title, m.entries);
        return;
      case 'attach-context': {
        if (!this.ids.mynahId(m.tabId)) return;
        const conv = this.conversation(m.tabId);
        conv.attached = [...(conv.attached ?? []).filter((r) => contextKey(r) !== contextKey(m.item)), m.item];
        this.updateTabStore(m.tabId);
        return;
      }
      case 'query-rendered':
        this.host.post({ type: 'rendered', tabId: m.tabId, requestId: m.requestId, items: [...(this.renderers.get(m.tabId)?.items() ?? []), this.tabStoreItem(m.tabId)] });
        return;
      default: {
        if (!this.ids.mynahId(m.tabId)) return; // closed here; the host will stop sending
        const { tabId, index: _index, ...entry } = m;
        this.apply(tabId, entry);
      }
    }
  }

  /** Applies one conversation message and redraws what it changed. */
  private apply(tabId: TabId, entry: ConversationEntry): void {
    const conv = this.conversation(tabId);
    const changed = new Set(applyEntry(conv, entry));
    const renderer = this.rendererFor(tabId);
    if (renderer && changed.size > 0) {
      for (const b of conv.blocks) if (changed.has(blockId(b))) renderer.render(blockToChatItems(b, conv));
    }
    this.updateTabStore(tabId);
  }

  /** Rebuilds a tab from the host's record of it (after the host had to drop buffered messages). */
  private resync(tabId: TabId, title: string, entries: ConversationEntry[]): void {
    this.ensureTab(tabId, title);
    const conv = emptyConversation();
    this.conversations.set(tabId, conv);
    for (const e of entries) applyEntry(conv, e);
    const renderer = this.rendererFor(tabId);
    renderer?.clear();
    renderer?.render(conversationToChatItems(conv));
    this.storeShown.delete(tabId);
    this.updateTabStore(tabId);
  }

  private ensureTab(tabId: TabId, title: string): void {
    if (this.ids.mynahId(tabId)) return;
    this.adopting = tabId;
    try {
      const mid = this.mynah.updateStore('', { ...TAB_DEFAULTS, tabTitle: title });
      if (!mid) this.host.log('warn', 'webview: cannot open another tab (limit reached)');
    } finally {
      this.adopting = undefined;
    }
  }

  /** The tab's own UI state (slash commands, pickers) as one pseudo-item, for the host's test query. */
  private tabStoreItem(tabId: TabId): { type: string; messageId: string; body: string } {
    const mid = this.ids.mynahId(tabId);
    const store = mid ? this.mynah.getTabData(mid)?.getStore() : undefined;
    const body = {
      commands: (store?.quickActionCommands ?? []).flatMap((g) => g.commands.map((c) => c.command)),
      pickers: (store?.promptInputOptions ?? []).map((p) => ({ id: p.id, value: p.value, options: 'options' in p ? (p.options ?? []).map((o) => o.value) : [] })),
      info: store?.promptInputInfo ?? '',
      attached: (this.conversation(tabId).attached ?? []).map((r) => r.name),
      contextGroups: (store?.contextCommands ?? []).flatMap((g) => g.commands.map((c) => c.command)),
    };
    return { type: 'tab-store', messageId: 'tab-store', body: JSON.stringify(body) };
  }

  private conversation(tabId: TabId): Conversation {
    let c = this.conversations.get(tabId);
    if (!c) this.conversations.set(tabId, (c = emptyConversation()));
    return c;
  }

  private rendererFor(tabId: TabId): TabRenderer | undefined {
    let r = this.renderers.get(tabId);
    const mid = this.ids.mynahId(tabId);
    if (!r && mid) this.renderers.set(tabId, (r = new TabRenderer(this.mynah, mid)));
    return r;
  }

  private updateTabStore(tabId: TabId): void {
    const mid = this.ids.mynahId(tabId);
    if (!mid) return;
    const store = tabStoreFor(this.conversation(tabId), this.contextItems);
    const json = JSON.stringify(store);
    if (this.storeShown.get(tabId) === json) return;
    this.storeShown.set(tabId, json);
    this.mynah.updateStore(mid, store);
  }

  // ---- persistence ----------------------------------------------------------------------------

  private schedulePersist(): void {
    this.persistTimer ??= setTimeout(() => {
      this.persistTimer = undefined;
      this.persistNow();
    }, 50);
  }

  /**
   * Saves a consistent snapshot (tabs, conversations and lastSeenIndex of the same moment), then
   * tells the host which indices are saved, so it can forget those messages.
   */
  private persistNow(): void {
    if (this.persistTimer) { clearTimeout(this.persistTimer); this.persistTimer = undefined; }
    const all = this.mynah.getAllTabs();
    const tabs: MynahUITabStoreModel = {};
    const conversations: Record<TabId, Conversation> = {};
    for (const [mid, tab] of Object.entries(all)) {
      const tabId = this.ids.tabId(mid);
      if (!tabId) continue;
      const conv = this.conversation(tabId);
      conversations[tabId] = conv;
      // The @ menu is not saved: the host sends it again on every webview-ready.
      tabs[mid] = { ...tab, store: { ...tab.store, chatItems: conversationToChatItems(conv), promptInputText: this.drafts[tabId] ?? '', contextCommands: [] } };
    }
    const lastSeenIndex = this.seen.toJSON();
    const state: PersistedState = { v: 1, sessionId: this.sessionId, tabs, tabIds: this.ids.toJSON(), lastSeenIndex, drafts: { ...this.drafts }, conversations };
    try {
      // getAllTabs() is plain data; round-trip through JSON so nothing uncloneable slips in.
      this.host.setState(JSON.parse(JSON.stringify(state)));
    } catch (e) {
      this.host.log('error', `webview: could not save state: ${String(e)}`);
      return;
    }
    const ack = JSON.stringify(lastSeenIndex);
    if (ack !== this.lastAck) {
      this.lastAck = ack;
      this.host.post({ type: 'ack', lastSeenIndex });
    }
  }
}
