// The history actor's decision, table-driven from the two sequence diagrams of docs/language-model.md (commit flow,
// cancellation via history mismatch) plus edits in the middle, regenerate, tool rounds, and two
// interleaved conversations.
import { strict as assert } from 'node:assert';
import type { LmMessage, LmPart } from '../../src/protocol/lm';
import { commit, emptyHistory, matchRequest, record, restart, sharedPrefix, type HistoryState } from './history';

const U = (t: string): LmMessage => ({ role: 'user', content: [{ type: 'text', value: t }] });
const A = (...parts: LmPart[]): LmMessage => ({ role: 'assistant', content: parts });
const T = (v: string): LmPart => ({ type: 'text', value: v });

/** committed = [], provisional = (U1, [P1, P2, P3]): the state of the first diagram. */
function afterFirstTurn(): HistoryState {
  let s = restart([], U('U1'));
  for (const p of ['P1', 'P2', 'P3']) s = record(s, T(p));
  return s;
}

describe('LM history actor (the commit and mismatch diagrams)', () => {
  const cases: { name: string; state: () => HistoryState; messages: LmMessage[]; expect: 'extends' | 'mismatch' }[] = [
    { name: 'first request of a conversation', state: emptyHistory, messages: [U('U1')], expect: 'extends' },
    { name: 'commit flow: [U1, A1, U2] extends', state: afterFirstTurn, messages: [U('U1'), A(T('P1P2P3')), U('U2')], expect: 'extends' },
    {
      name: 'commit flow: the consumer split the text differently',
      state: afterFirstTurn,
      messages: [U('U1'), A(T('P1'), T(''), T('P2P3')), U('U2')],
      expect: 'extends',
    },
    {
      name: 'mismatch: [U1, A1, U3] after a different answer',
      state: afterFirstTurn,
      messages: [U('U1'), A(T('other')), U('U3')],
      expect: 'mismatch',
    },
    { name: 'regenerate: [U1] again', state: afterFirstTurn, messages: [U('U1')], expect: 'mismatch' },
    { name: 'edit in the middle', state: afterFirstTurn, messages: [U('U1 edited'), A(T('P1P2P3')), U('U2')], expect: 'mismatch' },
    { name: 'a different conversation', state: afterFirstTurn, messages: [U('V1')], expect: 'mismatch' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(matchRequest(c.state(), c.messages).kind, c.expect));
  }

  it('commit: committed = [U1, A1], provisional = (U2, [])', () => {
    const m = matchRequest(afterFirstTurn(), [U('U1'), A(T('P1P2P3')), U('U2')]);
    assert.equal(m.kind, 'extends');
    const s = commit(afterFirstTurn(), m.newUser);
    assert.deepEqual(s.committed, [U('U1'), A(T('P1'), T('P2'), T('P3'))]);
    assert.deepEqual(s.provisional, { user: U('U2'), parts: [] });
  });

  it('mismatch: the provisional part is discarded, the request history becomes committed', () => {
    let s = commit(afterFirstTurn(), U('U2'));
    s = record(s, T('P1'));
    const m = matchRequest(s, [U('U1'), A(T('P1P2P3')), U('U3')]);
    assert.equal(m.kind, 'mismatch');
    if (m.kind !== 'mismatch') return;
    const r = restart(m.prior, m.newUser);
    assert.deepEqual(r.provisional, { user: U('U3'), parts: [] });
    assert.equal(r.committed.length, 2);
  });

  it('a tool round: calls in the answer, results in the next user message', () => {
    const call = (id: string): LmPart => ({ type: 'tool_call', callId: id, name: 't', input: { b: 1, a: 2 } });
    let s = restart([], U('go'));
    s = record(record(s, call('c1')), call('c2'));
    const results: LmMessage = {
      role: 'user',
      content: [
        { type: 'tool_result', callId: 'c2', content: [T('two')] },
        { type: 'tool_result', callId: 'c1', content: [T('one')] },
      ],
    };
    // Key order of the inputs does not matter.
    const echoed = A({ type: 'tool_call', callId: 'c1', name: 't', input: { a: 2, b: 1 } }, call('c2'));
    assert.equal(matchRequest(s, [U('go'), echoed, results]).kind, 'extends');
  });

  it('two interleaved conversations: each request extends exactly one history', () => {
    const a = afterFirstTurn();
    const b = record(restart([], U('V1')), T('Q1'));
    const toA = [U('U1'), A(T('P1P2P3')), U('U2')];
    const toB = [U('V1'), A(T('Q1')), U('V2')];
    assert.equal(matchRequest(a, toA).kind, 'extends');
    assert.equal(matchRequest(b, toA).kind, 'mismatch');
    assert.equal(matchRequest(b, toB).kind, 'extends');
    assert.equal(matchRequest(a, toB).kind, 'mismatch');
    assert.equal(sharedPrefix(a, toB), 0);
  });

  it('refuses a request that does not end with a user message', () => {
    assert.throws(() => matchRequest(afterFirstTurn(), [U('U1'), A(T('P1P2P3'))]), /must end with a user message/);
  });
});
