// ACP session/request_permission → an approval card: what the tool wants to do (title, kind,
// parameters, merged with what its tool card already knows), the agent's own options, and
// "Bypass Permissions". Once decided, the card shows the decision instead of its buttons. Pure.
import type { ChatItem, ChatItemButton } from '@aws/mynah-ui';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { MAX_FEEDBACK_CHARS, type PermissionDecision } from '../../src/protocol/webview';
import type { PermissionCard } from '../../src/protocol/conversation';
import { fenced } from '../../src/protocol/markdown';
import { escapeInline, prettyJson } from './markdown';
import { kindLabel, type ToolCallState } from './toolCall';
import { waitingCard } from './waitingCard';

/** Button ids: `perm:<requestId>:<option index>` or `perm:<requestId>:bypass`. */
export const PERMISSION_PREFIX = 'perm:';
export const BYPASS = 'bypass';
/** The card's text field whose words go to the agent with a reject option. */
export const FEEDBACK_FIELD = 'feedback';

const OPTION_STATUS: Record<PermissionOption['kind'], ChatItemButton['status']> = {
  allow_once: 'primary',
  allow_always: 'main',
  reject_once: 'clear',
  reject_always: 'dimmed-clear',
};

export function parsePermissionButton(id: string): { requestId: string; choice: number | 'bypass' } | undefined {
  if (!id.startsWith(PERMISSION_PREFIX)) return undefined;
  const rest = id.slice(PERMISSION_PREFIX.length);
  const cut = rest.lastIndexOf(':');
  if (cut <= 0) return undefined;
  const requestId = rest.slice(0, cut);
  const choice = rest.slice(cut + 1);
  if (choice === BYPASS) return { requestId, choice: 'bypass' };
  const n = Number(choice);
  return Number.isSafeInteger(n) && n >= 0 ? { requestId, choice: n } : undefined;
}

export function describeDecision(d: PermissionDecision): string {
  if (d.outcome === 'cancelled') return `Cancelled: ${d.reason}.`;
  const allowed = d.optionKind.startsWith('allow');
  const by =
    d.by === 'user' ? 'by you' : d.by === 'bypass' ? 'automatically (Bypass Permissions)' : 'automatically (auto-approved tool kind)';
  const said = d.feedback
    ? d.feedback.delivery === 'steered'
      ? ` Your feedback went to the agent as your next message in this turn: "${d.feedback.text}".`
      : ` The agent does not take messages during a turn: your feedback goes before your next prompt: "${d.feedback.text}".`
    : '';
  return `${allowed ? 'Allowed' : 'Rejected'}: ${d.optionName}, ${by}.${said}`;
}

/** `known` is the tool card's state for the same toolCallId, if the agent sent one first. */
export function permissionToChatItem(card: PermissionCard, itemId: string, known?: ToolCallState): ChatItem {
  const tc = {
    ...known,
    ...Object.fromEntries(Object.entries(card.toolCall).filter(([, v]) => v !== undefined && v !== null)),
  } as ToolCallState;
  const lines = [`**${kindLabel(tc.kind)}** requested by the agent.`];
  for (const l of tc.locations ?? []) lines.push(`- \`${l.path}${l.line ? `:${l.line}` : ''}\``);
  if (tc.rawInput !== undefined && tc.rawInput !== null) lines.push('', 'Parameters:', fenced(prettyJson(tc.rawInput), 'json'));
  const d = card.decision;
  if (d) lines.push('', `_${escapeInline(describeDecision(d))}_`);
  const allowed = d?.outcome === 'selected' && d.optionKind.startsWith('allow');
  const item = waitingCard({
    messageId: itemId,
    title: `${d ? 'Permission' : 'Permission needed'}: ${escapeInline(tc.title ?? 'a tool call')}`,
    waitingIcon: 'warning',
    body: lines.join('\n'),
    settled: d
      ? { tone: allowed ? 'success' : 'error', text: allowed ? 'Allowed' : d.outcome === 'cancelled' ? 'Cancelled' : 'Rejected' }
      : undefined,
  });
  if (!d) {
    const buttons: ChatItemButton[] = card.options.map((o, i) => ({
      id: `${PERMISSION_PREFIX}${card.requestId}:${i}`,
      text: o.name,
      status: OPTION_STATUS[o.kind],
      keepCardAfterClick: true,
      icon: o.kind.startsWith('allow') ? 'ok' : 'cancel',
    }));
    // Words for the agent with a rejection ("use the test database instead"); the Reject buttons send them.
    if (card.options.some((o) => o.kind.startsWith('reject'))) {
      item.formItems = [
        {
          id: FEEDBACK_FIELD,
          type: 'textinput',
          title: 'Tell the agent why (optional, sent with Reject)',
          placeholder: 'e.g. use the test database instead',
          description: `At most ${MAX_FEEDBACK_CHARS} characters; never sent with an approval.`,
        },
      ];
    }
    if (card.options.some((o) => o.kind.startsWith('allow'))) {
      buttons.push({
        id: `${PERMISSION_PREFIX}${card.requestId}:${BYPASS}`,
        text: 'Bypass Permissions',
        status: 'dimmed-clear',
        keepCardAfterClick: true,
        description: 'Allow this and every later request of this agent without asking (saved in your settings)',
      });
    }
    item.buttons = buttons.reverse(); // mynah v4 renders buttons in reverse order
  }
  return item;
}
