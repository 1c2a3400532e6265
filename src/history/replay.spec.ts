import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ConversationEntry } from '../protocol/webview';
import { replayEntries } from './replay';
import { foldConversation } from '../protocol/conversation';

const user = (text: string): SessionUpdate => ({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
const agent = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const session = { agentName: 'ElizACP', cwd: '/w', idPrefix: 'replay' };

describe('replayEntries', () => {
  const replay: SessionUpdate[] = [
    { sessionUpdate: 'available_commands_update', availableCommands: [] },
    user('Hello'),
    user(' there'),
    agent('Hi. '),
    agent('How are you?'),
    user('I feel fine'),
    { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', status: 'completed' },
    { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', status: 'completed' },
    agent('Why fine?'),
  ];

  it('one turn per prompt, the agent updates inside it, prompt chunks joined', () => {
    const entries = replayEntries(replay, session);
    const turns = foldConversation(entries).blocks.filter((b) => b.kind === 'turn');
    assert.deepEqual(
      turns.map((t) => (t.kind === 'turn' ? [t.messageId, t.prompt, t.updates.length] : [])),
      [
        ['replay-1', 'Hello there', 1],
        ['replay-2', 'I feel fine', 2],
      ],
    );
    assert.equal(entries[0]?.type, 'session-ready');
    assert.equal(entries.filter((e) => e.type === 'prompt-ended').length, 2);
  });

  it('a repeated tool_call (replayed twice) is kept once; the ids depend only on position', () => {
    const a = replayEntries(replay, session);
    const b = replayEntries(replay, session);
    assert.deepEqual(a, b);
    assert.equal(a.filter((e) => e.type === 'agent-update' && e.update.sessionUpdate === 'tool_call').length, 1);
  });

  it('the replay replaces what the tab showed: the conversation is shown once, not doubled', () => {
    // What the tab showed from the store, then what the agent replayed: the tab gets only the replay.
    const stored: ConversationEntry[] = [
      { type: 'prompt-started', messageId: 'm1', text: 'Hello there' },
      { type: 'agent-update', messageId: 'm1', update: agent('Hi. How are you?') },
      { type: 'prompt-ended', messageId: 'm1', stopReason: 'end_turn' },
    ];
    const replaced = replayEntries([user('Hello there'), agent('Hi. How are you?')], session);
    const before = foldConversation(stored).blocks;
    const after = foldConversation(replaced).blocks;
    assert.equal(after.length, before.length);
    assert.equal(after[0]?.kind === 'turn' && after[0].prompt, 'Hello there');
  });

  it("Sparkle's embodiment (marked) is not a prompt: its reply stays a marked update outside the turns", () => {
    const mark = { symposium: { sparkle: 'embodiment' } };
    const entries = replayEntries(
      [
        { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: '# Sparkle embodiment …' }, _meta: mark },
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Embodiment received.' }, _meta: mark },
        user('Hello'),
        agent('Hi.'),
      ],
      session,
    );
    assert.deepEqual(
      entries.filter((e) => e.type === 'prompt-started').map((e) => (e.type === 'prompt-started' ? e.text : '')),
      ['Hello'],
    );
    assert.ok(
      entries.some((e) => e.type === 'agent-update' && !e.messageId && e.update.sessionUpdate === 'agent_message_chunk'),
      'the embodiment reply is kept, outside any turn',
    );
  });

  it('agent text before any prompt gets a turn of its own', () => {
    const entries = replayEntries([agent('Welcome')], session);
    assert.deepEqual(
      entries.map((e) => e.type),
      ['session-ready', 'prompt-started', 'agent-update', 'prompt-ended'],
    );
  });
});
