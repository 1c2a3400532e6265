// Finds the tool call behind a tool card (`<turn messageId>:tool:<toolCallId>`), so clicks on the
// card can name the call and its content to the host. Pure.
import type { Conversation } from '../src/protocol/conversation';
import type { ToolCallState } from './mappers/toolCall';

export function toolCallOf(c: Conversation, cardId: string): ToolCallState | undefined {
  const cut = cardId.indexOf(':tool:');
  if (cut < 0) return undefined;
  const turnId = cardId.slice(0, cut);
  const toolCallId = cardId.slice(cut + ':tool:'.length);
  const turn = c.blocks.find((b) => b.kind === 'turn' && b.messageId === turnId);
  if (!turn || turn.kind !== 'turn') return undefined;
  return turn.updates.find(
    (u): u is ToolCallState => (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.toolCallId === toolCallId,
  );
}
