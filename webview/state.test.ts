import * as assert from 'node:assert/strict';
import { restoreState, SeenIndex } from './state';
import { TabIdMap } from './tabIds';

const SESSION = 'session-1';
const valid = { v: 1, sessionId: SESSION, tabs: {}, tabIds: {}, lastSeenIndex: { t: 3 }, drafts: { t: 'hi' }, conversations: {} };

describe('webview state', () => {
  it('restores saved state only for the same activation session', () => {
    assert.deepEqual(restoreState(valid, SESSION), valid);
    assert.equal(restoreState({ ...valid, sessionId: 'previous-activation' }, SESSION), undefined);
    assert.equal(restoreState(undefined, SESSION), undefined);
    assert.equal(restoreState({ sessionId: SESSION }, SESSION), undefined, 'old shapes start clean');
    assert.equal(restoreState({ ...valid, drafts: null }, SESSION), undefined);
  });

  it('applies each index once per tab and ignores anything at or below lastSeenIndex', () => {
    const seen = new SeenIndex({ a: 2 });
    assert.equal(seen.accept('a', 1), false);
    assert.equal(seen.accept('a', 2), false);
    assert.equal(seen.accept('a', 3), true);
    assert.equal(seen.accept('a', 3), false);
    assert.equal(seen.accept('b', 1), true, 'tabs are independent');
    assert.equal(seen.accept('a', 7), true, 'gaps are fine (coalesced messages skip indices)');
    assert.deepEqual(seen.toJSON(), { a: 7, b: 1 });
  });

  it('keeps mynah tab ids and protocol tab ids in step', () => {
    const ids = new TabIdMap({ m1: 't1' });
    ids.set('m2', 't2');
    assert.equal(ids.tabId('m2'), 't2');
    assert.equal(ids.mynahId('t1'), 'm1');
    assert.equal(ids.deleteMynah('m1'), 't1');
    assert.equal(ids.mynahId('t1'), undefined);
    assert.deepEqual(ids.toJSON(), { m2: 't2' });
  });
});
