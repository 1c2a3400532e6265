import * as assert from 'node:assert/strict';
import { DelayedCall } from './delayedCall';
import { ManualTimers } from './manualTimers';

describe('delayed call (batched state saves)', () => {
  it('debounced: a burst of schedules runs once, after the last', () => {
    const timers = new ManualTimers();
    let runs = 0;
    const call = new DelayedCall(() => runs++, 300, true, timers);
    for (let i = 0; i < 10; i++) call.schedule();
    assert.equal(runs, 0);
    assert.equal(timers.pending, 1, 'each schedule replaces the pending timer');
    timers.runAll();
    assert.equal(runs, 1);
    assert.equal(call.isPending(), false);
  });

  it('not debounced: later schedules join the pending call', () => {
    const timers = new ManualTimers();
    let runs = 0;
    const call = new DelayedCall(() => runs++, 50, false, timers);
    call.schedule();
    call.schedule();
    assert.equal(timers.pending, 1);
    timers.runAll();
    assert.equal(runs, 1);
  });

  it('flush runs a pending call now; cancel drops it', () => {
    const timers = new ManualTimers();
    let runs = 0;
    const call = new DelayedCall(() => runs++, 300, true, timers);
    call.flush();
    assert.equal(runs, 0, 'nothing pending, nothing run');
    call.schedule();
    call.flush();
    assert.equal(runs, 1);
    assert.equal(timers.pending, 0);
    call.schedule();
    call.cancel();
    timers.runAll();
    assert.equal(runs, 1);
  });
});
