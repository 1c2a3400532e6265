// The last lines a process wrote to stderr: the clue shown next to "agent exited". Splits the byte
// stream into lines (a line may arrive in pieces) and keeps a bounded tail. Pure.

export class StderrTail {
  private lines: string[] = [];
  private partial = '';

  constructor(private readonly maxLines = 40, private readonly maxLineChars = 500) {}

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
    this.lines.push(line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)}…` : line);
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
  }
}
