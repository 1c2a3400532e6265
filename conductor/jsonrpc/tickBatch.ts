// Lines added during one tick, written together as one Buffer on the next: how the conductor
// writes to its pipes (lineChannel.ts) and its trace (trace.ts). A fast stream sends many lines
// per input chunk; one write per line (a queued write request and a buffer each) cost more than
// the lines, and its reader got one small read per line.
//
// The lines are encoded into a Buffer as they come, not joined into one string: Node writes a
// string by flattening it (a JS string rope of every line, copied whole) and encoding it into a
// fresh allocation of three bytes per character. For a traced stream those were buffers of
// hundreds of kilobytes per tick, new memory each time: 25 000 page faults for 60 000 chunks, the
// larger part of tracing's cost on a VM, where a fault is expensive. A slab is handed to the
// write as it is (Node keeps it until written) and a new one is taken; in steady state the
// allocator gives back recently freed, already mapped memory.

/** A slab's size: large enough for a tick of a fast stream's lines, small enough to stay out of mmap. */
const SLAB_BYTES = 64 * 1024;
/** The rest of a slab after a write takes the next lines if at least this large; else a new slab is taken. */
const MIN_REST_BYTES = 4096;

export class TickBatch {
  private slab: Buffer | undefined;
  private used = 0;
  private scheduled = false;

  /** `write` gets the batch's bytes (never empty), which it may keep: the batch does not reuse them. */
  constructor(private readonly write: (bytes: Buffer) => void) {}

  add(line: string): void {
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.flush);
    }
    // A line's UTF-8 takes at most 3 bytes per UTF-16 unit (counted exactly for a long line); +1 for the newline.
    const most = (line.length > SLAB_BYTES ? Buffer.byteLength(line) : line.length * 3) + 1;
    if (this.slab === undefined || this.slab.length - this.used < most) {
      this.writeOut();
      this.slab = Buffer.allocUnsafe(Math.max(SLAB_BYTES, most));
    }
    this.used += this.slab.write(line, this.used);
    this.slab[this.used++] = 0x0a;
  }

  /** How many bytes wait for the next write. */
  get pending(): number {
    return this.used;
  }

  /** Writes what waits now (also what the scheduled tick does; then it finds nothing). */
  readonly flush = (): void => {
    this.scheduled = false;
    this.writeOut();
  };

  /** Forgets what waits (the output is gone). */
  clear(): void {
    this.used = 0;
  }

  /** Hands the filled part of the slab to `write`; the rest of it takes the next lines. */
  private writeOut(): void {
    if (this.used === 0 || this.slab === undefined) return;
    const bytes = this.slab.subarray(0, this.used);
    this.slab = this.slab.length - this.used >= MIN_REST_BYTES ? this.slab.subarray(this.used) : undefined;
    this.used = 0;
    this.write(bytes);
  }
}
