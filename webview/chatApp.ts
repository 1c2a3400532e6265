// The chat webview's mynah-ui wiring: builds mynah-ui (restoring saved tabs when the activation
// session ID matches), turns UI events into protocol messages, hands host messages to the model
// (model.ts: applied once per index) and puts what they changed on screen, and saves its state
// soon after every change so hide/show or re-creation loses nothing, drafts included (stateSaver.ts).
// The pure parts live beside it: model.ts, mappers/, mynahConfig.ts, cardActions.ts (what a click sends),
// imagePaste.ts, openContextMenu.ts and pageLifecycle.ts.
import { MynahUI, type ChatPrompt } from '@aws/mynah-ui';
import type { RenderedItem, TabId } from '../src/protocol/webview';
import { blockId, isBusy } from '../src/protocol/conversation';
import { realTimers, type Timers } from './delayedCall';
import { Host, isHostMessage } from './host';
import { listenForImages } from './imagePaste';
import { listenToPage } from './pageLifecycle';
import { buttonAction, fileClickAction, linkClickAction } from './cardActions';
import { changesFileAction } from './mappers/changes';
import { blockToChatItems, conversationToChatItems } from './mappers/chatItems';
import {
  EXPORT_CONVERSATION_BUTTON_ID,
  pickedCommand,
  pickerChanges,
  promptWithCommand,
  tabStoreFor,
  tabStoreItem,
} from './mappers/tabStore';
import { chosenContext } from './mappers/contextMenu';
import { forMynahSafe } from './mappers/untrusted';
import { WebviewModel, type ModelChange } from './model';
import { mynahConfig, TAB_DEFAULTS } from './mynahConfig';
import { OpenContextMenus } from './openContextMenu';
import { TabRenderer } from './renderer';
import { startupTabs } from './startupTabs';
import { liveMynahTabs, persistedState } from './state';
import { StateSaver } from './stateSaver';
import { newUuid, TabIdMap } from './tabIds';

export interface ChatAppOptions {
  /** The page's channel to the extension (default: acquireVsCodeApi()). */
  host?: Host;
  timers?: Timers;
  /** Images pasted or dropped larger than this go without their bytes (the host refuses them). */
  maxImageBytes?: number;
}

export class ChatApp {
  private readonly host: Host;
  private ids = new TabIdMap();
  private model = new WebviewModel();
  private readonly renderers = new Map<TabId, TabRenderer>();
  private readonly storeShown = new Map<TabId, string>();
  /** Tabs where "Edit and resend" put a prompt back into the input: the turn the next prompt resends. */
  private readonly resendOf = new Map<TabId, string>();
  private mynah!: MynahUI;
  /** Set while we create a tab for the host, so onTabAdd takes the host's tab ID. */
  private adopting: TabId | undefined;
  private readonly saver: StateSaver;
  /** The last `@` query sent to the host (OpenCtx mentions). */
  private lastContextQuery = '';
  /** Puts new `@` menu entries (a typed query's OpenCtx answers) into a menu that is open. */
  private readonly openMenus: OpenContextMenus;
  private readonly maxImageBytes: number;
  /** Tabs with a running turn, and since when (for "Working… 12 s"). */
  private readonly busySince = new Map<TabId, number>();
  /** Removes the page listeners on dispose. */
  private readonly listeners = new AbortController();
  private readonly timers: Timers;

  constructor(
    private readonly sessionId: string,
    private readonly testMode: boolean,
    options: ChatAppOptions = {},
  ) {
    this.host = options.host ?? new Host();
    this.maxImageBytes = options.maxImageBytes ?? 5 * 1024 * 1024;
    this.timers = options.timers ?? realTimers;
    this.saver = new StateSaver(
      this.host,
      () => {
        const ids = this.ids.toJSON();
        return persistedState(this.sessionId, this.model.toState(), liveMynahTabs(this.mynah, Object.keys(ids)), ids);
      },
      this.timers,
    );
    this.openMenus = new OpenContextMenus((message) => this.host.log('warn', message));
  }

