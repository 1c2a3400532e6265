import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ConversationEntry } from './webview';
import { applyEntry, emptyConversation, isBusy, type Turn } from './conversation';

const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const failure = { agentName: 'ElizACP', message: 'exited with code 3', exitCode: 3, signal: null, stderrTail: 'boom' };

describe('conversation model', () => {
  it('builds a turn from prompt, streamed chunks and the end', () => {
    const c = emptyConversation();
    assert.deepEqual(applyEntry(c, { type: 'prompt-started', messageId: 'm', text: 'hi' }), ['m']);
    assert.equal(isBusy(c), true);
    applyEntry(c, { type: 'agent-update', messageId: 'm', update: chunk('Hel') });
    applyEntry(c, { type: 'agent-update', messageId: 'm', update: chunk('lo') });
    applyEntry(c, { type: 'prompt-ended', messageId: 'm', stopReason: 'end_turn' });
    const t = c.blocks[0] as Turn;
    assert.deepEqual(t.updates, [chunk('Hello')]);
    assert.equal(t.status, 'done');
    assert.equal(isBusy(c), false);
  });

  it('a repeated prompt-started changes nothing', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'prompt-started', messageId: 'm', text: 'hi' });
    assert.deepEqual(applyEntry(c, { type: 'prompt-started', messageId: 'm', text: 'hi' }), []);
    assert.equal(c.blocks.length, 1);
  });

  it('folds tool call updates into their call even after other updates', () => {
    const c = emptyConversation();
    applyEntry(c, {
      type: 'agent-update',
      messageId: 'm',
      update: { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read', status: 'pending' },
    });
    applyEntry(c, { type: 'agent-update', messageId: 'm', update: chunk('reading…') });
    applyEntry(c, {
      type: 'agent-update',
      messageId: 'm',
      update: { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' },
    });
    const t = c.blocks[0] as Turn;
    assert.equal(t.updates.length, 2);
    assert.deepEqual(t.updates[0], { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read', status: 'completed' });
  });

  it('a call completed after its turn (Codex) updates its own card, whether no turn or the next one is running', () => {
    const c = emptyConversation();
    const run = (id: string): SessionUpdate => ({
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: 'echo hi',
      kind: 'execute',
      status: 'in_progress',
    });
    const done = (id: string): SessionUpdate => ({
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: `${id} printed hi` } }],
    });
    applyEntry(c, { type: 'prompt-started', messageId: 'm1', text: 'run it' });
    applyEntry(c, { type: 'agent-update', messageId: 'm1', update: run('a') });
    applyEntry(c, { type: 'prompt-ended', messageId: 'm1', stopReason: 'end_turn' });
    assert.deepEqual(applyEntry(c, { type: 'agent-update', update: done('a') }), ['m1'], 'no turn running: still its card');
    applyEntry(c, { type: 'agent-update', messageId: 'm1', update: run('b') });
    applyEntry(c, { type: 'prompt-started', messageId: 'm2', text: 'next' });
    assert.deepEqual(
      applyEntry(c, { type: 'agent-update', messageId: 'm2', update: done('b') }),
      ['m1'],
      'the next turn running: still its card',
    );
    const [first, second] = c.blocks as Turn[];
    assert.deepEqual(
      first!.updates.map((u) => u.sessionUpdate === 'tool_call' && [u.toolCallId, u.status, JSON.stringify(u.content)]),
      [
        ['a', 'completed', JSON.stringify((done('a') as { content: unknown }).content)],
        ['b', 'completed', JSON.stringify((done('b') as { content: unknown }).content)],
      ],
    );
    assert.deepEqual(second!.updates, [], 'nothing strays into the next turn');
  });

  it('a call announced only by its permission request (Gemini CLI) is one tool card, described by the request', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'prompt-started', messageId: 'm', text: 'write it' });
    const toolCall = {
      toolCallId: 'write_file-1',
      title: 'Writing to greeting.txt',
      kind: 'edit' as const,
      status: 'pending' as const,
      locations: [{ path: '/w/greeting.txt' }],
    };
    const options = [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' as const }];
    applyEntry(c, { type: 'permission-requested', messageId: 'm', requestId: 'r1', toolCall, options });
    // The updates that follow carry only what changed.
    applyEntry(c, {
      type: 'agent-update',
      messageId: 'm',
      update: { sessionUpdate: 'tool_call_update', toolCallId: 'write_file-1', status: 'in_progress' },
    });
    applyEntry(c, {
      type: 'agent-update',
      messageId: 'm',
      update: { sessionUpdate: 'tool_call_update', toolCallId: 'write_file-1', status: 'completed' },
    });
    const t = c.blocks[0] as Turn;
    assert.deepEqual(t.updates, [{ ...toolCall, status: 'completed', sessionUpdate: 'tool_call' }]);
  });

  it('an agent failure ends running turns and adds a notice; a restart resolves it', () => {
    const c = emptyConversation();
    applyEntry(c, { type: 'prompt-started', messageId: 'm', text: 'crash' });
    applyEntry(c, { type: 'agent-failed', noticeId: 'n1', failure });
    assert.equal((c.blocks[0] as Turn).status, 'failed');
    assert.deepEqual(c.blocks[1], { kind: 'notice', id: 'n1', level: 'error', agentName: 'ElizACP', failure, resolved: false });
    applyEntry(c, { type: 'agent-restarted', noticeId: 'n1', agentName: 'ElizACP' });
    assert.equal(c.blocks[1]?.kind === 'notice' && c.blocks[1].resolved, true);
    assert.equal(c.blocks[2]?.kind === 'notice' && c.blocks[2].level, 'info');
  });

  it('replaying the same entries (a resync) builds the same model', () => {
    const entries: ConversationEntry[] = [
      { type: 'session-ready', agentName: 'ElizACP', cwd: '/w' },
      { type: 'prompt-started', messageId: 'm', text: 'hi' },
      { type: 'agent-update', messageId: 'm', update: chunk('Hello') },
      { type: 'agent-failed', noticeId: 'n', failure },
      { type: 'agent-restarted', noticeId: 'n', agentName: 'ElizACP' },
    ];
    const a = emptyConversation(),
      b = emptyConversation();
    for (const e of entries) applyEntry(a, e);
    for (const e of entries) applyEntry(b, e);
    assert.deepEqual(a, b);
    assert.equal(a.agentName, 'ElizACP');
  });
});
