// Puts ChatItems on screen through mynah-ui: adds a card the first time its messageId appears and
// updates it afterwards (mynah wants the whole body every time; it does not append). Remembers
// what each card last showed, so unchanged cards are left alone.
import type { ChatItem, MynahUI } from '@aws/mynah-ui';
import type { RenderedItem } from '../src/protocol/webview';
import { ItemType } from './mappers/chatItems';

export class TabRenderer {
  private readonly shown = new Map<string, { json: string; item: ChatItem }>();

  constructor(
    private readonly mynah: MynahUI,
    private readonly mynahTabId: string,
  ) {}

  /** Records items mynah already shows (restored from saved tabs) without touching the screen. */
  adopt(items: ChatItem[]): void {
    for (const item of items) if (item.messageId) this.shown.set(item.messageId, { json: JSON.stringify(item), item });
  }

  render(items: ChatItem[]): void {
    for (const item of items) {
      const id = item.messageId;
      if (!id) continue;
      const json = JSON.stringify(item);
      const prev = this.shown.get(id);
      if (prev?.json === json) continue;
      if (!prev) {
        this.mynah.addChatItem(this.mynahTabId, item);
      } else if (prev.item.type === ItemType.ANSWER_STREAM && item.type !== ItemType.ANSWER_STREAM) {
        this.mynah.updateChatAnswerWithMessageId(this.mynahTabId, id, item);
        this.mynah.endMessageStream(this.mynahTabId, id, {});
      } else {
        this.mynah.updateChatAnswerWithMessageId(this.mynahTabId, id, item);
      }
      this.shown.set(id, { json, item });
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