  start(): void {
    const startup = startupTabs(this.host, this.sessionId);
    const { tabs } = startup;
    ({ ids: this.ids, model: this.model } = startup);
    this.mynah = new MynahUI({
      rootSelector: '#mynah-root',
      config: mynahConfig(this.testMode),
      defaults: { store: TAB_DEFAULTS },
      tabs,
      onTabAdd: (mid) => this.onTabAdd(mid),
      onTabRemove: (mid) => this.onTabRemove(mid),
      // The selected tab is part of the saved tabs.
      onTabChange: () => this.saver.soon(),
      onChatPrompt: (mid, prompt) => this.onChatPrompt(mid, prompt),
      onStopChatResponse: (mid) => this.withTab(mid, (tabId) => this.host.post({ type: 'cancel', tabId })),
      onInBodyButtonClicked: (mid, messageId, action) =>
        this.withTab(mid, (tabId) => this.onButton(tabId, messageId, action.id, action.formItemValues)),
      onLinkClick: (mid, _messageId, link, event) => this.onLinkClick(mid, link, event),
      onFileClick: (mid, filePath, _deleted, messageId, _eventId, details) =>
        this.withTab(mid, (tabId) => this.onFileClick(tabId, filePath, messageId, details?.data)),
      // Keep / Revert of a file in a "files changed" card.
      onFileActionClick: (mid, messageId, filePath, actionName) =>
        this.withTab(mid, (tabId) => {
          const post = changesFileAction(this.model.conversation(tabId), tabId, messageId, filePath, actionName);
          if (post) this.host.post(post);
        }),
      onTabBarButtonClick: (mid, buttonId) =>
        this.withTab(mid, (tabId) => {
          if (buttonId === EXPORT_CONVERSATION_BUTTON_ID) this.host.post({ type: 'export-conversation', tabId });
        }),
      onPromptInputOptionChange: (mid, values) =>
        this.withTab(mid, (tabId) => {
          for (const m of pickerChanges(tabId, this.model.conversation(tabId).controls, values)) this.host.post(m);
        }),
    });
    for (const tabId of this.ids.tabIds()) {
      const r = this.rendererFor(tabId);
      r?.adopt(conversationToChatItems(this.model.conversation(tabId)));
    }
    const { signal } = this.listeners;
    window.addEventListener('message', (e: MessageEvent<unknown>) => this.onHostMessage(e.data), { signal });
    // The running turns' elapsed time ticks once a second.
    const tick = setInterval(() => {
      for (const tabId of this.busySince.keys()) this.updateTabStore(tabId);
    }, 1000);
    signal.addEventListener('abort', () => clearInterval(tick));
    listenForImages({
      tabOf: (mid) => this.ids.tabId(mid),
      post: (m) => this.host.post(m),
      maxBytes: this.maxImageBytes,
      signal,
    });
    listenToPage(signal, {
      onInput: (e) => this.onInput(e),
      onVisible: () => this.sendReady(),
      onHidden: () => this.saver.now(),
      onBlur: () => this.saver.flushDraft(),
      onPageHide: () => this.saver.now(),
      log: (message) => this.host.log('error', message),
    });
    this.saver.now();
    this.sendReady();
  }

  /** Stops listening and takes mynah-ui down (a page hosts one app; tests build several in turn). */
  dispose(): void {
    this.listeners.abort();
    this.saver.cancel();
    for (const r of this.renderers.values()) r.dispose();
    this.mynah.destroy();
  }

  // ---- startup ------------------------------------------------------------------------------

  private sendReady(): void {
    this.host.post({ type: 'webview-ready', lastSeenIndex: this.model.lastSeenIndex(), openTabs: this.ids.tabIds() });
  }

  // ---- UI events ----------------------------------------------------------------------------

  private onTabAdd(mid: string): void {
    if (this.ids.tabId(mid)) return;
    const tabId = this.adopting ?? newUuid();
    this.ids.set(mid, tabId);
    this.model.addTab(tabId);
    this.dropRenderer(tabId);
    if (!this.adopting) {
      this.host.post({ type: 'new-tab', tabId });
      // Counted from our own map: mynah-ui's getAllTabs() deep-copies every chat item of every tab.
      this.mynah.updateStore(mid, { tabTitle: `Chat ${this.ids.tabIds().length}` });
    }
    this.updateTabStore(tabId);
    // Saved at once, as a closed tab is: a page re-created right after (the view hidden within
    // the save spacing) must come back with this tab, not have the host reopen it.
    this.saver.now();
  }

  private onTabRemove(mid: string): void {
    const tabId = this.ids.deleteMynah(mid);
    this.openMenus.forget(mid);
    if (!tabId) return;
    this.model.closeTab(tabId);
    this.dropRenderer(tabId);
    this.storeShown.delete(tabId);
    this.host.post({ type: 'close-tab', tabId });
    this.saver.now();
  }

