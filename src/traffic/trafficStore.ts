// The protocol traffic of every conductor process, as it streams in: each conductor writes its
// trace (one JSON line per message per hop) to a pipe the extension opened for it (fd 3,
// src/agents/conductorProcess.ts), and the lines land here, per agent configuration (the actor
// key; a restart appends to the same history). Bounded: past MAX_ENTRIES or MAX_BYTES the oldest
// entries go and are counted, so the viewer can say how many it no longer has. vscode-free.
import type { Log } from '../log/logEvent';
import { parseTraceLine, type TrafficEntry } from '../protocol/traffic';
import { Emitter } from '../util/emitter';

export const MAX_ENTRIES = 50_000;
export const MAX_BYTES = 64 * 1024 * 1024;
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
  line: string;
  /** Its entries (one per hop) once asked for; null: the line is not a trace line. */
  parsed?: TrafficEntry[] | null;
}

interface ProcessTraffic {
  entries: RawEntry[];
  bytes: number;
  dropped: number;
  nextSeq: number;
  invalid: number;
}

export interface TrafficAppended {
  key: string;
  entries: TrafficEntry[];
  dropped: number;
}

export class TrafficStore {
  private readonly byKey = new Map<string, ProcessTraffic>();
  private readonly appended = new Emitter<TrafficAppended>();
  /** New entries of one configuration's processes, in order. */
  readonly onDidAppend = this.appended.event;

  constructor(private readonly log: Log) {}

  /** One trace line from the conductor of `key`. */
  addLine(key: string, line: string): void {
    const traffic = this.trafficOf(key);
    const raw: RawEntry = { seq: traffic.nextSeq++, line };
    traffic.entries.push(raw);
    traffic.bytes += line.length;
    let drop = 0;
    while (traffic.entries.length - drop > MAX_ENTRIES || (traffic.bytes > MAX_BYTES && traffic.entries.length - drop > 1)) {
      traffic.bytes -= traffic.entries[drop]!.line.length;
      drop++;
    }
    if (drop) {
      traffic.entries.splice(0, drop);
      traffic.dropped += drop;
    }
    if (!this.appended.listening) return;
    const entries = this.parse(traffic, raw);
    if (entries.length > 0) this.appended.fire({ key, entries: [...entries], dropped: traffic.dropped });
  }

  entries(key: string): { entries: readonly TrafficEntry[]; dropped: number } {
    const traffic = this.byKey.get(key);
    if (!traffic) return { entries: [], dropped: 0 };
    const entries: TrafficEntry[] = [];
    for (const raw of traffic.entries) entries.push(...this.parse(traffic, raw));
    return { entries, dropped: traffic.dropped };
  }

  private parse(traffic: ProcessTraffic, raw: RawEntry): readonly TrafficEntry[] {
    if (raw.parsed === undefined) {
      raw.parsed = parseTraceLine(raw.line, raw.seq) ?? null;
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
      traffic = { entries: [], bytes: 0, dropped: 0, nextSeq: 1, invalid: 0 };
      this.byKey.set(key, traffic);
    }
    return traffic;
  }

  dispose(): void {
    this.appended.dispose();
    this.byKey.clear();
  }
}
