// Conversation model → mynah-ui ChatItems. Pure: only *types* come from mynah-ui (its UMD bundle
// touches `self` when loaded, so tests in Node must never import it at runtime); the ChatItemType
// values are spelled out in ItemType below.
//
// Every item gets a stable messageId derived from its block, so re-rendering a changed block
// updates the same mynah card instead of adding a new one.
import type { ChatItem, ChatItemType } from '@aws/mynah-ui';
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { SettingsTarget } from '../../src/protocol/webview';
import { blockId, type Block, type Conversation, type Notice, type Turn } from '../../src/protocol/conversation';
import { embodimentToChatItem } from './embodiment';
import { escapeInline, escapeMarkdown } from './markdown';
import { permissionToChatItem } from './permission';
import { elicitationToChatItem } from './elicitation';
import { planToChatItem } from './plan';
import { changesToChatItem, editAndResendButton, restoreCheckpointButton } from './changes';
import { signInToChatItem } from './signIn';
import { toolCallToChatItem, type ToolCallState } from './toolCall';
import { turnPhase } from '../../src/protocol/toolCallStatus';

/** mynah-ui's ChatItemType values (a runtime enum we must not import; see above). */
export const ItemType = {
  PROMPT: 'prompt' as ChatItemType.PROMPT,
  ANSWER: 'answer' as ChatItemType.ANSWER,
  ANSWER_STREAM: 'answer-stream' as ChatItemType.ANSWER_STREAM,
} as const;

export const RESTART_BUTTON_ID = 'restart-agent';
export const CONTINUE_IN_NEW_SESSION_BUTTON_ID = 'continue-in-new-session';
/** A setting notice's button: `open-settings:<target>`. */
export const OPEN_SETTINGS_BUTTON_PREFIX = 'open-settings:';
const SETTINGS_LABELS: Record<SettingsTarget, string> = {
  user: 'Open User Settings',
  remote: 'Open Remote Settings',
  trust: 'Manage Workspace Trust',
};
export { escapeMarkdown };

const STOP_TEXT: Partial<Record<StopReason, string>> = {
  cancelled: 'Stopped.',
  refusal: 'The agent refused to continue.',
  max_tokens: 'Stopped: the agent reached its token limit.',
  max_turn_requests: 'Stopped: the agent reached its limit of requests for one turn.',
};

function textOf(u: SessionUpdate): string | undefined {
  if (u.sessionUpdate !== 'agent_message_chunk' && u.sessionUpdate !== 'agent_thought_chunk') return undefined;
  return u.content.type === 'text' ? u.content.text : undefined;
}

