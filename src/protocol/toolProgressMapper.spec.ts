// Tool progress → the tool card it belongs to: the session's latest running call of that tool.
import * as assert from 'node:assert/strict';
import { toolProgressOf } from './symposium-ext';
import { ToolProgressMapper } from './toolProgressMapper';

describe('tool progress mapping', () => {
  const p = { sessionId: 's', server: 'rust-crate-sources', tool: 'rust_crate_query', message: 'Downloading serde', progress: 1, total: 4 };

  it('attributes progress to the latest running card of the tool and drops it when none runs', () => {
    const m = new ToolProgressMapper();
    assert.equal(m.toUpdate(p), undefined);
    m.observe('s', { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'rust-crate-sources::rust_crate_query', status: 'in_progress' });
    m.observe('s', { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'other::tool', status: 'in_progress' });
    const u = m.toUpdate(p);
    assert.equal(u?.sessionUpdate, 'tool_call_update');
    assert.equal((u as { toolCallId: string }).toolCallId, 'a');
    assert.deepEqual(toolProgressOf(u), { message: 'Downloading serde', progress: 1, total: 4 });
    m.observe('s', { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' });
    assert.equal((m.toUpdate(p) as { toolCallId: string }).toolCallId, 'b', 'else the latest running card');
    m.observe('s', { sessionUpdate: 'tool_call_update', toolCallId: 'b', status: 'failed' });
    assert.equal(m.toUpdate(p), undefined);
    assert.equal(m.toUpdate({ ...p, sessionId: 'other' }), undefined, 'never another session');
  });
});
