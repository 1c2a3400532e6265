import * as assert from 'node:assert/strict';
import { FrameBatch } from './frameBatch';

describe('FrameBatch (drawing once per frame)', () => {
  const manual = (): { schedule: (run: () => void) => void; frame(): void; scheduled(): number } => {
    const due: (() => void)[] = [];
    return { schedule: (run) => void due.push(run), frame: () => due.splice(0).forEach((r) => r()), scheduled: () => due.length };
  };

  it('draws the blocks changed by many messages once, on the next frame', () => {
    const frames = manual();
    const drawn: [string, string[]][] = [];
    const batch = new FrameBatch((tab, ids) => drawn.push([tab, [...ids]]), frames.schedule);
    for (let i = 0; i < 500; i++) batch.add('t1', ['m1']);
    batch.add('t1', ['m2']);
    batch.add('t2', ['x']);
    assert.equal(frames.scheduled(), 1, 'one frame asked for');
    assert.deepEqual(drawn, []);
    frames.frame();
    assert.deepEqual(drawn, [
      ['t1', ['m1', 'm2']],
      ['t2', ['x']],
    ]);
    batch.add('t1', ['m1']);
    assert.equal(frames.scheduled(), 1, 'the next change asks for the next frame');
  });

  it('flush draws at once; drop forgets a tab', () => {
    const frames = manual();
    const drawn: string[] = [];
    const batch = new FrameBatch((tab) => drawn.push(tab), frames.schedule);
    batch.add('a', ['1']);
    batch.add('b', ['1']);
    batch.drop('a');
    batch.flush();
    assert.deepEqual(drawn, ['b']);
    frames.frame(); // the frame asked for earlier finds nothing left
    assert.deepEqual(drawn, ['b']);
  });
});
