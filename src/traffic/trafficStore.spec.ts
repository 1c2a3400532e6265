// The traffic store's bookkeeping, vscode-free: lines are kept as they came and parsed only when
// the viewer looks (or listens), invalid ones are reported then, and the bounds hold.
import * as assert from 'node:assert/strict';
import type { Log } from '../log/logEvent';
import { MAX_ENTRIES, TrafficStore } from './trafficStore';

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
    store.addLine('k', line(1));
    store.addLine('k', 'not a trace line');
    store.addLine('k', line(2, 'agent', 'sparkle'));
    assert.deepEqual(log.warnings, [], 'nothing is parsed while nobody looks');
    const { entries, dropped } = store.entries('k');
    assert.equal(dropped, 0);
    assert.deepEqual(
      entries.map((e) => [e.seq, e.from, e.to, (e.message.params as { i: number }).i, e.time]),
      [
        [1, 'agent', 'editor', 1, 1_700_000_000_001],
        [3, 'agent', 'sparkle', 2, 1_700_000_000_002],
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
    store.addLine('k', line(7));
    store.addLine('k', 'garbage');
    store.addLine('k', line(8));
    sub.dispose();
    store.addLine('k', line(9));
    assert.deepEqual(seen, [7, 8]);
    assert.equal(store.entries('k').entries.length, 3);
  });

  it('drops the oldest lines past MAX_ENTRIES and counts them', () => {
    const store = new TrafficStore(recordingLog());
    for (let i = 0; i < MAX_ENTRIES + 5; i++) store.addLine('k', line(i));
    const { entries, dropped } = store.entries('k');
    assert.equal(dropped, 5);
    assert.equal(entries.length, MAX_ENTRIES);
    assert.equal((entries[0]!.message.params as { i: number }).i, 5);
  });
});
