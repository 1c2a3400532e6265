// An agent's `session/load` replay as a tab's conversation. The agent sends the whole history as
// `session/update`s (user_message_chunk for the prompts) before it answers; those updates carry no
// prompt turn of ours, so they become turns here, with ids that depend only on their position
// (replaying again builds the same blocks). The result replaces the tab's view (a resync) and the
// stored transcript, so nothing is shown twice. Pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { sparkleMarkOf } from '../protocol/symposium-ext';
import type { ConversationEntry } from '../protocol/webview';

/** Session-level updates: they change the tab's pickers and commands, not a turn. */
const SESSION_LEVEL = new Set([
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'usage_update',
]);

/**
 * The conversation entries a replay stands for: `session-ready` first, then one turn per run of
 * user_message_chunks with everything the agent sent after it. Consecutive identical updates (an
 * agent that sends its replay twice for one message) are kept once.
 */
export function replayEntries(
  updates: readonly SessionUpdate[],
  session: { agentName: string; cwd: string; idPrefix: string },
): ConversationEntry[] {
  const entries: ConversationEntry[] = [{ type: 'session-ready', agentName: session.agentName, cwd: session.cwd }];
  let current: { messageId: string; prompt: Extract<ConversationEntry, { type: 'prompt-started' }> } | undefined;
  let turns = 0;
  let previous = '';
  const endTurn = (): void => {
    if (current) entries.push({ type: 'prompt-ended', messageId: current.messageId, stopReason: 'end_turn' });
    current = undefined;
  };
  for (const update of updates) {
    const json = JSON.stringify(update);
    if (json === previous && update.sessionUpdate !== 'agent_message_chunk' && update.sessionUpdate !== 'user_message_chunk') continue;
    previous = json;
    if (sparkleMarkOf(update) === 'embodiment') {
      // Sparkle's embodiment turn: its prompt is not shown (as live), its reply is its own section.
      if (update.sessionUpdate !== 'user_message_chunk') entries.push({ type: 'agent-update', update });
      continue;
    }
    if (SESSION_LEVEL.has(update.sessionUpdate)) {
      entries.push({ type: 'agent-update', update });
      continue;
    }
    if (update.sessionUpdate === 'user_message_chunk') {
      const text = update.content.type === 'text' ? update.content.text : '';
      const continuing = current && current.prompt.text !== undefined && lastWasUser(entries, current.messageId);
      if (continuing && current) {
        current.prompt.text += text;
        continue;
      }
      endTurn();
      const messageId = `${session.idPrefix}-${++turns}`;
      const prompt: Extract<ConversationEntry, { type: 'prompt-started' }> = { type: 'prompt-started', messageId, text };
      entries.push(prompt);
      current = { messageId, prompt };
      continue;
    }
    if (!current) {
      // The agent said something before any prompt (a greeting): a turn without a prompt.
      const messageId = `${session.idPrefix}-${++turns}`;
      const prompt: Extract<ConversationEntry, { type: 'prompt-started' }> = { type: 'prompt-started', messageId, text: '' };
      entries.push(prompt);
      current = { messageId, prompt };
    }
    entries.push({ type: 'agent-update', messageId: current.messageId, update });
  }
  endTurn();
  return entries;
}

/** Whether the turn's prompt is the last entry (so a further user chunk continues it). */
function lastWasUser(entries: readonly ConversationEntry[], messageId: string): boolean {
  const last = entries[entries.length - 1];
  return last?.type === 'prompt-started' && last.messageId === messageId;
}
