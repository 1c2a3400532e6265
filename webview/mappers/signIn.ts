// A sign-in card: the agent's auth methods (agent-handled and terminal ones as buttons, env-var
// ones as instructions) and how signing in goes. The buttons go once it worked or was replaced,
// and while an attempt runs. An optional card (the agent works without it) is compact: one line,
// the methods as buttons with their descriptions as tooltips, and "Not now". Pure.
import type { ChatItem, ChatItemButton, ChatItemType } from '@aws/mynah-ui';
import type { SignInChoice, SignInDismiss } from '../../src/protocol/signIn';
import type { Conversation, SignInCard } from '../../src/protocol/conversation';
import { escapeInline, escapeMarkdown } from './markdown';

/** Button ids: `signin:<requestId>:<method index>`; an optional card's "Not now": `signin-dismiss:<requestId>`. */
export const SIGN_IN_PREFIX = 'signin:';
export const SIGN_IN_DISMISS_PREFIX = 'signin-dismiss:';

/** The message "Not now" sends (undefined: not that button, or its card is gone or not optional). */
export function signInDismissal(c: Conversation, tabId: string, buttonId: string): SignInDismiss | undefined {
  if (!buttonId.startsWith(SIGN_IN_DISMISS_PREFIX)) return undefined;
  const requestId = buttonId.slice(SIGN_IN_DISMISS_PREFIX.length);
  const card = c.blocks.find((x) => x.kind === 'notice' && x.signIn?.requestId === requestId);
  return card?.kind === 'notice' && card.signIn?.optional ? { type: 'sign-in-dismiss', tabId, requestId } : undefined;
}

export function parseSignInButton(id: string): { requestId: string; index: number } | undefined {
  if (!id.startsWith(SIGN_IN_PREFIX)) return undefined;
  const rest = id.slice(SIGN_IN_PREFIX.length);
  const cut = rest.lastIndexOf(':');
  const index = Number(rest.slice(cut + 1));
  return cut > 0 && Number.isSafeInteger(index) && index >= 0 ? { requestId: rest.slice(0, cut), index } : undefined;
}

/** The message a sign-in button sends (undefined: not a sign-in button, or its card or method is gone). */
export function signInChoice(c: Conversation, tabId: string, buttonId: string): SignInChoice | undefined {
  const b = parseSignInButton(buttonId);
  const card = b && c.blocks.find((x) => x.kind === 'notice' && x.signIn?.requestId === b.requestId);
  const method = b && card?.kind === 'notice' ? card.signIn?.methods[b.index] : undefined;
  return b && method ? { type: 'sign-in', tabId, requestId: b.requestId, methodId: method.id } : undefined;
}

export function signInToChatItem(card: SignInCard, agentName: string, messageId: string): ChatItem {
  const done = card.state === 'signed-in' || card.state === 'closed';
  const lead = card.optional ? `You can sign in to ${escapeInline(agentName)}.` : `${escapeInline(agentName)} needs you to sign in.`;
  const lines = [`**${lead}** ${escapeMarkdown(card.message)}`];
  // The card's text comes before its buttons, so an alternative to them says which way it points.
  const hasButtons = card.methods.some((m) => m.kind !== 'env_var');
  for (const m of card.methods) {
    // Compact: an optional card lists only what has no button (env-var methods), in one line each.
    if (card.optional) {
      if (m.kind === 'env_var' && m.hint) lines.push(`- ${hasButtons ? 'Or, instead of the buttons below: ' : ''}${escapeInline(m.hint)}`);
      continue;
    }
    const what = m.kind === 'terminal' ? ' (opens a terminal)' : '';
    lines.push(`- **${escapeInline(m.name)}**${what}${m.description ? `: ${escapeInline(m.description)}` : ''}`);
    if (m.hint) lines.push(`  ${escapeInline(m.hint)}`);
  }
  if (card.text) lines.push('', `_${escapeInline(card.text)}_`);
  const buttons: ChatItemButton[] =
    done || card.state === 'working'
      ? []
      : card.methods.flatMap((m, i) =>
          m.kind === 'env_var'
            ? []
            : [
                {
                  id: `${SIGN_IN_PREFIX}${card.requestId}:${i}`,
                  text: m.kind === 'terminal' && card.optional && !/terminal/i.test(m.name) ? `${m.name} (terminal)` : m.name,
                  status: i === 0 ? 'primary' : 'main',
                  keepCardAfterClick: true,
                  ...(m.description ? { description: m.description } : {}),
                },
              ],
        );
  if (card.optional && buttons.length > 0)
    buttons.push({ id: `${SIGN_IN_DISMISS_PREFIX}${card.requestId}`, text: 'Not now', status: 'clear', keepCardAfterClick: true });
  return {
    type: 'answer' as ChatItemType.ANSWER,
    messageId,
    header: {
      icon: done ? 'ok-circled' : 'user',
      body: `Sign in to ${escapeInline(agentName)}`,
      status: done
        ? { status: 'success', text: card.state === 'signed-in' ? 'Signed in' : 'Closed', position: 'right' }
        : {
            status: card.optional ? 'info' : 'warning',
            text: card.state === 'working' ? 'Signing in…' : card.optional ? 'Optional' : 'Waiting for you',
            position: 'right',
          },
    },
    body: lines.join('\n'),
    status: done || card.optional ? undefined : 'warning',
    buttons: buttons.reverse(), // mynah v4 renders buttons in reverse order
  };
}
