// The frame of a card that waits for the user (an approval, a form, a link to open): "Waiting for
// you" until it is settled, then its outcome, with no buttons or form fields left. Pure.
import type { ChatItem, MynahIcons } from '@aws/mynah-ui';

export interface Settled {
  /** Green with a tick (allowed, submitted), grey (declined, cancelled) or red with a cross (rejected). */
  tone: 'success' | 'info' | 'error';
  text: string;
}

export function waitingCard(o: {
  messageId: string;
  title: string;
  waitingIcon: MynahIcons | `${MynahIcons}`;
  body: string;
  settled?: Settled;
}): ChatItem {
  const { settled } = o;
  return {
    type: 'answer' as ChatItem['type'],
    messageId: o.messageId,
    header: {
      icon: settled ? (settled.tone === 'success' ? 'ok-circled' : 'cancel-circle') : o.waitingIcon,
      body: o.title,
      status: settled
        ? { status: settled.tone, text: settled.text, position: 'right' }
        : { status: 'warning', text: 'Waiting for you', position: 'right' },
    },
    body: o.body,
    status: settled ? undefined : 'warning',
    buttons: [],
    // null, not absent: an update of a settled card must drop the field it showed while waiting.
    formItems: null,
  };
}
