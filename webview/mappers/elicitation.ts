// ACP elicitation/create → a card in the turn. A form: the agent's message, then one field per
// property of its schema (text, number, a switch for a boolean, a select for a choice, one switch
// per option for a multi-select), required ones marked, with their titles and descriptions; Submit,
// Decline and Cancel. A URL: the message, the address and its host, and a button that opens it
// (only when clicked; the host opens the URL it was given). Once answered, the card says how. Pure.
import type { ChatItem, ChatItemButton, ChatItemFormItem } from '@aws/mynah-ui';
import { choiceKey, elicitationOutcomeLabel, type ElicitationField } from '../../src/protocol/elicitation';
import type { ElicitationOutcome } from '../../src/protocol/webview';
import type { ElicitationCard } from '../../src/protocol/conversation';
import { escapeInline, escapeMarkdown } from './markdown';
import { safeLabel } from './untrusted';
import { waitingCard } from './waitingCard';

/** Button ids: `elicit:<requestId>:<action>`. */
export const ELICITATION_PREFIX = 'elicit:';
const ACTIONS = ['accept', 'decline', 'cancel', 'open'] as const;
export type ElicitationButton = (typeof ACTIONS)[number];

export function parseElicitationButton(id: string): { requestId: string; action: ElicitationButton } | undefined {
  if (!id.startsWith(ELICITATION_PREFIX)) return undefined;
  const rest = id.slice(ELICITATION_PREFIX.length);
  const cut = rest.lastIndexOf(':');
  const action = ACTIONS.find((a) => a === rest.slice(cut + 1));
  return cut > 0 && action ? { requestId: rest.slice(0, cut), action } : undefined;
}

const OUTCOME_TEXT: Record<ElicitationOutcome['action'], string> = {
  accept: 'Submitted.',
  decline: 'Declined.',
  cancel: 'Cancelled.',
  opened: 'Opened in your browser; waiting for the agent to finish.',
  completed: 'Done: the agent finished with the page.',
};

export function elicitationToChatItem(card: ElicitationCard, itemId: string): ChatItem {
  const { prompt, outcome } = card;
  const done = outcome !== undefined && outcome.action !== 'opened';
  const lines = [escapeMarkdown(prompt.message || 'The agent asks for your input.')];
  if (prompt.mode === 'form' && prompt.form.description) lines.push('', escapeMarkdown(prompt.form.description));
  if (prompt.mode === 'url') lines.push('', `Address: \`${escapeInline(prompt.url)}\``, `Site: **${escapeInline(prompt.host)}**`);
  if (outcome)
    lines.push('', `_${OUTCOME_TEXT[outcome.action]}${'reason' in outcome && outcome.reason ? ` ${escapeInline(outcome.reason)}.` : ''}_`);
  const title = prompt.mode === 'form' ? (prompt.form.title ?? 'The agent asks') : `The agent asks you to open ${prompt.host}`;
  const item = waitingCard({
    messageId: itemId,
    title: escapeInline(title),
    waitingIcon: 'help',
    body: lines.join('\n'),
    settled: done
      ? {
          tone: outcome.action === 'accept' || outcome.action === 'completed' ? 'success' : 'info',
          text: elicitationOutcomeLabel(outcome.action),
        }
      : undefined,
  });
  if (done) return item;
  const button = (
    action: ElicitationButton,
    text: string,
    status: ChatItemButton['status'],
    extra: Partial<ChatItemButton> = {},
  ): ChatItemButton => ({
    id: `${ELICITATION_PREFIX}${card.requestId}:${action}`,
    text,
    status,
    keepCardAfterClick: true,
    ...extra,
  });
  if (prompt.mode === 'form') {
    item.formItems = prompt.form.fields.flatMap(formItemsOf);
    item.buttons = [
      button('accept', 'Submit', 'primary', { icon: 'ok' }),
      button('decline', 'Decline', 'clear'),
      button('cancel', 'Cancel', 'dimmed-clear'),
    ].reverse(); // mynah v4 renders buttons in reverse order
  } else if (!outcome) {
    item.buttons = [
      button('open', `Open ${safeLabel(prompt.host)}`, 'primary', { icon: 'external', description: prompt.url }),
      button('decline', 'Decline', 'clear'),
      button('cancel', 'Cancel', 'dimmed-clear'),
    ].reverse();
  } else {
    item.buttons = [button('cancel', 'Cancel', 'dimmed-clear')];
  }
  return item;
}

/** The mynah form items of one field (a multi-select is one switch per option). */
function formItemsOf(f: ElicitationField): ChatItemFormItem[] {
  const base = {
    id: f.name,
    title: safeLabel(f.title),
    mandatory: f.required,
    ...(f.description ? { description: f.description } : {}),
  };
  switch (f.kind) {
    case 'text':
      return [{ ...base, type: f.format === 'email' ? 'email' : 'textinput', ...(f.default !== undefined ? { value: f.default } : {}) }];
    case 'number':
    case 'integer':
      return [{ ...base, type: 'numericinput', ...(f.default !== undefined ? { value: String(f.default) } : {}) }];
    case 'boolean':
      return [{ ...base, type: 'switch', mandatory: false, label: safeLabel(f.title), value: f.default ? 'true' : 'false' }];
    case 'choice':
      return [
        {
          ...base,
          type: 'select',
          options: f.options.map((o) => ({
            value: o.value,
            label: safeLabel(o.label),
            ...(o.description ? { description: o.description } : {}),
          })),
          // A required choice starts empty, so Submit never sends a choice the user did not make.
          ...(f.default !== undefined ? { value: f.default } : {}),
          ...(f.default === undefined ? { placeholder: 'Choose…' } : {}),
        },
      ];
    case 'choices':
      return f.options.map((o, i) => ({
        id: choiceKey(f.name, i),
        type: 'switch' as const,
        ...(i === 0 ? { title: safeLabel(f.title), ...(f.description ? { description: f.description } : {}) } : {}),
        label: safeLabel(o.label),
        value: f.default?.includes(o.value) ? ('true' as const) : ('false' as const),
      }));
  }
}
