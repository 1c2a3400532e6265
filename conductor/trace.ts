// `--trace-dir D`: every message at every hop, as JSON lines
// `{timestamp, from, to, message}` where from/to are "editor", a component name, or "agent".
// Traces hold prompts and file contents, so the folder is created 0700 and each file 0600 (and
// created exclusively: never appended to an existing file or through a planted link). Credentials
// are masked in what is written: bearer tokens anywhere, Authorization values, and the values of
// `{name, value}` pairs (HTTP headers, env entries such as the MCP shim's SYMPOSIUM_MCP_TOKEN)
// whose name says secret, and the settings of OpenCtx providers (`{uri, settings}` entries of a
// session's `_meta.symposium.openctx`). The messages themselves travel unchanged.
//
// The same lines can also go to a file descriptor the editor opened for the conductor
// (SYMPOSIUM_TRACE_FD, set by src/agents/conductorProcess.ts): the extension's traffic viewer
// reads them live from that pipe.
import { createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { join } from 'node:path';
import { isObject } from '../src/protocol/guards';
import { rawTextOf, type RpcMessage } from './jsonrpc/message';
import { TickBatch } from './jsonrpc/tickBatch';

export const REDACTED = '[redacted]';
const BEARER = /\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const SECRET_NAME = /authorization|token|secret|password|passwd|api[-_]?key|credential|cookie/i;
const SECRET_KEY = /^(proxy-)?authorization$|^cookie$/i;

const maskBearer = (text: string): string => text.replace(BEARER, `$1 ${REDACTED}`);
/** A secret value: "Bearer [redacted]" keeps the scheme visible, anything else is all masked. */
const maskSecret = (text: string): string => (/^\s*Bearer\s/i.test(text) ? `Bearer ${REDACTED}` : REDACTED);

/** JSON.stringify replacer that masks credentials (see the header). */
function mask(key: string, value: unknown): unknown {
  if (typeof value === 'string') return SECRET_KEY.test(key) ? maskSecret(value) : maskBearer(value);
  if (isObject(value) && typeof value.name === 'string' && typeof value.value === 'string' && SECRET_NAME.test(value.name)) {
    return { ...value, value: maskSecret(value.value) };
  }
  if (isObject(value) && typeof value.uri === 'string' && isObject(value.settings)) return { ...value, settings: REDACTED };
  return value;
}

/** The trace line for one message, credentials masked. */
export function traceLine(from: string, to: string, message: RpcMessage, timestamp = isoNow()): string {
  return `{"timestamp":"${timestamp}","from":${nameJson(from)},"to":${nameJson(to)},"message":${maskedJson(message)}}`;
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
 * place (components forward new objects), so the text stays true. Kept on the message under a
 * non-enumerable symbol, as its raw line is (jsonrpc/message.ts: a WeakMap cost more than the
 * tracing it saved), so a changed copy does not carry it.
 */
const MASKED_JSON = Symbol('maskedJson');
function maskedJson(message: RpcMessage): string {
  const cached = (message as { [MASKED_JSON]?: string })[MASKED_JSON];
  if (cached !== undefined) return cached;
  // Most messages hold nothing mask() would change: their plain JSON (for a message forwarded
  // as it arrived, the very line it came in) is the masked JSON, without a replacer call per
  // value (which cost the extension's always-on tracing several times the forwarding itself).
  const plain = rawTextOf(message) ?? JSON.stringify(message);
  const text = MAYBE_SECRET.test(plain) ? JSON.stringify(message, mask) : plain;
  Object.defineProperty(message, MASKED_JSON, { value: text });
  return text;
}

/**
 * Whether a message's JSON may hold anything mask() changes: a secret-looking name or key, a
 * bearer token, an OpenCtx settings object, or a \u escape (which could spell any of these).
 * False positives only cost the slower, masking serialization.
 */
const MAYBE_SECRET = new RegExp(`bearer|settings|\\\\u|${SECRET_NAME.source}`, 'i');

let lastMs = 0;
let lastIso = '';
/** The current time as an ISO string, made once per millisecond (a stream traces many per ms). */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
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
    this.batch = new TickBatch((text) => {
      if (!stream.destroyed) stream.write(text);
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
  record(from: string, to: string, message: RpcMessage): void;
  close(): Promise<void>;
}

export class TraceWriter implements TraceSink {
  private readonly stream: WriteStream;
  private readonly out: TickBatchedWrites;
  readonly path: string;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // an existing folder keeps its mode
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    this.path = join(dir, `conductor-${stamp}-${process.pid}.jsonl`);
    this.stream = createWriteStream('', { fd: openSync(this.path, 'wx', 0o600) });
    this.out = new TickBatchedWrites(this.stream);
  }

  record(from: string, to: string, message: RpcMessage): void {
    this.out.write(traceLine(from, to, message));
  }

  close(): Promise<void> {
    this.out.flush();
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }
}

/** The file descriptor of the editor's trace pipe (SYMPOSIUM_TRACE_FD); taken out of `env` so no child inherits it. */
export const TRACE_FD_VAR = 'SYMPOSIUM_TRACE_FD';

export function takeTraceFd(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[TRACE_FD_VAR];
  delete env[TRACE_FD_VAR];
  const fd = Number(raw);
  return raw && Number.isSafeInteger(fd) && fd > 2 ? fd : undefined;
}

/**
 * Trace lines to an inherited pipe. If the pipe is not there (EBADF) or its reader went away,
 * tracing to it stops with one log line; the conductor goes on. A reader that falls behind by
 * MAX_TRACE_BACKLOG loses trace lines until it catches up, and `onBehind` says so (log lines).
 */
export class TracePipe implements TraceSink {
  private readonly stream: WriteStream;
  private readonly out: TickBatchedWrites;
  private broken = false;

  constructor(
    fd: number,
    onError: (err: Error) => void,
    onBehind: (message: string) => void = () => undefined,
    maxBacklog = MAX_TRACE_BACKLOG,
  ) {
    this.stream = createWriteStream('', { fd, autoClose: true });
    this.out = new TickBatchedWrites(this.stream, {
      maxBacklog,
      onDrop: (dropped) =>
        onBehind(
          dropped === 0
            ? 'the editor is not reading the protocol trace; trace lines are dropped until it catches up (the protocol is not affected)'
            : `the editor caught up with the protocol trace; ${dropped} trace line(s) were dropped meanwhile`,
        ),
    });
    this.stream.on('error', (err) => {
      if (this.broken) return;
      this.broken = true;
      onError(err);
    });
  }

  record(from: string, to: string, message: RpcMessage): void {
    if (!this.broken) this.out.write(traceLine(from, to, message));
  }

  close(): Promise<void> {
    if (!this.broken) this.out.flush();
    return new Promise((resolve) => (this.broken ? resolve() : this.stream.end(() => resolve())));
  }
}

/** Records to every sink. */
export function teeTrace(sinks: readonly TraceSink[]): TraceSink | undefined {
  if (sinks.length <= 1) return sinks[0];
  return {
    record: (from, to, message) => {
      for (const s of sinks) s.record(from, to, message);
    },
    close: async () => void (await Promise.all(sinks.map((s) => s.close()))),
  };
}
