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

interface ProcessTraffic {
  entries: TrafficEntry[];
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
    const entry = parseTraceLine(line, traffic.nextSeq);
    if (!entry) {
      if (traffic.invalid++ % LOG_INVALID_EVERY === 0)
        this.log.warn('traffic', 'a trace line from the conductor is not a trace entry; skipped', {
          invalid: traffic.invalid,
          line: line.slice(0, 200),
        });
      return;
    }
    traffic.nextSeq++;
    traffic.entries.push(entry);
    traffic.bytes += entry.bytes;
    let drop = 0;
    while (traffic.entries.length - drop > MAX_ENTRIES || (traffic.bytes > MAX_BYTES && traffic.entries.length - drop > 1)) {
      traffic.bytes -= traffic.entries[drop]!.bytes;
      drop++;
    }
    if (drop) {
      traffic.entries.splice(0, drop);
      traffic.dropped += drop;
    }
    this.appended.fire({ key, entries: [entry], dropped: traffic.dropped });
  }

  entries(key: string): { entries: readonly TrafficEntry[]; dropped: number } {
    const traffic = this.byKey.get(key);
    return { entries: traffic?.entries ?? [], dropped: traffic?.dropped ?? 0 };
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
