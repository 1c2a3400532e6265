// TickBatch: the lines of one tick leave as bytes, every line once, in order, whole, encoded as
// UTF-8 — across slab boundaries, for lines larger than a slab, and for characters of every width.
import * as assert from 'node:assert/strict';
import { TickBatch } from './tickBatch';

const nextTick = (): Promise<void> => new Promise((r) => process.nextTick(r));

describe('TickBatch (lines written together as bytes, once per tick)', () => {
  it('writes the lines added in one tick as one write, on the next tick', async () => {
    const writes: Buffer[] = [];
    const batch = new TickBatch((bytes) => writes.push(bytes));
    batch.add('{"a":1}');
    batch.add('{"b":2}');
    assert.equal(writes.length, 0, 'nothing is written in the same tick');
    assert.equal(batch.pending, 16);
    await nextTick();
    assert.deepEqual(
      writes.map((b) => b.toString()),
      ['{"a":1}\n{"b":2}\n'],
    );
    assert.equal(batch.pending, 0);
  });

  it('keeps every byte of many lines, multi-byte characters and lines larger than a slab included', async () => {
    const writes: Buffer[] = [];
    const batch = new TickBatch((bytes) => writes.push(Buffer.from(bytes)));
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(`{"n":${i},"text":"${'é漢😀'.repeat(i % 7)}${'x'.repeat(i % 50)}"}`);
    lines.push('y'.repeat(200_000), `{"big":"${'漢'.repeat(70_000)}"}`, 'tail');
    for (const line of lines) batch.add(line);
    await nextTick();
    assert.ok(writes.length > 1, 'more than one slab was used');
    assert.equal(Buffer.concat(writes).toString('utf8'), lines.join('\n') + '\n');
  });

  it('writes at once on flush(), and forgets what waits on clear()', async () => {
    const writes: string[] = [];
    const batch = new TickBatch((bytes) => writes.push(bytes.toString()));
    batch.add('one');
    batch.flush();
    assert.deepEqual(writes, ['one\n']);
    batch.add('lost');
    batch.clear();
    batch.add('two');
    await nextTick();
    assert.deepEqual(writes, ['one\n', 'two\n']);
  });

  it('never changes bytes it already handed out (the writer may hold them until written)', async () => {
    const handed: Buffer[] = [];
    const batch = new TickBatch((bytes) => handed.push(bytes));
    batch.add('first');
    await nextTick();
    const copy = Buffer.from(handed[0]!);
    for (let i = 0; i < 100; i++) batch.add(`line ${i} ${'z'.repeat(i * 10)}`);
    await nextTick();
    assert.deepEqual(handed[0], copy);
  });
});
