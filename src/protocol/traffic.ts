// The protocol traffic viewer's model and its webview boundary. The conductor writes one trace line
// per message per hop (`{timestamp, from, to, message}`, credentials already masked: conductor/
// trace.ts); the extension reads them live from a pipe and keeps them per conductor process
// (src/traffic/trafficStore.ts). This file turns them into rows for one chat session: which
// messages belong to the session, request ↔ response pairing with timing, display masking
// (credentials, secretMask.ts, and env values), and large payloads cut for display. Plus the messages between the host and the
// viewer's webview, with their validator. Pure: no vscode, DOM or Node imports.
import { isObject } from './guards';
import { maskSecrets } from './secretMask';

export interface TrafficEntry {
  /** Order of arrival (per agent configuration, from 1). */
  seq: number;
  /**
   * Which conductor process wrote it. One history holds every process of an agent configuration
   * (a restart, or a stopping process replaced while its last lines still arrive), and each
   * process numbers its requests anew: a response belongs to the request of its own process.
   */
  conductor: number;
  /** Milliseconds since the epoch, from the trace line's timestamp. */
  time: number;
  from: string;
  to: string;
  message: Record<string, unknown>;
  /** Length of the trace line: what the message weighs. */
  bytes: number;
}

/**
 * A trace line as entries, one per hop; undefined if it is not a trace line. A line with `via`
 * (a message the components it names passed on unchanged, conductor/trace.ts) stands for
 * every hop from `from` through each of them to `to`: its entries share the line's `seq`, time
 * and message. `conductor`: which process wrote the line (TrafficEntry.conductor).
 */
export function parseTraceLine(line: string, seq: number, conductor: number): TrafficEntry[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || typeof parsed.from !== 'string' || typeof parsed.to !== 'string' || !isObject(parsed.message)) return undefined;
  const time = typeof parsed.timestamp === 'string' ? Date.parse(parsed.timestamp) : NaN;
  if (!Number.isFinite(time)) return undefined;
  const via = parsed.via === undefined ? [] : parsed.via;
  if (!Array.isArray(via) || !via.every((name): name is string => typeof name === 'string')) return undefined;
  const ends = [parsed.from, ...via, parsed.to];
  const message = parsed.message;
  return ends.slice(1).map((to, i) => ({ seq, conductor, time, from: ends[i]!, to, message, bytes: line.length }));
}

/**
 * The line a conductor writes into its trace where it left lines out because the editor fell
 * behind reading it (conductor/trace.ts `TracePipe`): `{"timestamp":…,"dropped":N}`. A trace line
 * always names `from` after its timestamp, so the two kinds cannot be confused.
 */
export function traceGapLine(dropped: number, timestamp: string): string {
  return `{"timestamp":"${timestamp}","dropped":${dropped}}`;
}

const TRACE_GAP = /^\{"timestamp":"[^"]*","dropped":(\d{1,15})\}$/;

/** How many lines a gap line says were left out; undefined for any other line. */
export function traceGapSize(line: string): number | undefined {
  if (line.length > 100) return undefined;
  const m = TRACE_GAP.exec(line);
  return m ? Number(m[1]) : undefined;
}

export type TrafficKind = 'request' | 'response' | 'notification';

const kindOf = (m: Record<string, unknown>): TrafficKind =>
  typeof m.method === 'string' ? (m.id !== undefined && m.id !== null ? 'request' : 'notification') : 'response';

/** A request's key on one hop of one process; its response's key is that of the reverse hop. */
const hopKey = (conductor: number, from: string, to: string, id: unknown): string =>
  `${conductor}\u0000${from}\u0000${to}\u0000${JSON.stringify(id)}`;
const SUCCESSOR_ENVELOPES = new Set(['proxy/successor', '_proxy/successor']);
const sessionIdIn = (v: unknown): string | undefined => (isObject(v) && typeof v.sessionId === 'string' ? v.sessionId : undefined);
/** The session a request or notification names: in its params, or in the message a proxy envelope wraps. */
const sessionOfMessage = (m: Record<string, unknown>): string | undefined =>
  sessionIdIn(m.params) ??
  (typeof m.method === 'string' && SUCCESSOR_ENVELOPES.has(m.method) && isObject(m.params) ? sessionIdIn(m.params.params) : undefined);
/** The session an answer names (a session/new's result), also inside a proxy envelope's. */
const sessionOfResult = (m: Record<string, unknown>): string | undefined => sessionIdIn(m.result);

/**
 * Picks the entries of one session out of a conductor's stream, incrementally: messages naming the
 * session, the responses to its requests, the `session/new` that created it (held until its answer
 * says which session it made) and the connection's `initialize`.
 */
export class SessionFilter {
  private readonly tracked = new Set<string>();
  private readonly pendingNew = new Map<string, TrafficEntry>();

