// `--trace-dir D`: every message at every hop, as JSON lines
// `{timestamp, from, to, message}` where from/to are "editor", a component name, or "agent".
// A message that components pass on without looking at it (a streamed reply's `session/update`s,
// a prompt that only some components want, and its response; chain.ts) crosses them as one line
// with `"via": [names…]`: it went from `from` through each of those, unchanged, to `to` — every
// hop, written once (readers expand it: src/protocol/traffic.ts).
// Traces hold prompts and file contents, so the folder is created 0700 and each file 0600 (and
// created exclusively: never appended to an existing file or through a planted link). Credentials
// are masked in what is written, by name and by shape (src/protocol/secretMask.ts, shared with the
// traffic viewer): secret-named properties, `{name, value}` pairs (HTTP headers, env entries such
// as the MCP shim's SYMPOSIUM_MCP_TOKEN), assignments, query parameters and flags; bearer tokens,
// URL userinfo, PEM keys and known token formats anywhere; and the settings of OpenCtx providers
// (`{uri, settings}` entries of a session's `_meta.symposium.openctx`). The messages themselves
// travel unchanged.
//
// The same lines can also go to a file descriptor the editor opened for the conductor
// (SYMPOSIUM_TRACE_FD, set by src/agents/conductorProcess.ts): the extension's traffic viewer
// reads them live from that pipe. If the editor falls too far behind reading it, lines are left
// out until it catches up, and then one line `{timestamp, dropped: N}` marks the gap in the trace
// itself (src/protocol/traffic.ts `traceGapLine`), so the viewer says what it is missing.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { join } from 'node:path';
import { mayHoldSecret, maskSecrets, REDACTED } from '../src/protocol/secretMask';
import { traceGapLine } from '../src/protocol/traffic';
import { isoUtc } from './isoTime';
import { messageSlot, rawTextOf, type RpcMessage } from './jsonrpc/message';
import { TickBatch } from './jsonrpc/tickBatch';

export { REDACTED };

/**
 * The trace line for one message, credentials masked. `via`: the components it passed by
 * unchanged between `from` and `to` (chain.ts TraceHook), listed in the line's "via" field.
 */
export function traceLine(from: string, to: string, message: RpcMessage, via?: readonly string[], timestamp = isoNow()): string {
  const passed = via?.length ? viaJson(via) : '';
  return `{"timestamp":"${timestamp}","from":${nameJson(from)},"to":${nameJson(to)}${passed},"message":${maskedJson(message)}}`;
}

/** The "via" field for a list of names, made once per list (the chain hands out the same lists). */
const viaJsonOf = new WeakMap<readonly string[], string>();
function viaJson(via: readonly string[]): string {
  let json = viaJsonOf.get(via);
  if (json === undefined) viaJsonOf.set(via, (json = `,"via":[${via.map(nameJson).join(',')}]`));
  return json;
}

/** A hop's end as JSON: "editor", "agent" or a component's name (ours; nothing to mask). */
const namesJson = new Map<string, string>();
function nameJson(name: string): string {
  let json = namesJson.get(name);
  if (json === undefined) namesJson.set(name, (json = JSON.stringify(name)));
  return json;
}

/**
 * A message's masked JSON, made once per message object: a notification crosses every hop as the
 * same object (only requests and responses get new ids), and the extension traces every hop, so
 * a streamed reply is serialized once rather than once per hop. Messages are never changed in
 * place (components forward new objects), so the text stays true. Kept on the message, as its raw
 * line is (messageSlot), so a changed copy does not carry it.
 */
const maskedJsonOf = messageSlot<string>('maskedJson');
function maskedJson(message: RpcMessage): string {
  const cached = maskedJsonOf.get(message);
  if (cached !== undefined) return cached;
  // Most messages hold nothing mask() would change: their plain JSON (for a message forwarded
  // as it arrived, the very line it came in) is the masked JSON, without a replacer call per
  // value (which cost the extension's always-on tracing several times the forwarding itself).
  const plain = rawTextOf(message) ?? JSON.stringify(message);
  const text = mayHoldSecret(plain) ? JSON.stringify(message, maskSecrets) : plain;
  maskedJsonOf.set(message, text);
  return text;
}

let lastMs = 0;
let lastIso = '';
/** The current time as an ISO string, made once per millisecond (a stream traces many per ms). */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = isoUtc(ms);
  }
  return lastIso;
}

/** How much trace text may wait for the editor's pipe before lines are dropped (the editor is behind). */
export const MAX_TRACE_BACKLOG = 16 * 1024 * 1024;

export interface TraceBacklogBound {
  maxBacklog: number;
  /** Lines began to be dropped (`dropped` 0), or writing resumed after `dropped` lines. */
  onDrop(dropped: number): void;
}

/**
 * Trace lines written to a stream once per tick, together (tickBatch.ts: a stream traces a line
 * per message per hop). With a bound (the editor's pipe): when the reader falls behind by
 * `maxBacklog`, lines are dropped until the stream drains, and both moments are reported — the
 * trace is diagnostics, and holding it without limit would grow the conductor's memory for as
 * long as the reader stays behind.
 */
