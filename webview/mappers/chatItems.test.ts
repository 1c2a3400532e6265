import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Notice, Turn } from '../conversation';
import { escapeMarkdown, noticeToChatItems, RESTART_BUTTON_ID, tabStoreFor, turnToChatItems, updateMappers } from './chatItems';

const chunk = (text: string, kind: 'agent_message_chunk' | 'agent_thought_chunk' = 'agent_message_chunk'): SessionUpdate => ({ sessionUpdate: kind, content: { type: 'text', text } });
const turn = (over: Partial<Turn>): Turn => ({ kind: 'turn', messageId: 'm', prompt: 'hi *there*', updates: [], status: 'running', ...over });

describe('ACP → mynah-ui ChatItem mapping', () => {
  it('a prompt, then the streaming answer with stable message ids', () => {
    const items = turnToChatItems(turn({ updates: [chunk('Hello')] }));
    assert.deepEqual(items, [
      { type: 'prompt', messageId: 'm:prompt', body: 'hi \\*there\\*' },
      { type: 'answer-stream', messageId: 'm:0', body: 'Hello' },
    ]);
  });

  it('a finished answer is a plain answer; a cancelled one says Stopped', () => {
    assert.equal(turnToChatItems(turn({ updates: [chunk('Hi')], status: 'done', stopReason: 'end_turn' }))[1]?.type, 'answer');
    const cancelled = turnToChatItems(turn({ updates: [chunk('Hi')], status: 'done', stopReason: 'cancelled' }));
    assert.deepEqual(cancelled[2], { type: 'answer', messageId: 'm:end', body: '_Stopped._', status: 'info' });
  });

  it('thoughts get their own card; only the last item streams', () => {
    const items = turnToChatItems(turn({ updates: [chunk('hmm', 'agent_thought_chunk'), chunk('Answer')] }));
    assert.equal(items[1]?.header?.body, '_Thinking_');
    assert.equal(items[1]?.type, 'answer');
    assert.equal(items[2]?.type, 'answer-stream');
  });

  it('a failed turn shows the error', () => {
    const items = turnToChatItems(turn({ status: 'failed', error: 'Interrupted' }));
    assert.deepEqual(items[1], { type: 'answer', messageId: 'm:end', body: 'Interrupted', status: 'error' });
  });

  it('other updates go through the mapper registry (tool calls, plans: issue 4)', () => {
    const plan: SessionUpdate = { sessionUpdate: 'plan', entries: [] };
    assert.equal(turnToChatItems(turn({ updates: [plan] })).length, 1, 'unmapped updates are not shown');
    updateMappers.plan = (_u, { itemId }) => ({ type: 'answer' as never, messageId: itemId, body: 'plan!' });
    try {
      assert.deepEqual(turnToChatItems(turn({ updates: [plan] }))[1], { type: 'answer', messageId: 'm:0', body: 'plan!' });
    } finally {
      delete updateMappers.plan;
    }
  });

  it('an agent failure card shows exit reason and stderr tail, with Restart until resolved', () => {
    const n: Notice = { kind: 'notice', id: 'n', level: 'error', agentName: 'ElizACP', resolved: false,
      failure: { agentName: 'ElizACP', message: 'The agent exited with code 3.', exitCode: 3, signal: null, stderrTail: 'eliza: crashing' } };
    const [card] = noticeToChatItems(n);
    assert.equal(card?.messageId, 'notice:n');
    assert.equal(card?.status, 'error');
    assert.match(card?.body ?? '', /exited with code 3\.\n/, 'the exit code is not repeated');
    const [bare] = noticeToChatItems({ ...n, failure: { ...n.failure!, message: 'The conductor died.', exitCode: null, signal: 'SIGKILL' } });
    assert.match(bare?.body ?? '', /The conductor died\. \(signal SIGKILL\)/);
    assert.match(card?.body ?? '', /```text\neliza: crashing\n```/);
    assert.equal(card?.buttons?.[0]?.id, RESTART_BUTTON_ID);
    assert.deepEqual(noticeToChatItems({ ...n, resolved: true })[0]?.buttons, []);
  });

  it('tab state: loading while a turn runs, agent and folder as prompt info', () => {
    assert.equal(tabStoreFor({ blocks: [turn({})] }).loadingChat, true);
    assert.deepEqual(tabStoreFor({ blocks: [], agentName: 'ElizACP', cwd: '/w' }), { loadingChat: false, cancelButtonWhenLoading: true, promptInputInfo: 'ElizACP · /w' });
  });

  it('escapes markdown in user text', () => {
    assert.equal(escapeMarkdown('# a_b [c](d)'), '\\# a\\_b \\[c\\]\\(d\\)');
  });
});
