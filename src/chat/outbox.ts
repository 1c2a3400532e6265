// Message protocol: delivery of host→webview messages across the webview's lifecycle (hidden,
// re-created, reloaded). Pure: the owner says when the webview is live and supplies `post` and a
// resync snapshot.
//
// - Every message gets the next per-tab index (only grows).
// - While the webview is live, messages are posted at the end of the host's current turn (one
//   `setImmediate`), and consecutive chunks of one streamed item that arrived in that turn leave as
//   one message: an agent streaming as fast as the pipe takes brings hundreds of chunks per read,
//   and each postMessage costs far more than the chunk (in code-server it crosses two processes
//   and a socket) — 5000 chunks took 1.7 s to reach the webview one by one. A lone message still
//   leaves at once (the turn ends right after it).
// - A stream's further chunks (a message that continues the item the tab's last message carried)
//   leave at most every STREAM_POST_GAP_MS, merged: the webview draws a streaming card at most
//   every 100 ms, and in code-server the page takes the host's messages one at a time (the
//   workbench reads each WebSocket message through a FileReader before the next), so under load
//   each message costs it 5–80 ms. Posting once per turn of a busy host meant 25–35 messages for
//   a 5000-chunk reply, and its first chunk reached the page only after most of them (0.2–0.5 s).
//   Anything else (the first chunk of an item, a tool call, the turn's end) leaves at the end of
//   the turn as before, together with the chunks waiting before it.
// - Posted messages are kept until the webview acknowledges it has saved them (its state survives
//   re-creation only up to its last setState), then replayed on the next `webview-ready` if still
//   unacknowledged.
// - While it is hidden, not yet ready or being re-created, messages are buffered; consecutive
//   chunks of one streamed item are coalesced.
// - Past a size limit, the tab's buffer is dropped and the tab is marked for resync: at the next
//   `webview-ready` it receives one `resync` message with the whole conversation (from the
//   transcript), so nothing is lost and memory stays bounded.
import type { IndexedHostMessage, Resync, TabId, TabPayload } from '../protocol/webview';
import { approxSize, coalesce } from '../protocol/coalesce';

export interface OutboxLimits {
  /** Messages kept per tab (sent-unacknowledged plus buffered). */
  maxEntries: number;
  /** Approximate characters kept per tab. */
  maxChars: number;
}

interface Entry {
  message: IndexedHostMessage;
  posted: boolean;
  size: number;
}

interface TabQueue {
  lastIndex: number;
  entries: Entry[];
  chars: number;
  /** Highest index dropped without the webview having acknowledged it; a resync covers it. */
  droppedThrough: number;
  /** Buffer overflowed while hidden: stop buffering, send a resync at the next `ready`. */
  resyncPending: boolean;
}

export interface OutboxStats {
  live: boolean;
  tabs: Record<
    TabId,
    { lastIndex: number; entries: number; buffered: number; chars: number; resyncPending: boolean; droppedThrough: number }
  >;
}

/** How often a stream's further chunks leave for the webview (half its redraw interval). */
export const STREAM_POST_GAP_MS = 50;

/** When the outbox flushes: `schedule(flush, 0)` after the current turn, else after `delayMs`. */
export interface OutboxTiming {
  schedule(flush: () => void, delayMs: number): void;
  now(): number;
}
const realTiming: OutboxTiming = {
  schedule: (flush, delayMs) => void (delayMs > 0 ? setTimeout(flush, delayMs) : setImmediate(flush)),
  now: () => performance.now(),
};

export class Outbox {
  private readonly tabs = new Map<TabId, TabQueue>();
  private live = false;

  constructor(
    private readonly post: (message: IndexedHostMessage) => void,
    /** The tab's whole conversation, or undefined if the tab no longer exists. */
    private readonly snapshot: (tabId: TabId) => Omit<Resync, 'tabId'> | undefined,
    private readonly limits: OutboxLimits = { maxEntries: 500, maxChars: 2_000_000 },
    /** Tests pass their own, to flush by hand. */
    private readonly timing: OutboxTiming = realTiming,
  ) {}

  /** A flush is scheduled: at the end of this turn ('turn') or when the stream's gap is over ('gap'). */
  private flushScheduled: 'turn' | 'gap' | undefined;
  private lastFlush = -Infinity;
  /** Messages pushed while live and not posted yet, in the order they were pushed (all tabs). */
  private waiting: Entry[] = [];
  /** Callers of `whenPosted`, told at the next flush. */
  private postedWaiters: (() => void)[] = [];

  /** Stamps the next index on `payload` and posts or buffers it. */
  push(payload: TabPayload): void {
    const q = this.queue(payload.tabId);
    const message = { ...payload, index: ++q.lastIndex } as IndexedHostMessage;
    if (q.resyncPending) {
      // Already covered by the snapshot the resync will take; remember the index only.
      q.droppedThrough = message.index;
      return;
    }
    const last = q.entries[q.entries.length - 1];
    const merged = last ? coalesce(last.message, message) : undefined;
    const continuesStream = merged !== undefined;
    if (last && merged && !last.posted) {
      // Counted as the two messages' sizes (a little over the merged one's): measuring the merged
      // message again for every chunk of a burst would cost the square of its length.
      const size = approxSize(message);
      last.message = merged;
      last.size += size;
      q.chars += size;
    } else {
      const entry: Entry = { message, posted: false, size: approxSize(message) };
      this.append(q, entry);
      if (this.live) this.waiting.push(entry);
    }
    this.enforceLimits(q);
    if (this.live) this.scheduleFlush(continuesStream);
  }

