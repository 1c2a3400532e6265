// The session directory: what the editor's handlers and the permission broker learn about a
// session, and that every way a binding ends is reported once.
import * as assert from 'node:assert/strict';
import { SessionDirectory, type SessionRef } from './sessionDirectory';

const T1 = 'tab-1',
  T2 = 'tab-2',
  T3 = 'tab-3';

function setup() {
  const d = new SessionDirectory();
  const ended: SessionRef[] = [];
  d.onDidEndSession((r) => ended.push(r));
  d.bind(T1, { actorKey: 'a', sessionId: 's1' }, { cwd: '/ws/one', agentName: 'A' });
  d.bind(T2, { actorKey: 'a', sessionId: 's2' }, { cwd: '/ws/one', agentName: 'A' });
  d.bind(T3, { actorKey: 'b', sessionId: 's1' }, { cwd: '/ws/two', additionalDirectories: ['/ws/three'], agentName: 'B' });
  return { d, ended };
}

describe('SessionDirectory', () => {
  it('looks a session up: its tab, folder and agent; equal session IDs of two processes stay apart', () => {
    const { d } = setup();
    assert.deepEqual(d.lookupSession('a', 's1'), { tabId: T1, cwd: '/ws/one', additionalDirectories: [], agentName: 'A' });
    assert.deepEqual(d.lookupSession('b', 's1'), { tabId: T3, cwd: '/ws/two', additionalDirectories: ['/ws/three'], agentName: 'B' });
    // The folders the editor serves a session: its cwd first, then the additional directories the agent was given.
    assert.deepEqual(d.foldersOf(T1), ['/ws/one']);
    assert.deepEqual(d.foldersOf(T3), ['/ws/two', '/ws/three']);
    assert.deepEqual(d.foldersOf('no-such-tab'), []);
    assert.equal(d.lookupSession('a', 's3'), undefined);
    assert.deepEqual(d.sessionFor(T2), { actorKey: 'a', sessionId: 's2' });
  });

  it('turnFor: the tab, and the prompt turn while one runs', () => {
    const { d } = setup();
    assert.deepEqual(d.turnFor('a', 's1'), { tabId: T1, messageId: undefined });
    d.startTurn(T1, 'm1');
    assert.deepEqual(d.turnFor('a', 's1'), { tabId: T1, messageId: 'm1' });
    d.endTurn(T1);
    assert.deepEqual(d.turnFor('a', 's1'), { tabId: T1, messageId: undefined });
    assert.equal(d.turnFor('c', 's1'), undefined);
  });

  it("a closed tab's session ends once and is no longer found", () => {
    const { d, ended } = setup();
    assert.deepEqual(d.unbindTab(T1), { actorKey: 'a', sessionId: 's1' });
    assert.equal(d.unbindTab(T1), undefined);
    assert.deepEqual(ended, [{ actorKey: 'a', sessionId: 's1' }]);
    assert.equal(d.lookupSession('a', 's1'), undefined);
  });

  it('a dead agent process ends every session it had, and only those', () => {
    const { d, ended } = setup();
    assert.deepEqual(d.unbindActor('a').sort(), [T1, T2]);
    assert.deepEqual(ended.map((r) => r.sessionId).sort(), ['s1', 's2']);
    assert.ok(ended.every((r) => r.actorKey === 'a'));
    assert.equal(d.lookupSession('a', 's2'), undefined);
    assert.deepEqual(d.lookupSession('b', 's1')?.tabId, T3);
  });
});
