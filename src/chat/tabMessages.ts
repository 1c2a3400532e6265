// Message protocol, host → webview: every message for a chat tab goes through here, whoever sends
// it (the chat controller, the permission broker, terminals, commands). It knows which tabs are
// open (messages for other tabs are dropped), records each tab's conversation (transcript.ts, the
// source of resyncs), stamps every message with its per-tab index and delivers or buffers it while
// the webview is away (outbox.ts), and keeps the `@` menu's items for each webview that (re)loads.
// Created at activation before its senders, so none of them needs the controller. Pure.
import type { Log } from '../log/logEvent';
import {
  isConversationPayload,
  type ContextItems,
  type ContextRef,
  type ConversationEntry,
  type HostToWebview,
  type TabId,
  type TabPayload,
} from '../protocol/webview';
import { Emitter } from '../util/emitter';
import { Outbox, type OutboxLimits, type OutboxStats } from './outbox';
import { Transcript } from './transcript';

export class TabMessages {
  private readonly open = new Set<TabId>();
  private readonly transcript = new Transcript();
  private readonly outbox: Outbox;
  private post: ((m: HostToWebview) => void) | undefined;
  private contextItems: ContextItems | undefined;
  private readonly sent = new Emitter<TabPayload>();

  /** Every message accepted for an open tab, after it was queued (the test inspector reads these). */
  readonly onDidSend = this.sent.event;

  constructor(
    private readonly log: Log,
    limits?: OutboxLimits,
  ) {
    this.outbox = new Outbox(
      (m) => this.post?.(m),
      (tabId) => this.transcript.snapshot(tabId),
      limits,
    );
  }

  /** Where messages go while the webview is live (undefined: nowhere). */
  setPost(post: ((m: HostToWebview) => void) | undefined): void {
    this.post = post;
  }

  /** The webview is hidden, disposed or being created: buffer until its next `webview-ready`. */
  webviewUnavailable(reason: string): void {
    this.log.info('webview', 'unavailable; buffering', { reason });
    this.outbox.pause();
  }

  /** `webview-ready`: replay what it lacks (or resync), then the `@` menu; live from now on. */
  webviewReady(lastSeenIndex: Record<TabId, number>, openTabs: readonly TabId[]): void {
    this.outbox.ready(lastSeenIndex, openTabs);
    if (this.contextItems) this.post?.(this.contextItems);
  }

  /** The webview saved everything up to these indices. */
  ack(lastSeenIndex: Record<TabId, number>): void {
    this.outbox.ack(lastSeenIndex);
  }

  /** A tab opened: messages for it are accepted from now on. */
  openTab(tabId: TabId, title: string): void {
    this.open.add(tabId);
    this.transcript.open(tabId, title);
  }

  /** A tab closed: nothing more is sent for it, and its record is dropped. */
  closeTab(tabId: TabId): void {
    this.open.delete(tabId);
    this.outbox.forget(tabId);
    this.transcript.forget(tabId);
  }

  /**
   * Replaces what an open tab shows with `entries` (a past conversation from the history, or the
   * agent's replay of it): one `resync`, and the tab's record for later resyncs.
   */
  restore(tabId: TabId, title: string, entries: ConversationEntry[]): void {
    if (!this.open.has(tabId)) return;
    this.transcript.replace(tabId, title, entries);
    const snapshot = this.transcript.snapshot(tabId);
    if (snapshot) this.outbox.push({ ...snapshot, tabId });
  }

  isOpen(tabId: TabId): boolean {
    return this.open.has(tabId);
  }

  /** Sends to an open tab (others are dropped): recorded, indexed, delivered or buffered. */
  send(payload: TabPayload): void {
    if (!this.open.has(payload.tabId)) return;
    if (isConversationPayload(payload)) this.transcript.record(payload);
    else if (payload.type === 'prompt-queue') this.transcript.setQueued(payload.tabId, payload.waiting);
    this.outbox.push(payload);
    this.sent.fire(payload);
  }

  /** The `@` menu for every tab: sent now if the webview is there, and on every webview-ready. */
  broadcastContext(items: ContextRef[]): void {
    this.contextItems = { type: 'context-items', items };
    this.post?.(this.contextItems);
  }

  stats(): OutboxStats {
    return this.outbox.stats();
  }

  /** Resolves once the messages sent so far have been posted (they leave at the end of the turn). */
  whenPosted(): Promise<void> {
    return this.outbox.whenPosted();
  }
}
