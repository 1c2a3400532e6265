// Conversation model → mynah-ui ChatItems. Pure: only *types* come from mynah-ui (its UMD bundle
// touches `self` when loaded, so tests in Node must never import it at runtime); the ChatItemType
// values are spelled out in ItemType below.
//
// Every item gets a stable messageId derived from its block, so re-rendering a changed block
// updates the same mynah card instead of adding a new one.
import type { ChatItem, ChatItemType, MynahUIDataModel } from '@aws/mynah-ui';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { blockId, isBusy, type Block, type Conversation, type Notice, type Turn } from '../conversation';

/** mynah-ui's ChatItemType values (a runtime enum we must not import; see above). */
export const ItemType = {
  PROMPT: 'prompt' as ChatItemType.PROMPT,
  ANSWER: 'answer' as ChatItemType.ANSWER,
  ANSWER_STREAM: 'answer-stream' as ChatItemType.ANSWER_STREAM,
} as const;

export const RESTART_BUTTON_ID = 'restart-agent';

/**
 * How a non-text ACP update becomes a card. Text and thought chunks are built in; tool calls,
 * plans and permission requests (issue 4) register here. `undefined` = not shown.
 */
export type UpdateMapper = (update: SessionUpdate, ctx: { turn: Turn; itemId: string; streaming: boolean }) => ChatItem | undefined;
export const updateMappers: Partial<Record<SessionUpdate['sessionUpdate'], UpdateMapper>> = {};

/** Markdown-escapes user text so it renders literally (mynah sanitizes HTML itself). */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_{}[\]()#+\-.!|<>~])/g, '\\$1');
}

function textOf(u: SessionUpdate): string | undefined {
  if (u.sessionUpdate !== 'agent_message_chunk' && u.sessionUpdate !== 'agent_thought_chunk') return undefined;
  return u.content.type === 'text' ? u.content.text : undefined;
}

export function turnToChatItems(t: Turn): ChatItem[] {
  const items: ChatItem[] = [];
  if (t.prompt) items.push({ type: ItemType.PROMPT, messageId: `${t.messageId}:prompt`, body: escapeMarkdown(t.prompt) });
  const running = t.status === 'running';
  t.updates.forEach((u, i) => {
    const itemId = `${t.messageId}:${i}`;
    const last = i === t.updates.length - 1;
    if (u.sessionUpdate === 'agent_message_chunk') {
      const text = textOf(u);
      if (text !== undefined) items.push({ type: running && last ? ItemType.ANSWER_STREAM : ItemType.ANSWER, messageId: itemId, body: text });
      return;
    }
    if (u.sessionUpdate === 'agent_thought_chunk') {
      const text = textOf(u);
      if (text !== undefined) items.push({ type: ItemType.ANSWER, messageId: itemId, header: { body: '_Thinking_' }, body: text, shimmer: running && last });
      return;
    }
    const mapped = updateMappers[u.sessionUpdate]?.(u, { turn: t, itemId, streaming: running && last });
    if (mapped) items.push(mapped);
  });
  if (t.status === 'done' && t.stopReason && t.stopReason !== 'end_turn') {
    const why = t.stopReason === 'cancelled' ? 'Stopped.' : `Stopped: ${t.stopReason.replace(/_/g, ' ')}.`;
    items.push({ type: ItemType.ANSWER, messageId: `${t.messageId}:end`, body: `_${why}_`, status: t.stopReason === 'cancelled' ? 'info' : 'warning' });
  }
  if (t.status === 'failed') {
    items.push({ type: ItemType.ANSWER, messageId: `${t.messageId}:end`, body: t.error ?? 'The prompt failed.', status: 'error' });
  }
  return items;
}

export function noticeToChatItems(n: Notice): ChatItem[] {
  const messageId = blockId(n);
  if (n.level === 'info') {
    return [{ type: ItemType.ANSWER, messageId, status: 'info', body: `Restarted **${n.agentName}** with a fresh session. It does not remember earlier messages.` }];
  }
  const f = n.failure;
  const message = f?.message ?? '';
  // Exit code and signal, unless the message already says them.
  const details = [
    f?.exitCode !== null && f?.exitCode !== undefined && !message.includes(`code ${f.exitCode}`) ? `exit code ${f.exitCode}` : '',
    f?.signal && !message.includes(f.signal) ? `signal ${f.signal}` : '',
  ].filter(Boolean).join(', ');
  const tail = f?.stderrTail.trim();
  const body = [
    `**${n.agentName} stopped.** ${message}${details ? ` (${details})` : ''}`,
    ...(tail ? ['', 'Last output on stderr:', '', '```text', tail, '```'] : []),
    ...(n.resolved ? ['', '_Restarted._'] : []),
  ].join('\n');
  return [{
    type: ItemType.ANSWER, messageId, status: 'error', body,
    buttons: n.resolved ? [] : [{ id: RESTART_BUTTON_ID, text: 'Restart agent', status: 'primary', keepCardAfterClick: true }],
  }];
}

export function blockToChatItems(b: Block): ChatItem[] {
  return b.kind === 'turn' ? turnToChatItems(b) : noticeToChatItems(b);
}

export function conversationToChatItems(c: Conversation): ChatItem[] {
  return c.blocks.flatMap(blockToChatItems);
}

/** The tab-level UI state that follows from the conversation. */
export function tabStoreFor(c: Conversation): MynahUIDataModel {
  return {
    loadingChat: isBusy(c),
    cancelButtonWhenLoading: true,
    promptInputInfo: c.agentName ? `${c.agentName} · ${c.cwd ?? ''}` : 'Starting the agent…',
  };
}
