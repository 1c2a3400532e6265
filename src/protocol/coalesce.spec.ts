import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { appendUpdate, coalesce, mergeUpdates } from './coalesce';

const chunk = (text: string, kind: 'agent_message_chunk' | 'agent_thought_chunk' = 'agent_message_chunk'): SessionUpdate => ({
  sessionUpdate: kind,
  content: { type: 'text', text },
});

describe('coalesce', () => {
  it('concatenates text chunks of the same kind', () => {
    assert.deepEqual(mergeUpdates(chunk('Hel'), chunk('lo')), chunk('Hello'));
  });
  it('does not merge different kinds, different ACP message ids, or non-text content', () => {
    assert.equal(mergeUpdates(chunk('a'), chunk('b', 'agent_thought_chunk')), undefined);
    assert.equal(
      mergeUpdates({ ...chunk('a'), messageId: 'x' } as SessionUpdate, { ...chunk('b'), messageId: 'y' } as SessionUpdate),
      undefined,
    );
    assert.equal(
      mergeUpdates(chunk('a'), { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: '', mimeType: 'image/png' } }),
      undefined,
    );
  });
  it('folds tool_call_update into the tool call it updates', () => {
    const call: SessionUpdate = { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', status: 'pending' };
    const upd: SessionUpdate = { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' };
    assert.deepEqual(mergeUpdates(call, upd), { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', status: 'completed' });
    assert.equal(mergeUpdates(call, { ...upd, toolCallId: 't2' } as SessionUpdate), undefined);
  });
  it('a tool_call repeated with the same id (Claude Code: nearly empty, then full) is one call, updated', () => {
    const early: SessionUpdate = {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Write',
      kind: 'edit',
      status: 'pending',
      rawInput: {},
    };
    const full: SessionUpdate = {
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Write /w/a.txt',
      kind: 'edit',
      status: 'pending',
      rawInput: { file_path: '/w/a.txt' },
      locations: [{ path: '/w/a.txt' }],
    };
    const done: SessionUpdate = { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' };
    const updates: SessionUpdate[] = [];
    // With other updates in between, as when a permission request or text came first.
    for (const u of [early, chunk('thinking it over'), full, done]) appendUpdate(updates, u);
    assert.deepEqual(updates, [{ ...full, status: 'completed' }, chunk('thinking it over')]);
    assert.deepEqual(mergeUpdates(early, full), full, 'back to back (the outbox) too');
  });
  it('keeps only the latest plan', () => {
    const p1: SessionUpdate = { sessionUpdate: 'plan', entries: [] };
    const p2: SessionUpdate = { sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'high', status: 'pending' }] };
    assert.deepEqual(mergeUpdates(p1, p2), p2);
  });
  it('merges messages only within one prompt turn and keeps the later index', () => {
    const a = { type: 'agent-update', tabId: 't', messageId: 'm', update: chunk('a'), index: 1 };
    const b = { type: 'agent-update', tabId: 't', messageId: 'm', update: chunk('b'), index: 2 };
    assert.deepEqual(coalesce(a, b), { ...b, update: chunk('ab') });
    assert.equal(coalesce(a, { ...b, messageId: 'other' }), undefined);
    assert.equal(coalesce(a, { type: 'prompt-ended', tabId: 't', messageId: 'm', index: 3 } as never), undefined);
  });
});