/** A turn's cards in order: prompt, then each update (text, thoughts, tools, plan) and approval. */
export function turnToChatItems(t: Turn, terminals: Conversation['terminals'] = {}): ChatItem[] {
  const items: ChatItem[] = [];
  const attached = t.attachments?.length ? `\n\n📎 ${t.attachments.map((a) => `\`${escapeInline(a)}\``).join(' ')}` : '';
  if (t.prompt || attached)
    items.push({
      type: ItemType.PROMPT,
      messageId: `${t.messageId}:prompt`,
      body: escapeMarkdown(t.prompt) + attached,
      ...(t.checkpoint && t.status !== 'running' ? { buttons: [editAndResendButton(), restoreCheckpointButton()] } : {}),
    });
  if (t.embodiment?.length)
    items.push(embodimentToChatItem(t.embodiment, `${t.messageId}:sparkle`, t.status === 'running' && t.updates.length === 0));
  const running = t.status === 'running';
  const phase = turnPhase(t);
  const permissions = t.permissions ?? [];
  const toolState = (id: string): ToolCallState | undefined =>
    t.updates.find(
      (u): u is ToolCallState => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.toolCallId === id,
    );
  const approvalsAt = (position: number): void => {
    for (const p of permissions) {
      if (p.position === position)
        items.push(permissionToChatItem(p, `${t.messageId}:perm:${p.requestId}`, toolState(p.toolCall.toolCallId)));
    }
    for (const e of t.elicitations ?? [])
      if (e.position === position) items.push(elicitationToChatItem(e, `${t.messageId}:ask:${e.requestId}`));
  };
  // Text streams only while it is the turn's last item (mynah has one stream per tab).
  const lastIndex = t.updates.length - 1;
  const streamsAt = (i: number): boolean =>
    running && i === lastIndex && !permissions.some((p) => p.position > i) && !(t.elicitations ?? []).some((e) => e.position > i);
  t.updates.forEach((u, i) => {
    approvalsAt(i);
    const itemId = `${t.messageId}:${i}`;
    switch (u.sessionUpdate) {
      case 'agent_message_chunk': {
        // No card until there is text: mynah-ui draws no card for an empty answer, and later
        // updates of that messageId then change nothing (Qwen Code sends an empty chunk before an
        // approval, and its answer after the approved call came into that chunk, never shown).
        const text = textOf(u);
        if (text !== undefined && text.trim() !== '')
          items.push({ type: streamsAt(i) ? ItemType.ANSWER_STREAM : ItemType.ANSWER, messageId: itemId, body: text });
        return;
      }
      case 'agent_thought_chunk': {
        const text = textOf(u);
        if (text === undefined || text.trim() === '') return;
        const thinking = streamsAt(i);
        items.push({
          type: ItemType.ANSWER,
          messageId: itemId,
          shimmer: thinking,
          summary: { isCollapsed: true, content: { body: thinking ? '_Thinking…_' : '_Thinking_' }, collapsedContent: [{ body: text }] },
        });
        return;
      }
      case 'tool_call':
      case 'tool_call_update':
        items.push(toolCallToChatItem(u, `${t.messageId}:tool:${u.toolCallId}`, terminals, phase));
        return;
      case 'plan':
        items.push(planToChatItem(u.entries, `${t.messageId}:plan`));
        return;
      case 'user_message_chunk': {
        // The user's input steered into the running turn: shown where the agent took it.
        const text = u.content.type === 'text' ? u.content.text : undefined;
        if (text !== undefined) items.push({ type: ItemType.PROMPT, messageId: itemId, body: escapeMarkdown(text) });
        return;
      }
      default:
        return; // session-level state (commands, modes, config) and usage: not cards
    }
  });
  approvalsAt(t.updates.length);
  for (const p of permissions)
    if (p.position > t.updates.length)
      items.push(permissionToChatItem(p, `${t.messageId}:perm:${p.requestId}`, toolState(p.toolCall.toolCallId)));
  for (const e of t.elicitations ?? [])
    if (e.position > t.updates.length) items.push(elicitationToChatItem(e, `${t.messageId}:ask:${e.requestId}`));
  if (t.status === 'done' && t.stopReason && t.stopReason !== 'end_turn') {
    const why = STOP_TEXT[t.stopReason] ?? `Stopped: ${t.stopReason.replace(/_/g, ' ')}.`;
    items.push({
      type: ItemType.ANSWER,
      messageId: `${t.messageId}:end`,
      body: `_${why}_`,
      status: t.stopReason === 'cancelled' ? 'info' : 'warning',
    });
  }
  if (t.status === 'failed') {
    items.push({
      type: ItemType.ANSWER,
      messageId: `${t.messageId}:end`,
      body: `**The prompt failed.** ${t.error ?? ''}`.trim(),
      status: 'error',
    });
  }
  return items;
}

export function noticeToChatItems(n: Notice): ChatItem[] {
  const messageId = blockId(n);
  if (n.signIn) return [signInToChatItem(n.signIn, n.agentName, messageId)];
  if (n.changes) return [changesToChatItem(n.changes, messageId)];
  if (n.text !== undefined)
    return [
      {
        type: ItemType.ANSWER,
        messageId,
        status: n.level === 'info' ? 'info' : n.level,
        body: escapeMarkdown(n.text),
        ...(n.settings
          ? {
              buttons: [
                {
                  id: `${OPEN_SETTINGS_BUTTON_PREFIX}${n.settings}`,
                  text: SETTINGS_LABELS[n.settings],
                  status: 'primary' as const,
                  keepCardAfterClick: true,
                },
              ],
            }
          : {}),
        ...(n.offer
          ? {
              buttons: [
                {
                  id: CONTINUE_IN_NEW_SESSION_BUTTON_ID,
                  text: 'Continue in a new session with the transcript as context',
                  status: 'primary' as const,
                  keepCardAfterClick: true,
                },
              ],
            }
          : {}),
      },
    ];
  if (n.level === 'info') {
    return [
      {
        type: ItemType.ANSWER,
        messageId,
        status: 'info',
        body: `Restarted **${n.agentName}** with a fresh session. It does not remember earlier messages.`,
      },
    ];
  }
  const f = n.failure;
  const message = f?.message ?? '';
  // Exit code and signal, unless the message already says them.
  const details = [
    f?.exitCode !== null && f?.exitCode !== undefined && !message.includes(`code ${f.exitCode}`) ? `exit code ${f.exitCode}` : '',
    f?.signal && !message.includes(f.signal) ? `signal ${f.signal}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const tail = f?.stderrTail.trim();
  const body = [
    `**${n.agentName} stopped.** ${message}${details ? ` (${details})` : ''}`,
    ...(tail ? ['', 'Last output on stderr:', '', '```text', tail, '```'] : []),
    ...(n.resolved ? ['', '_Restarted._'] : []),
  ].join('\n');
  return [
    {
      type: ItemType.ANSWER,
      messageId,
      status: 'error',
      body,
      buttons: n.resolved ? [] : [{ id: RESTART_BUTTON_ID, text: 'Restart agent', status: 'primary', keepCardAfterClick: true }],
    },
  ];
}

export function blockToChatItems(b: Block, c?: Conversation): ChatItem[] {
  return b.kind === 'turn' ? turnToChatItems(b, c?.terminals) : noticeToChatItems(b);
}

export function conversationToChatItems(c: Conversation): ChatItem[] {
  return c.blocks.flatMap((b) => blockToChatItems(b, c));
}
