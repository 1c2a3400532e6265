// Puts ChatItems on screen through mynah-ui: adds a card the first time its messageId appears and
// updates it afterwards (mynah wants the whole body every time; it does not append). Remembers
// what each card last showed, so unchanged cards are left alone (compared in place: serializing a
// long answer on every update to compare it was most of a long stream's garbage).
import type { ChatItem, MynahUI } from '@aws/mynah-ui';
import type { RenderedItem } from '../src/protocol/webview';
import { realTimers, type Timers } from './delayedCall';
import { ItemType } from './mappers/chatItems';
import { forMynahSafe } from './mappers/untrusted';

/**
 * What mynah-ui is given: its markdown made safe (mappers/untrusted.ts), and a streaming answer as
 * a plain one. For a streaming answer mynah wraps every word in a span of its own, for its
 * typewriter animation (off here, chatApp.ts), and numbers them all again on every update: at
 * 10,000 words one drawing took over 60 ms. As a plain answer the same markdown is drawn without
 * them. The stream's end is then an ordinary update.
 */
export const forMynah = (item: ChatItem): ChatItem =>
  forMynahSafe(item.type === ItemType.ANSWER_STREAM ? { ...item, type: ItemType.ANSWER } : item);

/** A streaming card is redrawn at most this often (or less, see redrawStream); the latest text wins. */
const STREAM_REDRAW_MS = 100;

export class TabRenderer {
  private readonly shown = new Map<string, { item: ChatItem }>();
  /** Streaming cards with a newer body than mynah has, and when mynah was last given one. */
  private readonly redraws = new Map<string, { last: number; gap: number; timer?: unknown }>();

  constructor(
    private readonly mynah: MynahUI,
    private readonly mynahTabId: string,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Records items mynah already shows (restored from saved tabs) without touching the screen. */
  adopt(items: ChatItem[]): void {
    for (const item of items) if (item.messageId) this.shown.set(item.messageId, { item });
  }

  render(items: ChatItem[]): void {
    for (const item of items) {
      const id = item.messageId;
      if (!id) continue;
      const prev = this.shown.get(id);
      if (prev && sameValue(prev.item, item)) continue;
      if (prev && prev.item.type === ItemType.ANSWER_STREAM && item.type === ItemType.ANSWER_STREAM) {
        this.shown.set(id, { item });
        this.redrawStream(id);
        continue;
      }
      this.cancelRedraw(id);
      if (!prev) this.mynah.addChatItem(this.mynahTabId, forMynah(item));
      else this.mynah.updateChatAnswerWithMessageId(this.mynahTabId, id, forMynah(item));
      this.shown.set(id, { item });
    }
  }

  /**
   * A streaming card's new body, given to mynah at most every STREAM_REDRAW_MS (the latest one):
   * mynah re-renders the whole body on every update and queues the updates it is given, so a
   * fast stream handed over chunk by chunk would be drawn long after it ended.
   */
  private redrawStream(id: string): void {
    const r = this.redraws.get(id) ?? { last: -Infinity, gap: STREAM_REDRAW_MS };
    this.redraws.set(id, r);
    if (r.timer !== undefined) return;
    const wait = r.last + r.gap - performance.now();
    const apply = (): void => {
      r.timer = undefined;
      const started = performance.now();
      const item = this.shown.get(id)?.item;
      if (item) this.mynah.updateChatAnswerWithMessageId(this.mynahTabId, id, forMynah(item));
      // A long body takes mynah long to draw: leave the page three times that to take in the
      // stream, or drawing would crowd out the messages it draws and the stream would fall behind.
      r.last = performance.now();
      r.gap = Math.max(STREAM_REDRAW_MS, 3 * (r.last - started));
    };
    if (wait <= 0) apply();
    else r.timer = this.timers.setTimeout(apply, wait);
  }

  private cancelRedraw(id: string): void {
    const r = this.redraws.get(id);
    if (r?.timer !== undefined) this.timers.clearTimeout(r.timer);
    this.redraws.delete(id);
  }

  /** Shows a card's buttons again (mynah disables them after a click that keeps the card). */
  reenableButtons(messageId: string): void {
    const item = this.shown.get(messageId)?.item;
    if (item?.buttons) this.mynah.updateChatAnswerWithMessageId(this.mynahTabId, messageId, { buttons: item.buttons });
  }

  /** Drops the redraws still to come (the tab or the page is going away). */
  dispose(): void {
    for (const id of [...this.redraws.keys()]) this.cancelRedraw(id);
  }

  /** Empties the tab (before a resync redraws it). */
  clear(): void {
    this.dispose();
    this.shown.clear();
    this.mynah.updateStore(this.mynahTabId, { chatItems: [] });
  }

  /** What is on screen, for the host's test query. */
  items(): RenderedItem[] {
    return [...this.shown.entries()].map(([messageId, { item }]) => {
      const r: RenderedItem = { type: String(item.type), messageId, body: item.body ?? '' };
      const header = [item.header?.body, item.summary?.content?.body].filter(Boolean).join(' | ');
      if (header) r.header = header;
      const status = item.header?.status?.text ?? item.status;
      if (status) r.status = status;
      if (item.buttons?.length) r.buttons = [...item.buttons].reverse().map((b) => b.text ?? b.id); // shown order
      const details = (item.summary?.collapsedContent ?? []).map((c) => [c.header?.body, c.body].filter(Boolean).join('\n')).join('\n\n');
      if (details) r.details = details;
      if (item.fileList?.filePaths?.length) r.files = item.fileList.filePaths;
      return r;
    });
  }
}

/** Deep equality of JSON-like values (what a ChatItem holds), without serializing either. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
