// Newline-delimited JSON over a pair of Node streams, as ACP frames it. Reading is tolerant:
// a line that is not a JSON-RPC message is reported to the owner (who logs it and, where the
// peer expects it, answers with an error) and reading goes on.
//
// Backpressure: a channel never drops or reorders, so when its output cannot keep up (the peer
// stopped reading, the pipe is full) the messages bound for it must stop being read, wherever
// they come from: the channel reports `backpressure(true)` when a write fills the output's
// buffer and `backpressure(false)` on 'drain', and the owner pauses and resumes the input that
// feeds it (the other channel's; see Conductor). Memory then stays at about one output buffer
// plus one input chunk, however much the sender has waiting.
import type { Readable, Writable } from 'node:stream';
import { parseLine, rawTextOf, type JsonRpcId, type MessageKind, type RpcError, type RpcMessage } from './message';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import { TickBatch } from './tickBatch';
import { ReadCoalescer } from './readCoalescer';

/** Lines longer than this are refused rather than buffered without bound. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface LineChannelEvents {
  message(message: RpcMessage): void;
  invalid(line: string, error: RpcError, id: JsonRpcId | null, kind?: MessageKind): void;
  end(): void;
  /** The output's buffer is full (true): stop feeding it; or drained again (false). */
  backpressure?(full: boolean): void;
}

export class LineChannel {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowing = false;
  private closed = false;
  private ended = false;
  private outputFull = false;
  private inputPaused = false;
  private readonly coalescer: ReadCoalescer | undefined;

  /** `coalesceReads`: read a running stream in fewer, larger reads (readCoalescer.ts). */
  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly events: LineChannelEvents,
    options: { coalesceReads?: boolean } = {},
  ) {
    if (options.coalesceReads) this.coalescer = new ReadCoalescer(input);
    input.on('data', (chunk: Buffer) => this.onData(chunk));
    input.on('end', () => this.finish());
    input.on('close', () => this.finish());
    input.on('error', () => this.finish());
    // EPIPE and friends: the peer is gone; the owner learns it from `end` or the process exit.
    // Whatever waits for this output's 'drain' must not wait forever: release it.
    output.on('error', () => this.closeOutput());
    output.on('close', () => this.closeOutput());
    output.on('drain', () => this.setFull(false));
  }

  /**
   * Writes `message` as one line: the text it was parsed from when it is forwarded unchanged,
   * else JSON.stringify (which may throw, e.g. on a cycle: the caller decides what that costs).
   */
  send(message: RpcMessage): void {
    if (this.closed) return;
    this.coalescer?.sent();
    // Lines sent in one go (the messages of one input chunk) leave in one write (tickBatch.ts).
    this.outgoing.add(rawTextOf(message) ?? JSON.stringify(message));
  }

  /** The lines sent since the last write (they leave together, on the next tick). */
  private readonly outgoing = new TickBatch((bytes) => {
    if (!this.closed && !this.output.write(bytes)) this.setFull(true);
  });

  /** Whether the output's buffer is full (its reader is behind). */
  get full(): boolean {
    return this.outputFull;
  }

  get paused(): boolean {
    return this.inputPaused;
  }

  /** Stops reading input until resumeInput (the lines of a chunk already read still arrive). */
  pauseInput(): void {
    if (this.inputPaused || this.ended) return;
    this.inputPaused = true;
    this.input.pause();
  }

  resumeInput(): void {
    if (!this.inputPaused) return;
    this.inputPaused = false;
    this.input.resume();
  }

  /** Resolves once everything written so far has been handed to the OS. */
  flush(): Promise<void> {
    return new Promise((resolve) => {
      this.outgoing.flush();
      if (this.closed || this.output.writableLength === 0) return resolve();
      this.output.write('', () => resolve());
    });
  }

  private setFull(full: boolean): void {
    if (this.outputFull === full) return;
    this.outputFull = full;
    this.events.backpressure?.(full);
  }

  private closeOutput(): void {
    this.closed = true;
    this.outgoing.clear();
    this.setFull(false);
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.pushPart(chunk.subarray(start, nl));
      this.emitLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.pushPart(chunk.subarray(start));
    this.coalescer?.afterRead(chunk.length);
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
      this.events.invalid('<line too long>', { code: ErrorCodes.invalidRequest, message: `message exceeds ${MAX_LINE_BYTES} bytes` }, null);
      return;
    }
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    const line = bytes.toString('utf8', 0, end);
    // Blank lines are skipped; a message line starts with "{", so only other lines pay for trim.
    if (line.charCodeAt(0) !== 0x7b && line.trim() === '') return;
    const parsed = parseLine(line);
    if (parsed.ok) this.events.message(parsed.message);
    else this.events.invalid(line, parsed.error, parsed.id, parsed.kind);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.coalescer?.stop();
    if (this.pending.length > 0) this.emitLine();
    this.events.end();
  }
}
