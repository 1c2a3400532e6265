// The traffic store's bookkeeping, vscode-free: lines are kept as they came and parsed only when
// the viewer looks (or listens), invalid ones are reported then, and the bounds hold.
import * as assert from 'node:assert/strict';
import type { Log } from '../log/logEvent';
import { traceGapLine, traceGapSize } from '../protocol/traffic';
import { MAX_BYTES, MAX_ENTRIES, TrafficStore, type TrafficAppended } from './trafficStore';

function recordingLog(): Log & { warnings: string[] } {
  const warnings: string[] = [];
  const none = (): void => undefined;
  return { warnings, trace: none, debug: none, info: none, error: none, warn: (_category, message) => void warnings.push(message) };
}

const line = (i: number, from = 'agent', to = 'editor'): string =>
  JSON.stringify({
    timestamp: new Date(1_700_000_000_000 + i).toISOString(),
    from,
    to,
    message: { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', i } },
  });

describe('traffic store', () => {
  it('keeps lines unparsed until someone looks; then parses each once, skipping (and reporting) what is not an entry', () => {
    const log = recordingLog();
    const store = new TrafficStore(log);
    store.addLine('k', line(1), 1);
    store.addLine('k', 'not a trace line', 1);
    // From the configuration's next process (a restart): one history, each entry naming its process.
    store.addLine('k', line(2, 'agent', 'sparkle'), 2);
    assert.deepEqual(log.warnings, [], 'nothing is parsed while nobody looks');
    const { entries, dropped } = store.entries('k');
    assert.equal(dropped, 0);
    assert.deepEqual(
      entries.map((e) => [e.seq, e.conductor, e.from, e.to, (e.message.params as { i: number }).i, e.time]),
      [
        [1, 1, 'agent', 'editor', 1, 1_700_000_000_001],
        [3, 2, 'agent', 'sparkle', 2, 1_700_000_000_002],
      ],
    );
    assert.equal(log.warnings.length, 1, 'the invalid line is reported when it is first parsed');
    assert.equal(store.entries('k').entries[0], entries[0], 'parsed once: the same entry object again');
    assert.equal(log.warnings.length, 1);
  });

  it('gives a listener each new entry as it arrives', () => {
    const store = new TrafficStore(recordingLog());
    const seen: number[] = [];
    const sub = store.onDidAppend((e) => seen.push(...e.entries.map((x) => (x.message.params as { i: number }).i)));
    store.addLine('k', line(7), 1);
    store.addLine('k', 'garbage', 1);
    store.addLine('k', line(8), 1);
    sub.dispose();
    store.addLine('k', line(9), 1);
    assert.deepEqual(seen, [7, 8]);
    assert.equal(store.entries('k').entries.length, 3);
  });

  it('drops the oldest lines past MAX_ENTRIES and counts them', () => {
    const store = new TrafficStore(recordingLog());
    for (let i = 0; i < MAX_ENTRIES + 5; i++) store.addLine('k', line(i), 1);
    const { entries, dropped } = store.entries('k');
    assert.equal(dropped, 5);
    assert.equal(entries.length, MAX_ENTRIES);
    assert.equal((entries[0]!.message.params as { i: number }).i, 5);
  });

  it('stays exact while full for a long time: the newest MAX_ENTRIES lines, in order, every dropped one counted', () => {
    const store = new TrafficStore(recordingLog());
    const total = 3 * MAX_ENTRIES + 7;
    for (let i = 0; i < total; i++) store.addLine('k', line(i), 1);
    const { entries, dropped } = store.entries('k');
    assert.equal(dropped, total - MAX_ENTRIES);
    assert.equal(entries.length, MAX_ENTRIES);
    const ids = entries.map((e) => (e.message.params as { i: number }).i);
    assert.equal(ids[0], total - MAX_ENTRIES);
    assert.equal(ids.at(-1), total - 1);
    assert.ok(
      ids.every((id, k) => k === 0 || id === ids[k - 1]! + 1),
      'no gap and no repeat',
    );
    assert.ok(
      entries.every((e, k) => k === 0 || e.seq === entries[k - 1]!.seq + 1),
      'sequence numbers go on',
    );
  });

  it('drops the oldest lines past MAX_BYTES, keeping at least the newest', () => {
    const store = new TrafficStore(recordingLog());
    const big = (i: number): string => line(i).replace('"i":', `"pad":"${'x'.repeat(8 * 1024 * 1024)}","i":`);
    for (let i = 0; i < 10; i++) store.addLine('k', big(i), 1);
    const { entries, dropped } = store.entries('k');
    const perLine = big(0).length;
    assert.equal(entries.length, Math.floor(MAX_BYTES / perLine));
    assert.equal(dropped, 10 - entries.length);
    assert.equal((entries.at(-1)!.message.params as { i: number }).i, 9);
    const huge = line(10).replace('"i":', `"pad":"${'y'.repeat(MAX_BYTES)}","i":`);
    store.addLine('k', huge, 1);
    assert.deepEqual(
      store.entries('k').entries.map((e) => (e.message.params as { i: number }).i),
      [10],
      'a line over the whole budget is kept alone',
    );
  });

  it('counts the lines the conductor left out of its trace (its gap lines), tells listeners, and keeps no entry for them', () => {
    const log = recordingLog();
    const store = new TrafficStore(log);
    const heard: TrafficAppended[] = [];
    store.onDidAppend((e) => heard.push(e));
    store.addLine('k', line(1), 1);
    store.addLine('k', traceGapLine(1234, new Date(1_700_000_000_002).toISOString()), 1);
    store.addLine('k', line(3), 1);
    store.addLine('k', traceGapLine(6, new Date(1_700_000_000_004).toISOString()), 1);
    const { entries, unrecorded } = store.entries('k');
    assert.equal(unrecorded, 1240);
    assert.equal(entries.length, 2);
    assert.deepEqual(
      heard.map((e) => [e.entries.length, e.unrecorded]),
      [
        [1, 0],
        [0, 1234],
        [1, 1234],
        [0, 1240],
      ],
    );
    assert.ok(!log.warnings.some((w) => /not a trace entry/.test(w)), 'a gap line is not an invalid line');
    assert.equal(log.warnings.filter((w) => /left lines out of its protocol trace/.test(w)).length, 2);
  });

  it('tells a gap line from trace lines exactly', () => {
    assert.equal(traceGapSize(traceGapLine(7, '2026-11-27T00:00:00.000Z')), 7);
    assert.equal(traceGapSize(line(1)), undefined);
    assert.equal(traceGapSize('{"timestamp":"x","dropped":7,"from":"agent"}'), undefined);
    assert.equal(traceGapSize('{"timestamp":"x","dropped":-7}'), undefined);
    assert.equal(traceGapSize(`{"timestamp":"${'x'.repeat(200)}","dropped":7}`), undefined);
  });
});
