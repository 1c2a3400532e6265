// Fewer, larger reads of a fast stream. An agent streaming a reply writes each chunk as it makes
// it, and a reader that keeps pace wakes once per write: on this project's machines a wake-up
// (epoll, the read, Node's stream callbacks, the write it causes downstream and the wake-up of
// *that* reader) costs tens of µs whatever it carries, so a hop that keeps pace spends most of
// its CPU waking up, and makes the next process wake up as often. Once a stream is plainly
// running (several small reads in a row, each soon after the last, nothing sent to the writer in
// between), the reader stops reading for about a millisecond after each read, so that the next
// read takes what the writer wrote meanwhile. ElizACP streaming 20 000 chunks through the
// conductor: ~4 000 reads → ~700, the conductor's CPU 300 → 200 ms (docs/benchmarks.md).
//
// What it costs: while a stream runs, a message can wait up to ~1 ms more before it is read.
// A message after a pause (a prompt's first chunk, a request, an answer) is read at once, and a
// reader that is behind (its reads fill the buffer) is never held. Nothing is dropped or
// reordered: the bytes wait in the pipe.
//
// Node has no public way to stop a stream's reads for a while: `pause()` keeps reading into the
// stream's buffer up to its high-water mark, one wake-up per write as before. So this stops the
// socket's handle itself, as net.Socket does when its buffer is full, and starts it again; a
// stream without such a handle is left alone.
import type { Readable } from 'node:stream';

/** Reads after which a run of small, close reads counts as a stream. */
const STREAK = 8;
/** Two reads this close (ms; the hold itself not counted) are part of one stream. */
const GAP_MS = 2;
/** A read this large already carries a batch: the reader is behind, so no hold. */
const SMALL_BYTES = 16 * 1024;
/** How long reading stops after each read of a running stream (ms). */
const HOLD_MS = 1;

interface ReadHandle {
  readStart(): number;
  readStop(): number;
}

export class ReadCoalescer {
  private streak = 0;
  private lastAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private held: ReadHandle | undefined;
  private stopped = false;

  constructor(private readonly input: Readable) {}

  /** Called after each read of `bytes` has been handled. */
  afterRead(bytes: number): void {
    const now = performance.now();
    this.streak = bytes < SMALL_BYTES && now - this.lastAt < GAP_MS ? this.streak + 1 : 0;
    this.lastAt = now;
    if (this.streak < STREAK || this.timer || this.stopped) return;
    const handle = this.handle();
    if (!handle) return;
    // The socket's own `reading` flag stays set, so the stream does not start reading again
    // on its own (it does after every read it hands out) before the hold ends.
    handle.readStop();
    this.held = handle;
    // Not unref'd: a stopped handle no longer keeps the process alive, and what waits in the pipe
    // must still be read (an agent that streams, answers and exits at once).
    this.timer = setTimeout(this.resume, HOLD_MS);
  }

  /**
   * Something was sent to the writer: what it writes next answers that, and waits for nobody
   * (a request and its answer, back and forth, are not a stream, however fast they go).
   */
  sent(): void {
    this.streak = 0;
  }

  /** No more holds (the stream is ending or its reader is gone). */
  stop(): void {
    this.stopped = true;
    if (this.timer) this.resume();
  }

  private readonly resume = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastAt = performance.now();
    const held = this.held;
    this.held = undefined;
    // Still the socket's handle (not destroyed meanwhile): read again. A paused stream's buffer
    // fills to its high-water mark, and the socket stops reading by itself, as ever.
    if (held && this.handle() === held) held.readStart();
  };

  private handle(): ReadHandle | undefined {
    const handle = (this.input as Readable & { _handle?: Partial<ReadHandle> | null })._handle;
    return typeof handle?.readStop === 'function' && typeof handle.readStart === 'function' ? (handle as ReadHandle) : undefined;
  }
}
