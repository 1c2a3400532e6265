// Puts ChatItems on screen through mynah-ui: adds a card the first time its messageId appears and
// updates it afterwards (mynah wants the whole body every time; it does not append). Remembers
// what each card last showed, so unchanged cards are left alone (compared in place: serializing a
// long answer on every update to compare it was most of a long stream's garbage).
import type { ChatItem, MynahUI } from '@aws/mynah-ui';
import type { RenderedItem } from '../src/protocol/webview';
import { ItemType } from './mappers/chatItems';

export class TabRenderer {
  private readonly shown = new Map<string, { item: ChatItem }>();

  constructor(
    private readonly mynah: MynahUI,
    private readonly mynahTabId: string,
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
      if (!prev) {
        this.mynah.addChatItem(this.mynahTabId, item);
      } else if (prev.item.type === ItemType.ANSWER_STREAM && item.type !== ItemType.ANSWER_STREAM) {
        this.mynah.updateChatAnswerWithMessageId(this.mynahTabId, id, item);
        this.mynah.endMessageStream(this.mynahTabId, id, {});
      } else {
        this.mynah.updateChatAnswerWithMessageId(this.mynahTabId, id, item);
      }
      this.shown.set(id, { item });
    }
  }

  /** Shows a card's buttons again (mynah disables them after a click that keeps the card). */
  reenableButtons(messageId: string): void {
    const item = this.shown.get(messageId)?.item;
    if (item?.buttons) this.mynah.updateChatAnswerWithMessageId(this.mynahTabId, messageId, { buttons: item.buttons });
  }

  /** Empties the tab (before a resync redraws it). */
  clear(): void {
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