  private onButton(tabId: TabId, messageId: string | undefined, id: string, form?: Record<string, string>): void {
    const action = buttonAction(this.model.conversation(tabId), tabId, messageId, id, form);
    if (action.post) this.host.post(action.post);
    if (action.reenable && messageId) this.rendererFor(tabId)?.reenableButtons(messageId);
    if (action.restoreInput !== undefined) this.restoreInput(tabId, action.restoreInput);
    if (action.editResend) {
      // The next prompt sent from this tab resends that turn (its files restored first, by the host).
      this.resendOf.set(tabId, action.editResend.messageId);
      this.model.setDraft(tabId, action.editResend.text);
      const mid = this.ids.mynahId(tabId);
      if (mid) this.mynah.updateStore(mid, { promptInputText: action.editResend.text });
      this.saver.now();
    }
  }

  /** Withdrawn queued prompts go back into the input, before what is typed there: nothing is lost. */
  private restoreInput(tabId: TabId, text: string): void {
    const input = [text, this.model.draft(tabId)].filter((t) => t.trim() !== '').join('\n\n');
    this.model.takeBackQueued(tabId);
    this.model.setDraft(tabId, input);
    const mid = this.ids.mynahId(tabId);
    if (mid) this.mynah.updateStore(mid, { promptInputText: input });
    this.updateTabStore(tabId);
    this.saver.now();
  }

  /** A link in an answer (`linkClickAction`): VS Code opens web links itself; files open through the host. */
  private onLinkClick(mid: string, link: string, event: MouseEvent | undefined): void {
    const tabId = this.ids.tabId(mid);
    const action = tabId ? linkClickAction(tabId, link) : ({ kind: 'blocked', scheme: 'unknown tab' } as const);
    if (action.kind === 'browser') return;
    // VS Code's webview follows links from a listener on the window, after this one: not this link.
    event?.preventDefault();
    event?.stopPropagation();
    if (action.kind === 'open') this.host.post(action.post);
    else this.host.log('warn', `webview: a link in the chat was not followed (${action.scheme}): ${link.slice(0, 200)}`);
  }

  private onFileClick(tabId: TabId, filePath: string, messageId: string | undefined, data: Record<string, string> | undefined): void {
    this.host.post(fileClickAction(this.model.conversation(tabId), tabId, filePath, messageId, data));
  }

  private onChatPrompt(mid: string, prompt: ChatPrompt): void {
    const tabId = this.ids.tabId(mid);
    if (!tabId) return;
    const text = promptWithCommand(pickedCommand(this.model.conversation(tabId), prompt.command), prompt.prompt ?? '');
    const context = this.model.promptContext(tabId, chosenContext(this.model.offeredContext, prompt.context));
    if (text.trim() === '' && context.length === 0) return;
    // Not shown here: the host's prompt-started echo (one source, replayed like everything else)
    // shows it, at once when the tab is idle, else when it starts, below the answer it waited for.
    const messageId = newUuid();
    this.model.promptSent(tabId, messageId, context);
    this.updateTabStore(tabId); // the attached pills go
    const resendOf = this.resendOf.get(tabId);
    this.resendOf.delete(tabId);
    this.host.post({ type: 'prompt', tabId, messageId, text, ...(context.length ? { context } : {}), ...(resendOf ? { resendOf } : {}) });
    this.saver.now();
  }

