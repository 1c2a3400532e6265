// Lines added during one tick, written together as one string on the next: how the conductor
// writes to its pipes (lineChannel.ts) and its trace (trace.ts). A fast stream sends many lines
// per input chunk; one write per line (a queued write request and a buffer each) cost more than
// the lines, and its reader got one small read per line.
export class TickBatch {
  private text = '';

  /** `write` gets the batch's text (never empty). */
  constructor(private readonly write: (text: string) => void) {}

  add(line: string): void {
    if (this.text === '') process.nextTick(this.flush);
    this.text += line + '\n';
  }

  /** How many characters wait for the next write. */
  get pending(): number {
    return this.text.length;
  }

  /** Writes what waits now (also what the scheduled tick does; then it finds nothing). */
  readonly flush = (): void => {
    const text = this.text;
    this.text = '';
    if (text !== '') this.write(text);
  };

  /** Forgets what waits (the output is gone). */
  clear(): void {
    this.text = '';
  }
}
