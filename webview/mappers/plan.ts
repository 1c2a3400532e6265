// ACP `plan` updates → one checklist card per turn, replaced in place as entries progress. Pure.
import type { ChatItem } from '@aws/mynah-ui';
import type { PlanEntry } from '@agentclientprotocol/sdk';
import { escapeInline } from './markdown';

const MARK: Record<PlanEntry['status'], string> = { pending: '☐', in_progress: '◐', completed: '☑' };

export function planToChatItem(entries: PlanEntry[], itemId: string): ChatItem {
  const done = entries.filter((e) => e.status === 'completed').length;
  const body = entries
    .map((e) => {
      const text = escapeInline(e.content);
      return `${MARK[e.status]} ${e.status === 'completed' ? `~~${text}~~` : e.status === 'in_progress' ? `**${text}**` : text}`;
    })
    .join('  \n');
  return {
    type: 'answer' as ChatItem['type'],
    messageId: itemId,
    header: {
      icon: 'check-list',
      body: '**Plan**',
      status: { status: done === entries.length ? 'success' : 'info', text: `${done}/${entries.length} done`, position: 'right' },
    },
    body: body || '_The plan is empty._',
  };
}
