import * as assert from 'node:assert/strict';
import { DelayedCall, SpacedByCost } from './delayedCall';
import { ManualTimers } from './test/manualTimers';

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

  it('asks a changing wait at each schedule', () => {
    const timers = new ManualTimers();
    let wait = 50;
    const call = new DelayedCall(
      () => undefined,
      () => wait,
      false,
      timers,
    );
    call.schedule();
    timers.runAll();
    wait = 400;
    call.schedule();
    assert.deepEqual(timers.asked, [50, 400]);
  });
});

describe('saves spaced by their cost (SpacedByCost)', () => {
  it('waits `factor` times what the last save took, within its bounds', () => {
    const spacing = new SpacedByCost({ minMs: 50, maxMs: 1000, factor: 20 });
    assert.equal(spacing.ms, 50, 'no save yet: the shortest wait');
    spacing.record(1);
    assert.equal(spacing.ms, 50, 'a cheap save (20 ms × 1): still the shortest');
    spacing.record(12);
    assert.equal(spacing.ms, 240, 'a 12 ms save: 240 ms apart, at most 1/20 of the time saving');
    spacing.record(300);
    assert.equal(spacing.ms, 1000, 'never more than the longest wait');
    spacing.record(0.5);
    assert.equal(spacing.ms, 50, 'cheap again (a conversation was closed): back to the shortest');
  });
});
