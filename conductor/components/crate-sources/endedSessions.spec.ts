import * as assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { EndedSessions } from './endedSessions';

describe('crate-sources: ended research sessions', () => {
  it('are remembered for the grace period, then forgotten (the set does not grow for good)', async () => {
    const ended = new EndedSessions(40);
    ended.add('r1');
    ended.add('r2');
    assert.ok(ended.has('r1') && ended.has('r2'));
    assert.equal(ended.size, 2);
    await sleep(80);
    assert.equal(ended.has('r1'), false);
    assert.equal(ended.size, 0);
  });

  it('a session ended again starts its grace period again', async () => {
    const ended = new EndedSessions(60);
    ended.add('r1');
    await sleep(40);
    ended.add('r1');
    await sleep(40);
    assert.ok(ended.has('r1'), 'still within the second grace period');
    await sleep(50);
    assert.equal(ended.has('r1'), false);
  });

  it('clear forgets every session at once', () => {
    const ended = new EndedSessions(10_000);
    ended.add('r1');
    ended.clear();
    assert.equal(ended.size, 0);
  });
});
