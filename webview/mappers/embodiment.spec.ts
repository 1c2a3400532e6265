// Sparkle's embodiment in the chat: marked updates become one collapsed "Sparkle embodiment"
// section (never the user's answer), inside the user's turn when its prompt was waiting, else a
// block of its own; a new session gets a new section; marked and unmarked chunks never merge.
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { mergeUpdates } from '../../src/protocol/coalesce';
import { withSparkleMark } from '../../src/protocol/symposium-ext';
import type { ConversationEntry } from '../../src/protocol/webview';
import { applyEntry, emptyConversation, isBusy, type Conversation, type Turn } from '../../src/protocol/conversation';
import { conversationToChatItems } from './chatItems';
import { embodimentText, embodimentToChatItem } from './embodiment';

const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const sparkle = (u: SessionUpdate): SessionUpdate => withSparkleMark(u, 'embodiment');
const ready: ConversationEntry = { type: 'session-ready', agentName: 'ElizACP', cwd: '/w' };

function apply(entries: ConversationEntry[]): Conversation {
  const c = emptyConversation();
  for (const e of entries) applyEntry(c, e);
  return c;
}

describe('Sparkle embodiment in the chat', () => {
  it('before any prompt: a block of its own, one collapsed section, not busy, no prompt card', () => {
    const c = apply([
      ready,
      { type: 'agent-update', update: sparkle(chunk('Embodiment ')) },
      { type: 'agent-update', update: sparkle(chunk('received.')) },
    ]);
    assert.equal(c.blocks.length, 1);
    assert.equal(isBusy(c), false);
    const items = conversationToChatItems(c);
    assert.deepEqual(items, [
      {
        type: 'answer',
        messageId: 'sparkle-embodiment-0:sparkle',
        summary: { isCollapsed: true, content: { body: '_Sparkle embodiment_' }, collapsedContent: [{ body: 'Embodiment received.' }] },
      },
    ]);
  });

  it("while the user's first prompt waits: a section after its prompt, before its answer, never part of the answer", () => {
    const c = apply([
      ready,
      { type: 'prompt-started', messageId: 'm', text: 'hello' },
      { type: 'agent-update', messageId: 'm', update: sparkle(chunk('Embodiment received.')) },
      { type: 'agent-update', messageId: 'm', update: chunk('How do you do.') },
      { type: 'prompt-ended', messageId: 'm', stopReason: 'end_turn' },
    ]);
    const t = c.blocks[0] as Turn;
    assert.deepEqual(t.updates, [chunk('How do you do.')]);
    assert.deepEqual(
      conversationToChatItems(c).map((i) => [i.messageId, i.summary?.content?.body ?? i.body]),
      [
        ['m:prompt', 'hello'],
        ['m:sparkle', '_Sparkle embodiment_'],
        ['m:0', 'How do you do.'],
      ],
    );
  });

  it('one section per session: updates that straddle the first prompt stay together; a restart starts another', () => {
    const c = apply([
      ready,
      { type: 'agent-update', update: sparkle(chunk('Embodiment ')) },
      { type: 'prompt-started', messageId: 'm', text: 'hello' },
      { type: 'agent-update', messageId: 'm', update: sparkle(chunk('received.')) },
      { type: 'agent-update', messageId: 'm', update: chunk('Hi.') },
      ready,
      { type: 'agent-update', update: sparkle(chunk('Again.')) },
    ]);
    const sections = conversationToChatItems(c).filter((i) => i.messageId?.endsWith(':sparkle'));
    assert.deepEqual(
      sections.map((i) => i.summary?.collapsedContent?.[0]?.body),
      ['Embodiment received.', 'Again.'],
    );
    assert.equal((c.blocks[1] as Turn).updates[0]?.sessionUpdate, 'agent_message_chunk', "the user's turn keeps its own answer");
  });

  it('replaying the same entries (resync) builds the same blocks', () => {
    const entries: ConversationEntry[] = [
      ready,
      { type: 'agent-update', update: sparkle(chunk('x')) },
      { type: 'prompt-started', messageId: 'm', text: 'hi' },
    ];
    assert.deepEqual(apply(entries), apply(entries));
  });

  it('while the embodiment runs its title shows progress; once done, only the title', () => {
    const updates = [{ sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text: 'Hi' } }];
    const title = (running: boolean): string => String(embodimentToChatItem(updates, 'm:sparkle', running).summary?.content?.body);
    assert.match(title(true), /Sparkle embodiment_ — ⏳ in progress \(1 update\)/);
    assert.equal(title(false), '_Sparkle embodiment_');
  });

  it('the section text: words, thoughts in italics, one line per tool call with its state', () => {
    const text = embodimentText([
      sparkle(chunk('Present.')),
      sparkle({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'who am I' } }),
      sparkle({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'sparkle::load_evolution', status: 'in_progress' }),
      sparkle({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }),
    ]);
    assert.equal(text, 'Present.\n\n_who am I_\n\n\n\nTool call: sparkle::load\\_evolution …\n\n\n\nTool call: t1 ✓');
    assert.equal(embodimentToChatItem([], 'x').summary?.collapsedContent?.[0]?.body, '_(no reply yet)_');
  });

  it('an embodiment chunk and the answer chunk after it are never merged into one (host outbox, transcript)', () => {
    assert.equal(mergeUpdates(sparkle(chunk('Embodiment received.')), chunk('Hi')), undefined);
    assert.deepEqual(mergeUpdates(sparkle(chunk('a')), sparkle(chunk('b'))), sparkle(chunk('ab')));
  });
});
