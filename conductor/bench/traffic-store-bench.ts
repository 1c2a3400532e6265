// npm run bench, the extension host's side of the protocol trace: what one trace line costs the
// traffic store (src/traffic/trafficStore.ts) when it is empty and when it has been full for a
// while. The extension traces every conductor always, one line per message, on the thread that
// also carries the chat; once MAX_ENTRIES lines have streamed by, every new line drops an old one,
// so the full store is the one a user has after an hour of chat. The ratio full / empty is the
// measure (the same lines, the same run); it should stay near 1.
import { MAX_ENTRIES, TrafficStore } from '../../src/traffic/trafficStore';
import { median } from './stats';
import { printGoal } from './goal';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LINES = 20_000;
const none = (): void => undefined;
const log = { trace: none, debug: none, info: none, warn: none, error: none };

/** A streamed chunk's trace line, as the conductor writes it. */
const chunkLine = (i: number): string =>
  JSON.stringify({
    timestamp: '2026-11-26T12:00:00.000Z',
    from: 'agent',
    to: 'editor',
    message: {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 'bench', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${i} ` } } },
    },
  });

/** µs per line for LINES lines added to `store`. */
function perLine(store: TrafficStore, lines: readonly string[]): number {
  const t0 = performance.now();
  for (const l of lines) store.addLine('bench', l, 1);
  return ((performance.now() - t0) * 1000) / lines.length;
}

function main(): void {
  const lines = Array.from({ length: LINES }, (_, i) => chunkLine(i));
  const empty: number[] = [];
  const full: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Interleaved: a fresh store, then one filled past its bound (a few thousand lines dropped).
    empty.push(perLine(new TrafficStore(log), lines));
    const store = new TrafficStore(log);
    for (let i = 0; i < MAX_ENTRIES + 5_000; i++) store.addLine('bench', lines[i % LINES]!, 1);
    full.push(perLine(store, lines));
  }
  const e = median(empty);
  const f = median(full);
  printGoal({
    area: 'Traffic store',
    goal: 'a full store costs a trace line what an empty one does (reported)',
    figure: `${(f / e).toFixed(2)}×`,
    met: null,
  });
  console.log(
    [
      `Traffic store (extension host): µs per trace line, median of ${ROUNDS} rounds × ${LINES} lines; node ${process.version}`,
      '',
      '| store | µs per line | ratio |',
      '|---|---:|---:|',
      `| empty | ${e.toFixed(2)} | 1.00 |`,
      `| full (${MAX_ENTRIES} lines, dropping one per line) | ${f.toFixed(2)} | ${(f / e).toFixed(2)} |`,
    ].join('\n'),
  );
}

main();
