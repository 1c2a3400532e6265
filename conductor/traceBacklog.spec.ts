import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { TickBatchedWrites } from './trace';

/** A stream whose reader is stopped until `release()`: writes queue, then drain. */
function stalledStream(): { stream: Writable; written: string[]; release(): void } {
  const written: string[] = [];
  let held: (() => void)[] = [];
  let stalled = true;
  const stream = new Writable({
    highWaterMark: 64,
    write(chunk: Buffer, _enc, done) {
      written.push(chunk.toString());
      if (stalled) held.push(done);
      else done();
    },
  });
  return {
    stream,
    written,
    release: () => {
      stalled = false;
      const all = held;
      held = [];
      for (const d of all) d();
    },
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('trace lines to a reader that falls behind (the editor’s trace pipe)', () => {
  it('drops lines past the backlog bound until the stream drains, and says so both times', async () => {
    const s = stalledStream();
    const reports: number[] = [];
    const out = new TickBatchedWrites(s.stream, { maxBacklog: 100, onDrop: (n) => reports.push(n) });
    out.write('a'.repeat(60)); // queued
    await tick();
    out.write('b'.repeat(60)); // backlog 61 + 61 > 100 after the next line
    await tick();
    out.write('c'.repeat(60));
    out.write('d'.repeat(60));
    await tick();
    assert.deepEqual(reports, [0], 'dropping began, once');
    s.release();
    await tick();
    assert.deepEqual(reports, [0, 2], 'resumed after two dropped lines');
    out.write('e');
    await tick();
    const text = s.written.join('');
    assert.ok(text.includes('a'.repeat(60)) && text.includes('b'.repeat(60)) && text.endsWith('e\n'));
    assert.ok(!text.includes('c') && !text.includes('d'), 'the dropped lines are not written later');
  });

  it('without a bound (a trace file) nothing is dropped', async () => {
    const s = stalledStream();
    const out = new TickBatchedWrites(s.stream);
    for (let i = 0; i < 100; i++) out.write(`line ${i}`);
    await tick();
    s.release();
    await tick();
    assert.equal(s.written.join('').split('\n').filter(Boolean).length, 100);
  });
});
