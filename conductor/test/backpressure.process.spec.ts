// Backpressure through the conductor, with real processes on real pipes: 200 MB waiting to
// cross while the receiving side does not read must not pile up in the conductor's memory
// (measured: the conductor's VmRSS), and once the receiver reads again everything arrives,
// complete and in order.
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleep, tempDir } from './harness';
import { initSession, MB, promptParams, rssOf, startRaw, type RawClient } from './rawClient';

const FLOOD_BYTES = 200 * MB;
const CHUNK = 64 * 1024;
const LIMIT = 64 * MB;

/** Samples the conductor's RSS until `settled` says the sender is done or stuck; returns the peak. */
async function peakRss(c: RawClient, settled: () => boolean, maxMs = 60_000): Promise<number> {
  let peak = 0;
  const start = Date.now();
  while (!settled() && Date.now() - start < maxMs) {
    peak = Math.max(peak, rssOf(c.child.pid!));
    await sleep(20);
  }
  return Math.max(peak, rssOf(c.child.pid!));
}

/** Samples the conductor's RSS in the background; the returned function stops and gives the peak. */
function sampleRss(c: RawClient): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(c.child.pid!));
    } catch {
      /* exited */
    }
  }, 20);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** True once `progress()` has not changed for `quietMs` (or `done()` holds). */
function stalled(progress: () => number, done: () => boolean, quietMs = 1000): () => boolean {
  let last = -1;
  let since = Date.now();
  return () => {
    if (done()) return true;
    const p = progress();
    if (p !== last) {
      last = p;
      since = Date.now();
    }
    return Date.now() - since >= quietMs;
  };
}

const report = (what: string, numbers: Record<string, number>): void => {
  const mb = (n: number): string => `${(n / MB).toFixed(1)} MB`;
  process.stderr.write(
    `      [${what}] ${Object.entries(numbers)
      .map(([k, v]) => `${k} ${k.endsWith('Ms') ? `${v} ms` : mb(v)}`)
      .join(', ')}\n`,
  );
};

describe('conductor backpressure (real processes, 200 MB)', function () {
  this.timeout(120_000);
  let c: RawClient | undefined;
  afterEach(() => {
    c?.kill();
    c = undefined;
  });

  it('an agent streaming 200 MB to an editor that does not read: RSS stays bounded, then every update arrives in order', async () => {
    const statusFile = join(tempDir(), 'status.json');
    c = startRaw({ env: { HOSTILE_STATUS_FILE: statusFile } });
    const { sessionId } = await initSession(c);
    const agentStatus = (): { bytes: number; done: boolean } => {
      try {
        return JSON.parse(readFileSync(statusFile, 'utf8')) as { bytes: number; done: boolean };
      } catch {
        return { bytes: 0, done: false };
      }
    };
    const base = rssOf(c.child.pid!);
    const started = Date.now();
    c.pauseReading();
    c.send({ jsonrpc: '2.0', id: 'flood', method: 'session/prompt', params: promptParams(sessionId, `flood ${FLOOD_BYTES} ${CHUNK}`) });
    const peak = await peakRss(
      c,
      stalled(
        () => agentStatus().bytes,
        () => agentStatus().done,
      ),
    );
    const sentWhileStuck = agentStatus().bytes;

    let next = 0;
    let updates = 0;
    let outOfOrder = 0;
    let responseAfterUpdates = true;
    c.onLine = (line, text) => {
      if (line.method !== 'session/update') {
        if (line.id === 'flood' && updates === 0) responseAfterUpdates = false;
        return;
      }
      const seq = Number(/"text":"(\d+):/.exec(text)?.[1]);
      if (seq !== next) outOfOrder++;
      next = seq + 1;
      updates++;
      return false;
    };
    const draining = sampleRss(c);
    c.resumeReading();
    const done = await c.response('flood', 90_000);
    const count = (done.result as { _meta: { count: number } })._meta.count;
    report('agent → editor', {
      baseline: base,
      growthWhileStuck: peak - base,
      agentSentWhileStuck: sentWhileStuck,
      growthWhileFlowing: draining() - base,
      totalMs: Date.now() - started,
    });
    assert.equal(updates, count, 'every update arrived');
    assert.equal(outOfOrder, 0, 'updates arrived in order');
    assert.ok(responseAfterUpdates, 'the prompt response came after its updates');
    assert.ok(peak - base <= LIMIT, `conductor RSS grew by ${((peak - base) / MB).toFixed(1)} MB with 200 MB waiting`);
  });

  it('an editor sending 200 MB to an agent that stopped reading: RSS stays bounded, then every message arrives in order', async () => {
    c = startRaw();
    const { sessionId } = await initSession(c);
    const stopped = await c.request('stop', 'session/prompt', promptParams(sessionId, 'stop-reading'));
    const agentPid = (stopped.result as { _meta: { pid: number } })._meta.pid;
    const base = rssOf(c.child.pid!);
    const started = Date.now();
    const pad = 'y'.repeat(CHUNK);
    let written = 0;
    let seq = 0;
    let finished = false;
    const stdin = c.child.stdin;
    const writer = (async () => {
      while (written < FLOOD_BYTES) {
        const line = `{"jsonrpc":"2.0","method":"_flood/chunk","params":{"seq":${seq},"data":"${pad}"}}\n`;
        seq++;
        written += line.length;
        if (!stdin.write(line)) await once(stdin, 'drain');
      }
      finished = true;
    })();
    const peak = await peakRss(
      c,
      stalled(
        () => written,
        () => finished,
      ),
    );
    const writtenWhileStuck = written;
    const draining = sampleRss(c);
    process.kill(agentPid, 'SIGUSR1'); // the agent reads again
    await writer;
    const result = (await c.request('report', '_hostile/report', {}, 90_000)).result as { count: number; bytes: number; inOrder: boolean };
    report('editor → agent', {
      baseline: base,
      growthWhileStuck: peak - base,
      editorSentWhileStuck: writtenWhileStuck,
      growthWhileFlowing: draining() - base,
      totalMs: Date.now() - started,
    });
    assert.deepEqual(result, { count: seq, bytes: seq * CHUNK, inOrder: true });
    assert.ok(peak - base <= LIMIT, `conductor RSS grew by ${((peak - base) / MB).toFixed(1)} MB with 200 MB waiting`);
  });
});