  private scheduleFlush(continuesStream: boolean): void {
    if (this.flushScheduled === 'turn') return;
    const wait = continuesStream ? this.lastFlush + STREAM_POST_GAP_MS - this.timing.now() : 0;
    if (wait > 0) {
      if (this.flushScheduled === 'gap') return;
      this.flushScheduled = 'gap';
      this.timing.schedule(this.flush, wait);
    } else {
      // Sooner than a pending gap: that timer's flush then finds nothing left to post.
      this.flushScheduled = 'turn';
      this.timing.schedule(this.flush, 0);
    }
  }

  /** Posts what waits for the end of the turn (nothing if the webview went away meanwhile). */
  readonly flush = (): void => {
    this.flushScheduled = undefined;
    const waiting = this.waiting;
    if (waiting.length) this.lastFlush = this.timing.now();
    this.waiting = [];
    if (this.live) {
      for (const e of waiting) {
        if (e.posted) continue; // a `ready` in between posted it already
        e.posted = true;
        this.post(e.message);
      }
      for (const q of this.tabs.values()) this.enforceLimits(q);
    } // else: kept in their tabs' queues, `ready` replays them
    for (const told of this.postedWaiters.splice(0)) told();
  };

  /** Resolves once what was pushed so far has left (or been kept for `ready`): at once if nothing waits. */
  whenPosted(): Promise<void> {
    if (!this.flushScheduled) return Promise.resolve();
    return new Promise((resolve) => this.postedWaiters.push(resolve));
  }

  /** The webview went away (hidden, disposed, reloading): buffer from now on. */
  pause(): void {
    this.live = false;
  }

  /**
   * `webview-ready`: forget what the webview has saved, replay the rest in order (or a resync
   * where messages were dropped, or where the webview lacks a tab we have), then go live.
   */
  ready(lastSeenIndex: Record<TabId, number>, openTabs: readonly TabId[]): void {
    const open = new Set(openTabs);
    for (const [tabId, q] of this.tabs) {
      const seen = lastSeenIndex[tabId] ?? 0;
      this.trim(q, seen);
      if (q.droppedThrough > seen || !open.has(tabId)) {
        this.resync(tabId, q);
        continue;
      }
      for (const e of q.entries) {
        if (e.message.index <= seen) continue;
        e.posted = true;
        this.post(e.message);
      }
    }
    this.waiting = []; // replayed above, or covered by a resync
    this.live = true;
  }

  /** The webview saved everything up to these indices. */
  ack(lastSeenIndex: Record<TabId, number>): void {
    for (const [tabId, seen] of Object.entries(lastSeenIndex)) {
      const q = this.tabs.get(tabId);
      if (q) this.trim(q, seen);
    }
  }

  /** The tab is closed: nothing more will be delivered for it. */
  forget(tabId: TabId): void {
    this.tabs.delete(tabId);
    this.waiting = this.waiting.filter((e) => e.message.tabId !== tabId);
  }

  stats(): OutboxStats {
    const tabs: OutboxStats['tabs'] = {};
    for (const [tabId, q] of this.tabs)
      tabs[tabId] = {
        lastIndex: q.lastIndex,
        entries: q.entries.length,
        buffered: q.entries.filter((e) => !e.posted).length,
        chars: q.chars,
        resyncPending: q.resyncPending,
        droppedThrough: q.droppedThrough,
      };
    return { live: this.live, tabs };
  }

  private queue(tabId: TabId): TabQueue {
    let q = this.tabs.get(tabId);
    if (!q) this.tabs.set(tabId, (q = { lastIndex: 0, entries: [], chars: 0, droppedThrough: 0, resyncPending: false }));
    return q;
  }

  private append(q: TabQueue, e: Entry): void {
    q.entries.push(e);
    q.chars += e.size;
  }

  private trim(q: TabQueue, seen: number): void {
    while (q.entries[0] && q.entries[0].message.index <= seen) q.chars -= q.entries.shift()!.size;
  }

  private enforceLimits(q: TabQueue): void {
    if (q.entries.length <= this.limits.maxEntries && q.chars <= this.limits.maxChars) return;
    if (this.live) {
      // Live: the webview has the posted ones already; only its crash-safety copy goes. Drop the
      // oldest posted; what waits for the end of the turn is still to be delivered.
      while (
        q.entries[0]?.posted &&
        q.entries.length > 1 &&
        (q.entries.length > this.limits.maxEntries || q.chars > this.limits.maxChars)
      ) {
        const e = q.entries.shift()!;
        q.chars -= e.size;
        q.droppedThrough = Math.max(q.droppedThrough, e.message.index);
      }
      return;
    }
    // Hidden: drop the whole buffer; the resync at `ready` carries the conversation instead.
    q.droppedThrough = q.lastIndex;
    q.resyncPending = true;
    q.entries = [];
    q.chars = 0;
  }

  private resync(tabId: TabId, q: TabQueue): void {
    q.resyncPending = false;
    q.entries = [];
    q.chars = 0;
    const snap = this.snapshot(tabId);
    if (!snap) {
      this.tabs.delete(tabId);
      return;
    }
    const message: IndexedHostMessage = { ...snap, tabId, index: ++q.lastIndex };
    this.append(q, { message, posted: true, size: approxSize(message) });
    this.post(message);
  }
}
