import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { Notice, Turn } from '../../src/protocol/conversation';
import { escapeMarkdown, noticeToChatItems, RESTART_BUTTON_ID, turnToChatItems } from './chatItems';

const chunk = (text: string, kind: 'agent_message_chunk' | 'agent_thought_chunk' = 'agent_message_chunk'): SessionUpdate => ({
  sessionUpdate: kind,
  content: { type: 'text', text },
});
export const turn = (over: Partial<Turn>): Turn => ({
  kind: 'turn',
  messageId: 'm',
  prompt: 'hi *there*',
  updates: [],
  status: 'running',
  permissions: [],
  ...over,
});

describe('ACP → mynah-ui ChatItem mapping: text, thoughts, stop reasons, notices', () => {
  it('a prompt, then the streaming answer with stable message ids', () => {
    const items = turnToChatItems(turn({ updates: [chunk('Hello')] }));
    assert.deepEqual(items, [
      { type: 'prompt', messageId: 'm:prompt', body: 'hi \\*there\\*' },
      { type: 'answer-stream', messageId: 'm:0', body: 'Hello' },
    ]);
  });

  it("the user's input steered into the running turn is a prompt card where the agent took it, between the answer's parts", () => {
    const steered: SessionUpdate = { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'make it *shorter*' } };
    assert.deepEqual(turnToChatItems(turn({ updates: [chunk('Once'), steered, chunk('The end.')] })).slice(1), [
      { type: 'answer', messageId: 'm:0', body: 'Once' },
      { type: 'prompt', messageId: 'm:1', body: 'make it \\*shorter\\*' },
      { type: 'answer-stream', messageId: 'm:2', body: 'The end.' },
    ]);
  });

  it('a call announced only by its permission request (Gemini CLI) shows its approval card, then one tool card', () => {
    const t = turn({
      updates: [{ sessionUpdate: 'tool_call', toolCallId: 'write_file-1', title: 'Writing to greeting.txt', status: 'completed' }],
      permissions: [
        {
          requestId: 'r1',
          position: 0,
          toolCall: { toolCallId: 'write_file-1', title: 'Writing to greeting.txt' },
          options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
        },
      ],
    });
    assert.deepEqual(
      turnToChatItems(t).map((i) => [i.messageId, i.header?.body]),
      [
        ['m:prompt', undefined],
        ['m:perm:r1', 'Permission needed: Writing to greeting.txt'],
        ['m:tool:write_file-1', '**Writing to greeting.txt**'],
      ],
    );
  });

  it('a finished answer is a plain answer; a cancelled one says Stopped', () => {
    assert.equal(turnToChatItems(turn({ updates: [chunk('Hi')], status: 'done', stopReason: 'end_turn' }))[1]?.type, 'answer');
    const cancelled = turnToChatItems(turn({ updates: [chunk('Hi')], status: 'done', stopReason: 'cancelled' }));
    assert.deepEqual(cancelled[2], { type: 'answer', messageId: 'm:end', body: '_Stopped._', status: 'info' });
  });

  it('abnormal stop reasons are explained as warnings', () => {
    const last = (stopReason: 'refusal' | 'max_tokens' | 'max_turn_requests') =>
      turnToChatItems(turn({ status: 'done', stopReason })).at(-1);
    assert.deepEqual(last('refusal'), { type: 'answer', messageId: 'm:end', body: '_The agent refused to continue._', status: 'warning' });
    assert.match(last('max_tokens')?.body ?? '', /token limit/);
    assert.match(last('max_turn_requests')?.body ?? '', /limit of requests/);
  });

  it('thoughts are a collapsed Thinking section; only the last item streams', () => {
    const items = turnToChatItems(turn({ updates: [chunk('hmm', 'agent_thought_chunk'), chunk('Answer')] }));
    assert.equal(items[1]?.type, 'answer');
    assert.equal(items[1]?.summary?.isCollapsed, true);
    assert.equal(items[1]?.summary?.content?.body, '_Thinking_');
    assert.deepEqual(items[1]?.summary?.collapsedContent, [{ body: 'hmm' }]);
    assert.equal(items[2]?.type, 'answer-stream');
    const thinking = turnToChatItems(turn({ updates: [chunk('hmm', 'agent_thought_chunk')] }))[1];
    assert.equal(thinking?.shimmer, true);
    assert.equal(thinking?.summary?.content?.body, '_Thinking…_');
  });

  it('a failed turn shows the error', () => {
    const items = turnToChatItems(turn({ status: 'failed', error: 'Interrupted' }));
    assert.deepEqual(items[1], { type: 'answer', messageId: 'm:end', body: '**The prompt failed.** Interrupted', status: 'error' });
  });

  it('session-level updates (commands, modes) are not cards', () => {
    const u: SessionUpdate = { sessionUpdate: 'available_commands_update', availableCommands: [] };
    assert.equal(turnToChatItems(turn({ updates: [u] })).length, 1);
  });

  it('an agent failure card shows exit reason and stderr tail, with Restart until resolved', () => {
    const n: Notice = {
      kind: 'notice',
      id: 'n',
      level: 'error',
      agentName: 'ElizACP',
      resolved: false,
      failure: { agentName: 'ElizACP', message: 'The agent exited with code 3.', exitCode: 3, signal: null, stderrTail: 'eliza: crashing' },
    };
    const [card] = noticeToChatItems(n);
    assert.equal(card?.messageId, 'notice:n');
    assert.equal(card?.status, 'error');
    assert.match(card?.body ?? '', /exited with code 3\.\n/, 'the exit code is not repeated');
    const [bare] = noticeToChatItems({
      ...n,
      failure: { ...n.failure!, message: 'The conductor died.', exitCode: null, signal: 'SIGKILL' },
    });
    assert.match(bare?.body ?? '', /The conductor died\. \(signal SIGKILL\)/);
    assert.match(card?.body ?? '', /```text\neliza: crashing\n```/);
    assert.equal(card?.buttons?.[0]?.id, RESTART_BUTTON_ID);
    assert.deepEqual(noticeToChatItems({ ...n, resolved: true })[0]?.buttons, []);
  });

  it('a text notice shows its message at its level', () => {
    const [card] = noticeToChatItems({ kind: 'notice', id: 'x', level: 'warning', agentName: 'A', text: 'No diff_here', resolved: true });
    assert.deepEqual(card, { type: 'answer', messageId: 'notice:x', status: 'warning', body: 'No diff\\_here' });
  });

  it('escapes markdown in user text', () => {
    assert.equal(escapeMarkdown('# a_b [c](d)'), '\\# a\\_b \\[c\\]\\(d\\)');
  });
});
