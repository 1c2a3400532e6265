import * as assert from 'node:assert/strict';
import { KnownToolCalls } from './knownToolCalls';

describe('KnownToolCalls: a permission request read with what its tool call said before', () => {
  it('fills what the request leaves out (the kind) from the earlier tool_call and updates; what the request gives wins', () => {
    const known = new KnownToolCalls();
    known.record('s', { sessionUpdate: 'tool_call', toolCallId: 'b1', title: 'Bash', kind: 'execute', rawInput: {} });
    known.record('s', { sessionUpdate: 'tool_call_update', toolCallId: 'b1', title: '`ls`', rawInput: { command: 'ls' } });
    known.record('s', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } });
    assert.deepEqual(known.complete('s', { toolCallId: 'b1', title: '`ls -la`', rawInput: null }), {
      toolCallId: 'b1',
      kind: 'execute',
      title: '`ls -la`',
      rawInput: { command: 'ls' },
    });
    // Another session, another call, or a forgotten session: the request as it came.
    assert.deepEqual(known.complete('other', { toolCallId: 'b1' }), { toolCallId: 'b1' });
    assert.deepEqual(known.complete('s', { toolCallId: 'b2' }), { toolCallId: 'b2' });
    known.forget('s');
    assert.deepEqual(known.complete('s', { toolCallId: 'b1' }), { toolCallId: 'b1' });
  });

  it('keeps the newest calls of a session only', () => {
    const known = new KnownToolCalls(2);
    for (const id of ['a', 'b', 'c']) known.record('s', { sessionUpdate: 'tool_call', toolCallId: id, title: id, kind: 'read' });
    assert.deepEqual(known.complete('s', { toolCallId: 'a' }), { toolCallId: 'a' });
    assert.deepEqual(known.complete('s', { toolCallId: 'c' }), { toolCallId: 'c', title: 'c', kind: 'read' });
  });
});
