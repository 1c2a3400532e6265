// The read coalescer: its rules on a stand-in for a socket's handle (pure logic), then a
// LineChannel on a real pipe from a real child process: a running stream is read in far fewer
// reads, every line arriving once and in order; requests answered back and forth are never held.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { LineChannel } from './lineChannel';
import { ReadCoalescer } from './readCoalescer';
import type { RpcMessage } from './message';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A stream with a handle like a socket's, counting what the coalescer does to it. */
function fakeSocket() {
  const calls: string[] = [];
  const stream = new PassThrough() as PassThrough & { _handle: unknown };
  stream._handle = {
    readStop: () => (calls.push('stop'), 0),
    readStart: () => (calls.push('start'), 0),
  };
  return { stream, calls };
}

describe('ReadCoalescer', () => {
  it('holds reading after a run of small, close reads, and reads again about a millisecond later', async () => {
    // The reads below come back to back; a clock that stands still keeps a descheduled test
    // process from turning them into reads "far apart" (the rule's 2 ms).
    const realNow = performance.now;
    performance.now = () => 1000;
    try {
      await holdsThenReads();
    } finally {
      performance.now = realNow;
    }
  });

  async function holdsThenReads(): Promise<void> {
    const { stream, calls } = fakeSocket();
    const c = new ReadCoalescer(stream);
    for (let i = 0; i < 8; i++) c.afterRead(200);
    assert.deepEqual(calls, [], 'eight reads are not a stream yet');
    c.afterRead(200);
    assert.deepEqual(calls, ['stop']);
    c.afterRead(200); // a read already under way when the hold began: no second hold
    assert.deepEqual(calls, ['stop']);
    const held = Date.now();
    while (calls.length < 2 && Date.now() - held < 1000) await new Promise((r) => setImmediate(r));
    assert.deepEqual(calls, ['stop', 'start']);
    c.afterRead(200); // the stream runs on (the read right after the hold): held again
    assert.deepEqual(calls, ['stop', 'start', 'stop']);
    c.stop();
    assert.deepEqual(calls, ['stop', 'start', 'stop', 'start'], 'stop() ends a hold at once');
    for (let i = 0; i < 20; i++) c.afterRead(200);
    assert.equal(calls.length, 4, 'and no hold after stop()');
  }

  it('never holds requests and answers going back and forth, large reads, or reads far apart', async () => {
    const { stream, calls } = fakeSocket();
    const c = new ReadCoalescer(stream);
    for (let i = 0; i < 50; i++) {
      c.sent();
      c.afterRead(200);
      c.afterRead(200);
    }
    for (let i = 0; i < 50; i++) c.afterRead(64 * 1024);
    for (let i = 0; i < 12; i++) {
      c.afterRead(200);
      await sleep(5);
    }
    assert.deepEqual(calls, []);
  });

  it('does not restart a handle that was replaced or closed during the hold; a stream without one is left alone', async () => {
    const { stream, calls } = fakeSocket();
    const c = new ReadCoalescer(stream);
    for (let i = 0; i < 9; i++) c.afterRead(200);
    assert.deepEqual(calls, ['stop']);
    stream._handle = null;
    await sleep(20);
    assert.deepEqual(calls, ['stop']);
    const plain = new ReadCoalescer(new PassThrough());
    for (let i = 0; i < 20; i++) plain.afterRead(200); // nothing to hold: no throw
  });
});

/** A child process that writes `count` one-line messages, one per event-loop turn (tickWriter.mjs). */
function streamingChild(count: number): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [resolve(__dirname, '../test/fixtures/tickWriter.mjs'), String(count)], { stdio: 'pipe' });
}

/** A child process that answers each request line at once with a result line. */
function echoChild(): ChildProcessWithoutNullStreams {
  const program = `
    let buf = '';
    process.stdin.setEncoding('utf8').on('data', (d) => {
      buf += d;
      for (let nl = buf.indexOf('\\n'); nl !== -1; nl = buf.indexOf('\\n')) {
        const m = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { echo: m.params } }) + '\\n');
      }
    });
  `;
  return spawn(process.execPath, ['-e', program], { stdio: 'pipe' });
}

/** Counts the reads of `child.stdout` and the holds the coalescer puts on its handle. */
function countReads(child: ChildProcessWithoutNullStreams): { reads: number; holds: number } {
  const counts = { reads: 0, holds: 0 };
  child.stdout.on('data', () => counts.reads++);
  const handle = (child.stdout as unknown as { _handle: { readStop(): number } })._handle;
  const readStop = handle.readStop.bind(handle);
  handle.readStop = () => {
    counts.holds++;
    return readStop();
  };
  return counts;
}

describe('LineChannel with coalesced reads, on a real pipe', function () {
  this.timeout(30_000);

  it('reads a running stream in far fewer reads, every line once and in order', async () => {
    const lines = 5000;
    const child = streamingChild(lines);
    const counts = countReads(child);
    const seen: number[] = [];
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    new LineChannel(
      child.stdout,
      child.stdin,
      {
        message: (m: RpcMessage) => {
          seen.push((m as { params: { i: number } }).params.i);
          if (seen.length === lines) done();
        },
        invalid: (line) => assert.fail(`invalid line ${line}`),
        end: () => undefined,
      },
      { coalesceReads: true },
    );
    await all;
    child.kill();
    assert.deepEqual(
      seen,
      Array.from({ length: lines }, (_, i) => i),
    );
    // One line per read is what a reader keeping pace gets; held, each read carries many. A reader
    // that is behind (a busy machine) reads full buffers and is rightly never held: then the reads
    // are few without a hold.
    assert.ok(counts.holds > 0 || counts.reads < lines / 50, `the stream was held (${counts.reads} reads)`);
    assert.ok(counts.reads < lines / 5, `${counts.reads} reads for ${lines} lines`);
  });

  it('never holds requests answered back and forth, however fast', async () => {
    const child = echoChild();
    const counts = countReads(child);
    const waiting = new Map<number, () => void>();
    const channel = new LineChannel(
      child.stdout,
      child.stdin,
      {
        message: (m: RpcMessage) => waiting.get((m as { id: number }).id)?.(),
        invalid: (line) => assert.fail(`invalid line ${line}`),
        end: () => undefined,
      },
      { coalesceReads: true },
    );
    for (let id = 1; id <= 300; id++) {
      await new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        channel.send({ jsonrpc: '2.0', id, method: 'ping', params: { id } });
      });
    }
    child.kill();
    assert.equal(counts.holds, 0);
    assert.ok(counts.reads >= 300);
  });

  it('reads what waits in the pipe when the writer exits during a hold, in a process nothing else keeps alive', () => {
    // A held read stops the pipe's handle, which then no longer keeps the process alive: the hold's
    // own timer does.
    const reader = resolve(__dirname, '../test/fixtures/coalescedReader.ts');
    for (let i = 0; i < 3; i++) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', reader, '5000'], { encoding: 'utf8' });
      assert.equal(run.stderr.trim(), 'seen 5000');
    }
  });
});