  constructor(readonly sessionId: string) {}

  accept(entry: TrafficEntry): TrafficEntry[] {
    const m = entry.message;
    const kind = kindOf(m);
    if (kind === 'request') {
      const key = hopKey(entry.conductor, entry.from, entry.to, m.id);
      if (
        m.method === 'initialize' ||
        m.method === 'proxy/initialize' ||
        m.method === '_proxy/initialize' ||
        sessionOfMessage(m) === this.sessionId
      ) {
        this.tracked.add(key);
        return [entry];
      }
      const wrapped = typeof m.method === 'string' && SUCCESSOR_ENVELOPES.has(m.method) && isObject(m.params) ? m.params.method : undefined;
      // Requests whose answer names a new session: session/new, and session/fork (its params name the session it copies).
      const creates = (method: unknown): boolean => method === 'session/new' || method === 'session/fork';
      if (creates(m.method) || creates(wrapped) || wrapped === 'initialize') this.pendingNew.set(key, entry);
      return [];
    }
    if (kind === 'response') {
      const key = hopKey(entry.conductor, entry.to, entry.from, m.id);
      if (this.tracked.delete(key)) return [entry];
      const request = this.pendingNew.get(key);
      if (!request) return [];
      this.pendingNew.delete(key);
      const wrappedInitialize = isObject(request.message.params) && request.message.params.method === 'initialize';
      return sessionOfResult(m) === this.sessionId || wrappedInitialize ? [request, entry] : [];
    }
    if (sessionOfMessage(m) === this.sessionId) return [entry];
    // A cancellation of one of the session's requests.
    const requestId = isObject(m.params) ? m.params.requestId : undefined;
    return m.method === '$/cancel_request' && this.tracked.has(hopKey(entry.conductor, entry.from, entry.to, requestId)) ? [entry] : [];
  }
}

/** One line of the viewer. */
export interface TrafficRow {
  seq: number;
  time: number;
  from: string;
  to: string;
  kind: TrafficKind;
  /** The method; for a response, its request's. */
  method: string;
  id?: string;
  /** For a response: milliseconds since its request crossed the same hop. */
  durationMs?: number;
  /** For an error response: its message. */
  error?: string;
  /** Pretty JSON, env values masked; cut to PAYLOAD_DISPLAY_CHARS (Save trace keeps everything). */
  payload: string;
  bytes: number;
  /** Collapsed by default (more than LARGE_PAYLOAD_CHARS, or more than fits the one-line preview). */
  large: boolean;
  /** One line of the params (or result, or error) for the collapsed view. */
  preview: string;
  truncated: boolean;
}

export const LARGE_PAYLOAD_CHARS = 400;
const PREVIEW_CHARS = 140;
export const PAYLOAD_DISPLAY_CHARS = 200_000;
export const MASKED = '[masked]';

/**
 * What the viewer shows of a message: credentials masked by name and by shape (the conductor's
 * rules, secretMask.ts: a line traced by an older conductor, or a trace file opened, is masked the
 * same), and also every environment variable's value (`env: [{name, value}]` or
 * `env: {NAME: value}`): env values are where agents' and MCP servers' keys live.
 */
export function displayJson(message: unknown): string {
  return JSON.stringify(message, maskForDisplay, 2);
}

function maskForDisplay(this: unknown, key: string, value: unknown): unknown {
  return maskEnvValues(key, maskSecrets.call(this, key, value));
}

function maskEnvValues(key: string, value: unknown): unknown {
  if (key !== 'env') return value;
  if (Array.isArray(value)) return value.map((e: unknown) => (isObject(e) && 'value' in e ? { ...e, value: MASKED } : e));
  if (isObject(value)) return Object.fromEntries(Object.keys(value).map((k) => [k, MASKED]));
  return value;
}

/** Builds rows, pairing each response with the request that crossed the same hop before it. */
export class RowBuilder {
  private readonly requests = new Map<string, { method: string; time: number }>();

