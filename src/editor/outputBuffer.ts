// The output of one terminal (ACP terminal/output): stdout and stderr interleaved in arrival order,
// capped at a byte limit by dropping from the START, always at a UTF-8 character boundary. Each
// pipe is decoded on its own (StreamDecoder) before its text is appended, so a character split
// across two reads of one pipe is never torn apart by the other pipe's bytes. vscode-free.
import { StringDecoder } from 'node:string_decoder';

/** The first index at or after `i` where a UTF-8 character starts (skips continuation bytes). */
export function charStart(buf: Uint8Array, i: number): number {
  while (i < buf.length && (buf[i]! & 0xc0) === 0x80) i++;
  return i;
}

/** At most the last `limit` bytes of `buf`, starting on a character; a copy when cut. */
function tailAtCharBoundary(buf: Buffer, limit: number): Buffer {
  if (buf.length <= limit) return buf;
  return Buffer.from(buf.subarray(charStart(buf, buf.length - Math.max(0, limit))));
}

/** Turns one pipe's bytes into whole characters; the bytes of a split character wait for the rest. */
export class StreamDecoder {
  private readonly decoder = new StringDecoder('utf8');
  write(chunk: Buffer): string {
    return this.decoder.write(chunk);
  }
  /** The pipe closed: a dangling partial character becomes U+FFFD. */
  end(): string {
    return this.decoder.end();
  }
}

export class OutputBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private cut = false;
  private cached: string | undefined = '';

  constructor(readonly limit: number) {}

  /** Whether anything was dropped from the start. */

  /** Appends decoded text (whole characters). */
  append(text: string): void {
    if (!text) return;
    let b: Buffer = Buffer.from(text, 'utf8');
    if (b.length > this.limit) {
      b = tailAtCharBoundary(b, this.limit);
      this.chunks = [];
      this.size = 0;
      this.cut = true;
    }
    if (b.length > 0) {
      this.chunks.push(b);
      this.size += b.length;
    }
    if (this.size > this.limit) {
      this.dropFront(this.size - this.limit);
      this.cut = true;
    }
    // Many small reads: keep the list short.
    if (this.chunks.length > 256) this.chunks = [Buffer.concat(this.chunks, this.size)];
    this.cached = undefined;
  }

  /** The text kept so far; with `maxBytes`, only its tail (at a character boundary). */
  text(maxBytes?: number): { text: string; truncated: boolean } {
    if (maxBytes === undefined || maxBytes >= this.size) {
      this.cached ??= Buffer.concat(this.chunks, this.size).toString('utf8');
      return { text: this.cached, truncated: this.cut };
    }
    const all = Buffer.concat(this.chunks, this.size);
    return { text: tailAtCharBoundary(all, maxBytes).toString('utf8'), truncated: true };
  }

  /** Drops `n` bytes from the start, then any continuation bytes of a character cut in half. */
  private dropFront(n: number): void {
    while (n > 0 && this.chunks.length > 0) {
      const first = this.chunks[0]!;
      if (first.length <= n) {
        this.chunks.shift();
        this.size -= first.length;
        n -= first.length;
      } else {
        this.chunks[0] = first.subarray(n);
        this.size -= n;
        n = 0;
      }
    }
    while (this.chunks.length > 0) {
      const first = this.chunks[0]!;
      const start = charStart(first, 0);
      if (start === 0) break;
      this.size -= start;
      if (start >= first.length) this.chunks.shift();
      else this.chunks[0] = Buffer.from(first.subarray(start));
    }
  }
}
