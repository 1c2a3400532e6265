import * as assert from 'node:assert/strict';
import { Router } from './router';

const T1 = 'tab-1',
  T2 = 'tab-2';

describe('Router', () => {
  it('maps both directions and removes them together', () => {
    const r = new Router();
    r.bind(T1, { actorKey: 'a', sessionId: 's1' });
    assert.deepEqual(r.sessionFor(T1), { actorKey: 'a', sessionId: 's1' });
    assert.equal(r.tabFor({ actorKey: 'a', sessionId: 's1' }), T1);
    assert.deepEqual(r.unbindTab(T1), { actorKey: 'a', sessionId: 's1' });
    assert.equal(r.sessionFor(T1), undefined);
    assert.equal(r.tabFor({ actorKey: 'a', sessionId: 's1' }), undefined);
    assert.deepEqual(r.sizes(), { tabs: 0, sessions: 0 });
  });

  it('keeps equal session ids of different agent processes apart', () => {
    const r = new Router();
    r.bind(T1, { actorKey: 'a', sessionId: 's1' });
    r.bind(T2, { actorKey: 'b', sessionId: 's1' });
    assert.equal(r.tabFor({ actorKey: 'a', sessionId: 's1' }), T1);
    assert.equal(r.tabFor({ actorKey: 'b', sessionId: 's1' }), T2);
  });

  it('rebinding a tab drops its old session, rebinding a session drops its old tab', () => {
    const r = new Router();
    r.bind(T1, { actorKey: 'a', sessionId: 's1' });
    r.bind(T1, { actorKey: 'a', sessionId: 's2' });
    assert.equal(r.tabFor({ actorKey: 'a', sessionId: 's1' }), undefined);
    r.bind(T2, { actorKey: 'a', sessionId: 's2' });
    assert.equal(r.sessionFor(T1), undefined);
    assert.deepEqual(r.sizes(), { tabs: 1, sessions: 1 });
  });

  it('lists the tabs of one agent process', () => {
    const r = new Router();
    r.bind(T1, { actorKey: 'a', sessionId: 's1' });
    r.bind(T2, { actorKey: 'a', sessionId: 's2' });
    r.bind('tab-3', { actorKey: 'b', sessionId: 's1' });
    assert.deepEqual(r.tabsOf('a').sort(), [T1, T2]);
  });
});
