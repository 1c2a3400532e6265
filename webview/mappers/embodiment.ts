// Sparkle's embodiment turn → one collapsed "Sparkle embodiment" card. The Sparkle component
// prompts the agent with its identity and memory at the start of every session; what the agent
// answers is Sparkle's business, not an answer to the user, so it is folded away like thoughts
// (the user can open it to see how the agent took it). Pure; only types from mynah-ui.
import type { ChatItem } from '@aws/mynah-ui';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { escapeInline } from './markdown';

export const EMBODIMENT_TITLE = 'Sparkle embodiment';

const TOOL_STATUS: Record<string, string> = { pending: '…', in_progress: '…', completed: '✓', failed: '✗' };

/** The section's text: the agent's words, its thoughts in italics, one line per tool call. */
export function embodimentText(updates: readonly SessionUpdate[]): string {
  const parts: string[] = [];
  for (const u of updates) {
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
        if (u.content.type === 'text') parts.push(u.content.text);
        break;
      case 'agent_thought_chunk':
        if (u.content.type === 'text' && u.content.text.trim()) parts.push(`\n\n_${u.content.text.trim()}_\n\n`);
        break;
      case 'tool_call':
      case 'tool_call_update':
        parts.push(`\n\nTool call: ${escapeInline(u.title ?? u.toolCallId)} ${TOOL_STATUS[u.status ?? 'pending'] ?? ''}\n\n`);
        break;
      default:
        break;
    }
  }
  return parts.join('').trim();
}

/** `running`: the embodiment turn is still going (its turn runs and has no answer of its own yet). */
export function embodimentToChatItem(updates: readonly SessionUpdate[], messageId: string, running = false): ChatItem {
  const text = embodimentText(updates);
  // While it runs, the section's title says so, with how far it got (so a slow embodiment is visibly alive).
  const progress = running ? ` — ⏳ in progress (${updates.length} update${updates.length === 1 ? '' : 's'})` : '';
  return {
    type: 'answer' as ChatItem['type'],
    messageId,
    summary: {
      isCollapsed: true,
      content: { body: `_${EMBODIMENT_TITLE}_${progress}` },
      collapsedContent: [{ body: text || '_(no reply yet)_' }],
    },
  };
}