  private onInput(e: Event): void {
    const target = e.target;
    if (!(target instanceof HTMLElement) || !target.classList.contains('mynah-chat-prompt-input')) return;
    const mid = target.closest('[mynah-tab-id]')?.getAttribute('mynah-tab-id');
    const tabId = mid ? this.ids.tabId(mid) : undefined;
    if (!tabId) return;
    this.model.setDraft(tabId, target.innerText);
    // Saved once typing pauses; flushed when the page hides or loses focus (see start()).
    this.saver.draftChanged();
    // What follows an `@` goes to OpenCtx providers as a mentions query (the host debounces).
    const text = (target.innerText ?? target.textContent ?? '').replace(/\u00a0/g, ' ');
    const query = /(?:^|\s)@([^\s@]{0,200})$/.exec(text)?.[1] ?? '';
    if (query !== this.lastContextQuery) {
      this.lastContextQuery = query;
      this.host.post({ type: 'context-query', query });
    }
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
    let change: ModelChange | undefined;
    try {
      change = this.model.receive(data);
      this.show(change);
    } catch (e) {
      this.host.log('error', `webview: failed to apply ${data.type}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    // The @ menu is not saved, and a replayed message changed nothing.
    if (change?.kind !== 'none' && change?.kind !== 'context-items') this.saver.soon();
  }

  /** Puts what a host message changed in the model on screen. */
  /** Puts on screen the blocks of a tab a host message changed (the model has it all). */
  private draw(tabId: TabId, blockIds: ReadonlySet<string>): void {
    const conv = this.model.conversation(tabId);
    const renderer = this.rendererFor(tabId);
    if (renderer && blockIds.size > 0) {
      for (const b of conv.blocks) if (blockIds.has(blockId(b))) renderer.render(blockToChatItems(b, conv));
    }
    this.updateTabStore(tabId);
  }

  private show(change: ModelChange): void {
    switch (change.kind) {
      case 'none':
        return;
      case 'context-items':
        for (const tabId of this.ids.tabIds()) this.updateTabStore(tabId);
        return;
      case 'open-tab':
        this.ensureTab(change.tabId, change.title);
        return;
      case 'rebuilt': {
        // The host had to drop buffered messages (or the webview lost the tab): redraw all of it.
        if (!this.ensureTab(change.tabId, change.title)) return;
        const renderer = this.rendererFor(change.tabId);
        renderer?.clear();
        renderer?.render(conversationToChatItems(this.model.conversation(change.tabId)));
        this.storeShown.delete(change.tabId);
        this.updateTabStore(change.tabId);
        return;
      }
      case 'changed':
        // Drawn per host message (the host merges a burst of chunks into one); the renderer paces
        // streaming cards itself (docs/benchmarks.md).
        this.draw(change.tabId, new Set(change.blockIds));
        return;
      case 'query-rendered':
        this.host.post({
          type: 'rendered',
          tabId: change.tabId,
          requestId: change.requestId,
          items: [...(this.renderers.get(change.tabId)?.items() ?? []), this.tabStoreItemOf(change.tabId)],
        });
        return;
    }
  }

  /** Creates the mynah tab for a tab the host opened; false if mynah has no room for it. */
  private ensureTab(tabId: TabId, title: string): boolean {
    if (this.ids.mynahId(tabId)) return true;
    this.adopting = tabId;
    try {
      if (this.mynah.updateStore('', { ...TAB_DEFAULTS, tabTitle: title })) return true;
      this.host.log('warn', 'webview: cannot open another tab (limit reached)');
      this.model.closeTab(tabId);
      return false;
    } finally {
      this.adopting = undefined;
    }
  }

  private tabStoreItemOf(tabId: TabId): RenderedItem {
    const mid = this.ids.mynahId(tabId);
    const attached = (this.model.conversation(tabId).attached ?? []).map((r) => r.name);
    return tabStoreItem(mid ? this.mynah.getTabData(mid)?.getStore() : undefined, attached);
  }

  private rendererFor(tabId: TabId): TabRenderer | undefined {
    let r = this.renderers.get(tabId);
    const mid = this.ids.mynahId(tabId);
    if (!r && mid) this.renderers.set(tabId, (r = new TabRenderer(this.mynah, mid, this.timers)));
    return r;
  }

  /** The tab is gone: its renderer too, with any redraw it still had coming. */
  private dropRenderer(tabId: TabId): void {
    this.renderers.get(tabId)?.dispose();
    this.renderers.delete(tabId);
  }

  private updateTabStore(tabId: TabId): void {
    const mid = this.ids.mynahId(tabId);
    if (!mid) return;
    const conv = this.model.conversation(tabId);
    // Elapsed time of the running turn (from when this page first saw it running).
    if (!isBusy(conv)) this.busySince.delete(tabId);
    else if (!this.busySince.has(tabId)) this.busySince.set(tabId, Date.now());
    const since = this.busySince.get(tabId);
    const store = forMynahSafe(
      tabStoreFor(conv, this.model.contextItems, since === undefined ? undefined : Math.floor((Date.now() - since) / 1000)),
    );
    const json = JSON.stringify(store);
    if (this.storeShown.get(tabId) === json) return;
    this.storeShown.set(tabId, json);
    this.mynah.updateStore(mid, store);
    this.openMenus.updated(this.mynah, mid, store.contextCommands ?? []);
  }
}
