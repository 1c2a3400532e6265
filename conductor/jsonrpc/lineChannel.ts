// Newline-delimited JSON over a pair of Node streams, as ACP frames it. Reading is tolerant:
// a line that is not a JSON-RPC message is reported to the owner (who logs it and, where the
// peer expects it, answers with an error) and reading goes on.
import type { Readable, Writable } from 'node:stream';
import { parseLine, type JsonRpcId, type RpcError, type RpcMessage } from './message';

/** Lines longer than this are refused rather than buffered without bound. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface LineChannelEvents {
  message(message: RpcMessage): void;
  invalid(line: string, error: RpcError, id: JsonRpcId | null): void;
  end(): void;
}

export class LineChannel {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowing = false;
  private closed = false;
  private ended = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly events: LineChannelEvents,
  ) {
    input.on('data', (chunk: Buffer) => this.onData(chunk));
    input.on('end', () => this.finish());
    input.on('close', () => this.finish());
    input.on('error', () => this.finish());
    // EPIPE and friends: the peer is gone; the owner learns it from `end` or the process exit.
    output.on('error', () => { this.closed = true; });
  }

  send(message: RpcMessage): void {
    if (this.closed) return;
    this.output.write(JSON.stringify(message) + '\n');
  }

  /** Resolves once everything written so far has been handed to the OS. */
  flush(): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed || this.output.writableLength === 0) return resolve();
      this.output.write('', () => resolve());
    });
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.pushPart(chunk.subarray(start, nl));
      this.emitLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.pushPart(chunk.subarray(start));
  }

  private pushPart(part: Buffer): void {
    if (this.overflowing) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > MAX_LINE_BYTES) {
      this.overflowing = true;
      this.pending = [];
      return;
    }
    this.pending.push(part);
  }

  private emitLine(): void {
    if (this.overflowing) {
      this.overflowing = false;
      this.pendingBytes = 0;
      this.events.invalid('<line too long>', { code: -32600, message: `message exceeds ${MAX_LINE_BYTES} bytes` }, null);
      return;
    }
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (parsed.ok) this.events.message(parsed.message);
    else this.events.invalid(line, parsed.error, parsed.id);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.pending.length > 0) this.emitLine();
    this.events.end();
  }
}
