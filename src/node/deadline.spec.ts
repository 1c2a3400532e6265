import * as assert from 'node:assert/strict';
import { delay, within } from './deadline';

describe('within (a wait with a deadline)', () => {
  it('gives the value of work that settles in time', async () => {
    assert.deepEqual(
      await within(
        1_000,
        delay(5).then(() => 42),
      ),
      { value: 42 },
    );
  });

  it('gives undefined once the deadline passes, and ignores a later failure', async () => {
    let unhandled = 0;
    const count = (): void => void unhandled++;
    process.on('unhandledRejection', count);
    try {
      const started = Date.now();
      const late = delay(200).then(() => Promise.reject(new Error('too late')));
      assert.equal(await within(20, late), undefined);
      assert.ok(Date.now() - started < 150, 'did not wait for the work');
      await delay(250);
      assert.equal(unhandled, 0);
    } finally {
      process.off('unhandledRejection', count);
    }
  });

  it('throws a failure that comes before the deadline', async () => {
    await assert.rejects(within(1_000, Promise.reject(new Error('no'))), /no/);
  });
});
