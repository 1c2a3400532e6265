// The last lines a process wrote to stderr: the clue shown next to "agent exited". Splits the
// stream into lines (a line may arrive in pieces) and keeps a bounded tail: at most `maxLines`
// lines of at most `maxLineChars` each, and at most about `maxChars` in all (the oldest lines go
// first). Part of src/node/, the layer shared by the extension host (its conductor's stderr) and
// the conductor (its agent's stderr), so both keep their tails the same way. Pure; no imports.

export class StderrTail {
  private lines: string[] = [];
  /** Characters in `lines`, newlines included. */
  private chars = 0;
  private partial = '';

  constructor(
    private readonly maxLines = 40,
    private readonly maxLineChars = 500,
    private readonly maxChars = Infinity,
  ) {}

  /** Adds a piece of output; calls `onLine` for every line it completes. */
  push(text: string, onLine?: (line: string) => void): void {
    const parts = (this.partial + text).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > this.maxLineChars * 4) {
      // A never-ending line: treat what we have as one line rather than grow without bound.
      parts.push(this.partial);
      this.partial = '';
    }
    for (const line of parts) {
      this.add(line);
      onLine?.(line);
    }
  }

  /** Flushes an unterminated last line (the process ended). */
  end(onLine?: (line: string) => void): void {
    if (!this.partial) return;
    const line = this.partial;
    this.partial = '';
    this.add(line);
    onLine?.(line);
  }

  text(): string {
    return [...this.lines, ...(this.partial ? [this.partial] : [])].join('\n');
  }

  private add(line: string): void {
    const kept = line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}…` : line;
    this.lines.push(kept);
    this.chars += kept.length + 1;
    while (this.lines.length > this.maxLines || (this.chars > this.maxChars && this.lines.length > 1)) {
      this.chars -= this.lines.shift()!.length + 1;
    }
  }
}