export class TickBatchedWrites {
  private readonly batch: TickBatch;
  private dropped = 0;
  private dropping = false;

  constructor(
    private readonly stream: Writable,
    private readonly bound?: TraceBacklogBound,
  ) {
    this.batch = new TickBatch((bytes) => {
      if (!stream.destroyed) stream.write(bytes);
    });
    if (bound) stream.on('drain', () => this.resume());
  }

  write(line: string): void {
    if (this.bound && (this.dropping || this.stream.writableLength + this.batch.pending > this.bound.maxBacklog)) {
      if (!this.dropping) {
        this.dropping = true;
        this.bound.onDrop(0);
      }
      this.dropped++;
      return;
    }
    this.batch.add(line);
  }

  flush(): void {
    this.batch.flush();
  }

  private resume(): void {
    if (!this.dropping) return;
    this.dropping = false;
    const dropped = this.dropped;
    this.dropped = 0;
    this.bound?.onDrop(dropped);
  }
}

/** Where trace lines go: a file, the editor's pipe, or both. */
export interface TraceSink {
  record(from: string, to: string, message: RpcMessage, via?: readonly string[]): void;
  close(): Promise<void>;
}

/**
 * The trace file. Written synchronously, once per tick (TickBatch): a local file takes a write
 * into the page cache in microseconds, where a WriteStream sent every write through libuv's
 * thread pool (a thread handoff per write, and the pool's threads and their malloc arenas in the
 * conductor's memory for as long as it runs). A failed write (disk full) stops this trace, once,
 * with `onError`; the conductor goes on.
 */
export class TraceWriter implements TraceSink {
  private readonly fd: number;
  private readonly out: TickBatch;
  /** No more writes: one failed, or the trace was closed. */
  private stopped = false;
  private closed = false;
  readonly path: string;

  constructor(
    dir: string,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // an existing folder keeps its mode
    const stamp = isoUtc(Date.now()).replace(/[:.]/g, '-');
    this.path = join(dir, `conductor-${stamp}-${process.pid}.jsonl`);
    this.fd = openSync(this.path, 'wx', 0o600);
    this.out = new TickBatch((bytes) => this.writeAll(bytes));
  }

  record(from: string, to: string, message: RpcMessage, via?: readonly string[]): void {
    if (!this.stopped) this.out.add(traceLine(from, to, message, via));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.out.flush();
    this.stopped = this.closed = true;
    closeSync(this.fd);
    return Promise.resolve();
  }

  private writeAll(bytes: Buffer): void {
    if (this.stopped) return;
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at);
    } catch (err) {
      this.stopped = true;
      this.onError(err as Error);
    }
  }
}

/**
 * Trace lines to an inherited pipe. If the pipe is not there (EBADF) or its reader went away,
 * tracing to it stops with one log line; the conductor goes on. A reader that falls behind by
 * MAX_TRACE_BACKLOG loses trace lines until it catches up, and `onBehind` says so (log lines).
 */
export class TracePipe implements TraceSink {
  /** A socket on the inherited descriptor: written without blocking, through the event loop (no thread pool). */
  private readonly socket: Socket | undefined;
  private readonly out: TickBatchedWrites | undefined;
  private broken = false;

  constructor(
    fd: number,
    private readonly onError: (err: Error) => void,
    onBehind: (message: string) => void = () => undefined,
    maxBacklog = MAX_TRACE_BACKLOG,
  ) {
    try {
      this.socket = new Socket({ fd, readable: false, writable: true });
    } catch (err) {
      // Not an open descriptor, or not one a socket can write (EBADF, a regular file…).
      this.fail(err as Error);
      return;
    }
    this.socket.on('error', (err) => this.fail(err));
    this.out = new TickBatchedWrites(this.socket, {
      maxBacklog,
      onDrop: (dropped) => {
        onBehind(
          dropped === 0
            ? 'the editor is not reading the protocol trace; trace lines are dropped until it catches up (the protocol is not affected)'
            : `the editor caught up with the protocol trace; ${dropped} trace line(s) were dropped meanwhile`,
        );
        if (dropped > 0) this.out?.write(traceGapLine(dropped, isoNow()));
      },
    });
  }

  record(from: string, to: string, message: RpcMessage, via?: readonly string[]): void {
    if (!this.broken) this.out?.write(traceLine(from, to, message, via));
  }

  close(): Promise<void> {
    const socket = this.socket;
    if (this.broken || !socket) return Promise.resolve();
    this.out?.flush();
    return new Promise((resolve) => socket.end(() => resolve()));
  }

  private fail(err: Error): void {
    if (this.broken) return;
    this.broken = true;
    this.onError(err);
  }
}

/** Records to every sink. */
export function teeTrace(sinks: readonly TraceSink[]): TraceSink | undefined {
  if (sinks.length <= 1) return sinks[0];
  return {
    record: (from, to, message, via) => {
      for (const s of sinks) s.record(from, to, message, via);
    },
    close: async () => void (await Promise.all(sinks.map((s) => s.close()))),
  };
}
