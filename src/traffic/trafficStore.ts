// The protocol traffic of every conductor process, as it streams in: each conductor writes its
// trace (one JSON line per message per hop) to a pipe the extension opened for it (fd 3,
// src/agents/conductorProcess.ts), and the lines land here, per agent configuration (the actor
// key; a restart appends to the same history). Bounded: past MAX_ENTRIES or MAX_BYTES the oldest
// entries go and are counted, so the viewer can say how many it no longer has. vscode-free.
//
// A full store drops one line per line added, for as long as the editor runs: dropping moves a
// start index, and the array is compacted only once its dropped part is the larger one, so a line
// costs the same whether the store is empty or full. (Removing each dropped line from the front of
// the array moved all 50 000 others: ~0.2 ms per streamed line on the extension host's thread.)
import type { Log } from '../log/logEvent';
import { parseTraceLine, traceGapSize, type TrafficEntry } from '../protocol/traffic';
import { Emitter } from '../util/emitter';

export const MAX_ENTRIES = 50_000;
export const MAX_BYTES = 64 * 1024 * 1024;
/** The array of a full store is compacted at most once per this many dropped lines. */
const COMPACT_AFTER = 4096;
/** What a dropped line's slot holds until the next compaction (its text is freed at once). */
const DROPPED: RawEntry = { seq: 0, conductor: 0, line: '' };
/** Invalid lines logged at the first and every this many after. */
const LOG_INVALID_EVERY = 1000;

/**
 * A trace line as it arrived, parsed only when someone looks: a streamed reply is thousands of
 * lines (one per message per hop) that nobody reads unless the viewer is open, and parsing each
 * on arrival cost the extension host's thread — the one that also carries the chat — a JSON.parse
 * per line, and its memory a parsed message per line.
 */
interface RawEntry {
  seq: number;
  /** Which of the configuration's conductor processes wrote it (TrafficEntry.conductor). */
  conductor: number;
  line: string;
  /** Its entries (one per hop) once asked for; null: the line is not a trace line. */
  parsed?: TrafficEntry[] | null;
}

interface ProcessTraffic {
  /** The kept lines are `lines[head]` onwards, oldest first; those before `head` are dropped. */
  lines: RawEntry[];
  head: number;
  /** Characters of the kept lines. */
  bytes: number;
  dropped: number;
  /** Lines the conductor left out of its trace while this side was behind (its gap lines). */
  unrecorded: number;
  nextSeq: number;
  invalid: number;
}

export interface TrafficAppended {
  key: string;
  entries: TrafficEntry[];
  dropped: number;
  unrecorded: number;
}

export class TrafficStore {
  private readonly byKey = new Map<string, ProcessTraffic>();
  private readonly appended = new Emitter<TrafficAppended>();
  /** New entries of one configuration's processes, in order. */
  readonly onDidAppend = this.appended.event;

  constructor(private readonly log: Log) {}

  /** One trace line from conductor process `conductor` (numbered by the pool) of configuration `key`. */
  addLine(key: string, line: string, conductor: number): void {
    const traffic = this.trafficOf(key);
    const gap = traceGapSize(line);
    if (gap !== undefined) {
      traffic.unrecorded += gap;
      this.log.warn('traffic', 'the conductor left lines out of its protocol trace: this side fell behind reading it', { lines: gap });
      this.appended.fire({ key, entries: [], dropped: traffic.dropped, unrecorded: traffic.unrecorded });
      return;
    }
    const raw: RawEntry = { seq: traffic.nextSeq++, conductor, line };
    traffic.lines.push(raw);
    traffic.bytes += line.length;
    const kept = (): number => traffic.lines.length - traffic.head;
    while (kept() > MAX_ENTRIES || (traffic.bytes > MAX_BYTES && kept() > 1)) {
      traffic.bytes -= traffic.lines[traffic.head]!.line.length;
      traffic.lines[traffic.head++] = DROPPED;
      traffic.dropped++;
    }
    if (traffic.head > COMPACT_AFTER && traffic.head * 2 > traffic.lines.length) {
      traffic.lines = traffic.lines.slice(traffic.head);
      traffic.head = 0;
    }
    if (!this.appended.listening) return;
    const entries = this.parse(traffic, raw);
    if (entries.length > 0) this.appended.fire({ key, entries: [...entries], dropped: traffic.dropped, unrecorded: traffic.unrecorded });
  }

  entries(key: string): { entries: readonly TrafficEntry[]; dropped: number; unrecorded: number } {
    const traffic = this.byKey.get(key);
    if (!traffic) return { entries: [], dropped: 0, unrecorded: 0 };
    const entries: TrafficEntry[] = [];
    for (let i = traffic.head; i < traffic.lines.length; i++) entries.push(...this.parse(traffic, traffic.lines[i]!));
    return { entries, dropped: traffic.dropped, unrecorded: traffic.unrecorded };
  }

  private parse(traffic: ProcessTraffic, raw: RawEntry): readonly TrafficEntry[] {
    if (raw.parsed === undefined) {
      raw.parsed = parseTraceLine(raw.line, raw.seq, raw.conductor) ?? null;
      if (raw.parsed === null && traffic.invalid++ % LOG_INVALID_EVERY === 0)
        this.log.warn('traffic', 'a trace line from the conductor is not a trace entry; skipped', {
          invalid: traffic.invalid,
          line: raw.line.slice(0, 200),
        });
    }
    return raw.parsed ?? [];
  }

  private trafficOf(key: string): ProcessTraffic {
    let traffic = this.byKey.get(key);
    if (!traffic) {
      traffic = { lines: [], head: 0, bytes: 0, dropped: 0, unrecorded: 0, nextSeq: 1, invalid: 0 };
      this.byKey.set(key, traffic);
    }
    return traffic;
  }

  dispose(): void {
    this.appended.dispose();
    this.byKey.clear();
  }
}