  row(entry: TrafficEntry): TrafficRow {
    const m = entry.message;
    const kind = kindOf(m);
    const id = m.id === undefined || m.id === null ? undefined : String(m.id as string | number);
    let method = typeof m.method === 'string' ? m.method : '';
    // A proxy's envelope names what it carries: "proxy/successor ▸ session/prompt".
    if (SUCCESSOR_ENVELOPES.has(method) && isObject(m.params) && typeof m.params.method === 'string')
      method = `${method} ▸ ${m.params.method}`;
    let durationMs: number | undefined;
    if (kind === 'request') this.requests.set(hopKey(entry.conductor, entry.from, entry.to, m.id), { method, time: entry.time });
    if (kind === 'response') {
      const key = hopKey(entry.conductor, entry.to, entry.from, m.id);
      const request = this.requests.get(key);
      this.requests.delete(key);
      if (request) {
        method = request.method;
        durationMs = entry.time - request.time;
      }
    }
    const error = kind === 'response' && isObject(m.error) && typeof m.error.message === 'string' ? m.error.message : undefined;
    const full = displayJson(m);
    const body = m.params ?? m.result ?? m.error;
    const compact = body === undefined ? '' : (JSON.stringify(body, maskForDisplay) ?? '');
    const preview = compact.length > PREVIEW_CHARS ? `${compact.slice(0, PREVIEW_CHARS)}…` : compact;
    const truncated = full.length > PAYLOAD_DISPLAY_CHARS;
    return {
      seq: entry.seq,
      time: entry.time,
      from: entry.from,
      to: entry.to,
      kind,
      method,
      ...(id !== undefined ? { id } : {}),
      ...(durationMs !== undefined ? { durationMs } : {}),
      ...(error !== undefined ? { error } : {}),
      payload: truncated
        ? `${full.slice(0, PAYLOAD_DISPLAY_CHARS)}\n… (${full.length - PAYLOAD_DISPLAY_CHARS} more characters; Save trace keeps all)`
        : full,
      bytes: entry.bytes,
      large: full.length > LARGE_PAYLOAD_CHARS || compact.length > PREVIEW_CHARS,
      preview,
      truncated,
    };
  }
}

/** The trace line of an entry for a saved file (the conductor's format, credentials and env values masked). */
export function savedLine(entry: TrafficEntry): string {
  return JSON.stringify(
    { timestamp: new Date(entry.time).toISOString(), from: entry.from, to: entry.to, message: entry.message },
    maskForDisplay,
  );
}

// ---- the viewer's webview boundary ------------------------------------------------------------

/**
 * With rows: `dropped`, older lines of the conductor the store no longer keeps (its bound);
 * `unrecorded`, lines the conductor left out of its trace while the editor was behind reading it.
 */
export type HostToTraffic =
  | { type: 'reset'; title: string; rows: TrafficRow[]; dropped: number; unrecorded: number }
  | { type: 'append'; rows: TrafficRow[]; dropped: number; unrecorded: number }
  /** Test mode only: sets the filter box, as typing would. */
  | { type: 'set-filter'; filter: string };

/** What the viewer shows, row by row (for tests; sent only in test mode). */
export interface RenderedTrafficRow {
  seq: number;
  hop: string;
  kind: TrafficKind;
  method: string;
  duration?: string;
  /** The payload text as shown (collapsed or not). */
  payload: string;
  collapsed: boolean;
}

export type TrafficToHost = { type: 'ready' } | { type: 'save' } | { type: 'rendered'; filter: string; rows: RenderedTrafficRow[] };

const MAX_RENDERED_ROWS = 50_000;

export function parseTrafficToHost(raw: unknown): { ok: true; message: TrafficToHost } | { ok: false; error: string } {
  if (!isObject(raw) || typeof raw.type !== 'string') return { ok: false, error: 'not a message' };
  if (raw.type === 'ready' || raw.type === 'save') return { ok: true, message: { type: raw.type } };
  if (raw.type !== 'rendered') return { ok: false, error: `unknown message type ${raw.type.slice(0, 50)}` };
  if (typeof raw.filter !== 'string' || !Array.isArray(raw.rows) || raw.rows.length > MAX_RENDERED_ROWS)
    return { ok: false, error: 'bad rendered' };
  const rows: RenderedTrafficRow[] = [];
  for (const r of raw.rows) {
    if (
      !isObject(r) ||
      typeof r.seq !== 'number' ||
      typeof r.hop !== 'string' ||
      (r.kind !== 'request' && r.kind !== 'response' && r.kind !== 'notification') ||
      typeof r.method !== 'string' ||
      typeof r.payload !== 'string' ||
      typeof r.collapsed !== 'boolean' ||
      (r.duration !== undefined && typeof r.duration !== 'string')
    )
      return { ok: false, error: 'bad rendered row' };
    rows.push({
      seq: r.seq,
      hop: r.hop,
      kind: r.kind,
      method: r.method,
      payload: r.payload,
      collapsed: r.collapsed,
      ...(r.duration !== undefined ? { duration: r.duration as string } : {}),
    });
  }
  return { ok: true, message: { type: 'rendered', filter: raw.filter, rows } };
}

/** Whether a row matches the viewer's filter: every word appears in its hop, kind, method or id. */
export function rowMatches(row: Pick<TrafficRow, 'from' | 'to' | 'kind' | 'method' | 'id'>, filter: string): boolean {
  const haystack = `${row.from} → ${row.to} ${row.from}->${row.to} ${row.kind} ${row.method} ${row.id ?? ''}`.toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
