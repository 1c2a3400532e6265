// JSON-RPC 2.0 messages as the conductor sees them: raw objects, so that every field we do not
// interpret (`_meta`, unstable fields, unknown top-level keys) survives forwarding unchanged.
// Only `id` is ever rewritten, hop by hop. A parsed message remembers the line it came from
// (rawTextOf): a message forwarded as it arrived is written out as that very text, without
// re-serializing it (cheaper, and byte-for-byte what the peer sent).
import { ErrorCodes } from '../../src/protocol/errorCodes';
import { isObject } from '../../src/protocol/guards';
import { matchTextChunkLine } from '../../src/protocol/textChunkLine';
import { errorText } from '../../src/protocol/errorText';

export type JsonRpcId = string | number;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

type Extra = { [key: string]: unknown };

export interface RpcRequest extends Extra {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: unknown;
}
export interface RpcNotification extends Extra {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}
export interface RpcSuccess extends Extra {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}
export interface RpcFailure extends Extra {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: RpcError;
}
export type RpcResponse = RpcSuccess | RpcFailure;
export type RpcMessage = RpcRequest | RpcNotification | RpcResponse;

/** The outcome of a request, without the envelope: what a response carries. */
export type RpcOutcome = { result: unknown } | { error: RpcError };

export const isRequest = (m: RpcMessage): m is RpcRequest => 'method' in m && 'id' in m && m.id !== undefined;
export const isNotification = (m: RpcMessage): m is RpcNotification => 'method' in m && !('id' in m && m.id !== undefined);
export const isResponse = (m: RpcMessage): m is RpcResponse => !('method' in m);

export function outcomeOf(response: RpcResponse): RpcOutcome {
  return 'error' in response ? { error: response.error as RpcError } : { result: response.result };
}

export function responseFor(id: JsonRpcId | null, outcome: RpcOutcome): RpcResponse {
  if ('error' in outcome) return { jsonrpc: '2.0', id, error: outcome.error as RpcError };
  return { jsonrpc: '2.0', id: id as JsonRpcId, result: outcome.result };
}

/** What a refused line was, when that could be read: its sender needs an answer only for a request. */
export type MessageKind = 'request' | 'notification' | 'response';

export type ParseResult = { ok: true; message: RpcMessage } | { ok: false; error: RpcError; id: JsonRpcId | null; kind?: MessageKind };

/**
 * Messages nested deeper than this are refused before JSON.parse. JSON.parse copes with any
 * depth, but JSON.stringify (re-serializing a changed message, logging, tracing) recurses and
 * throws a RangeError at a few thousand levels; no ACP message comes anywhere near this.
 */
export const MAX_DEPTH = 1000;

/** A value kept on a message object itself (messageSlot). */
export interface MessageSlot<T> {
  get(message: RpcMessage): T | undefined;
  set(message: RpcMessage, value: T): void;
}

/**
 * A value kept on the message object itself, under a non-enumerable symbol (for a streamed text
 * chunk, in its private slots: TextChunkMessage): a changed copy (`{...message, id}`,
 * Object.assign, structuredClone) does not carry it, so it always describes that very object.
 * (A WeakMap did the same at twice the cost of parsing and forwarding a line: every entry is an
 * ephemeron the garbage collector must trace.)
 */
export function messageSlot<T>(name: string): MessageSlot<T> {
  const key = Symbol(name);
  return {
    get: (message) => (TextChunkMessage.slotsOf(message) ?? (message as unknown as Record<symbol, T | undefined>))[key] as T | undefined,
    set: (message, value) => {
      const slots = TextChunkMessage.slotsOf(message, true);
      if (slots) slots[key] = value;
      else Object.defineProperty(message, key, { value });
    },
  };
}

const rawText = messageSlot<string>('rawText');

/** The line `message` was parsed from, if it is that very object (not a changed copy). */
export function rawTextOf(message: RpcMessage): string | undefined {
  return TextChunkMessage.lineOf(message) ?? rawText.get(message);
}

const isId = (v: unknown): v is JsonRpcId => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Validates one decoded JSON value as a JSON-RPC 2.0 message. */
export function validateMessage(value: unknown): ParseResult {
  if (Array.isArray(value)) {
    return { ok: false, id: null, error: { code: ErrorCodes.invalidRequest, message: 'JSON-RPC batches are not supported by ACP' } };
  }
  if (!isObject(value)) {
    return { ok: false, id: null, error: { code: ErrorCodes.invalidRequest, message: 'a JSON-RPC message must be an object' } };
  }
  const id = 'id' in value ? value.id : undefined;
  const safeId = isId(id) ? id : null;
  const fail = (message: string): ParseResult => ({ ok: false, id: safeId, error: { code: ErrorCodes.invalidRequest, message } });
  if (value.jsonrpc !== '2.0') return fail('missing or wrong "jsonrpc" (must be "2.0")');
  if (id !== undefined && id !== null && !isId(id)) return fail('"id" must be a string or a number');
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method.length === 0) return fail('"method" must be a non-empty string');
    if ('params' in value && value.params !== undefined && typeof value.params !== 'object')
      return fail('"params" must be an object or an array');
    return { ok: true, message: value as RpcMessage };
  }
  if ('result' in value === 'error' in value) return fail('a response carries exactly one of "result" and "error"');
  if ('error' in value) {
    const err = value.error;
    if (!isObject(err) || typeof err.code !== 'number' || typeof err.message !== 'string')
      return fail('"error" must be {code: number, message: string}');
    return { ok: true, message: value as RpcMessage };
  }
  if (!isId(id)) return fail('a response needs an "id"');
  return { ok: true, message: value as RpcMessage };
}

/** Decodes and validates one line of newline-delimited JSON-RPC. */
export function parseLine(line: string): ParseResult {
  const chunk = textChunkMessage(line);
  if (chunk) return { ok: true, message: chunk };
  const deep = tooDeep(line);
  if (deep)
    return { ok: false, ...deep, error: { code: ErrorCodes.invalidRequest, message: `message nested deeper than ${MAX_DEPTH} levels` } };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, id: null, error: { code: ErrorCodes.parseError, message: `not valid JSON: ${errorText(err)}` } };
  }
  const result = validateMessage(value);
  if (result.ok) rawText.set(result.message, line);
  return result;
}

/**
 * A streamed text chunk in the ACP SDK's own spelling, built from its parts without parsing the
 * whole line (a fast stream is almost all such lines, and JSON.parse of each was the conductor's
 * largest per-message cost): the same object JSON.parse would give, valid by construction.
 */
function textChunkMessage(line: string): RpcMessage | undefined {
  const m = matchTextChunkLine(line);
  if (!m) return undefined;
  const update: Record<string, unknown> = { sessionUpdate: m.kind, content: { type: 'text', text: unescaped(m.text) } };
  if (m.messageId !== undefined) update.messageId = unescaped(m.messageId.slice(1, -1));
  return new TextChunkMessage({ sessionId: unescaped(m.sessionId.slice(1, -1)), update }, line) as unknown as RpcMessage;
}

/**
 * A text chunk's message: the same own properties, in the same order, as JSON.parse gives, and
 * its line in a private field. A private field is invisible to JSON, spreads, Object.assign and
 * structuredClone, so a changed copy does not carry the line (as with messageSlot), and setting
 * it costs nothing: defining a non-enumerable property on each chunk was 7 % of the conductor's
 * CPU on a fast stream.
 */
class TextChunkMessage {
  readonly jsonrpc = '2.0';
  readonly method = 'session/update';
  readonly params: Record<string, unknown>;
  readonly #line: string;
  /** Its messageSlot values (the trace's masked JSON), private as the line is. */
  #slots: Record<symbol, unknown> | undefined;
  constructor(params: Record<string, unknown>, line: string) {
    this.params = params;
    this.#line = line;
  }
  static lineOf(message: object): string | undefined {
    return #line in message ? (message as TextChunkMessage).#line : undefined;
  }
  /** A chunk's slot values (made on first use with `create`); undefined for any other message. */
  static slotsOf(message: object, create = false): Record<symbol, unknown> | undefined {
    if (!(#slots in message)) return undefined;
    const chunk = message as TextChunkMessage;
    if (create) chunk.#slots ??= {};
    return chunk.#slots;
  }
}

/** A JSON string's body (already checked by the expression) as the string: most have no escape to decode. */
const unescaped = (body: string): string => (body.includes('\\') ? (JSON.parse(`"${body}"`) as string) : body);

/**
 * When `line` nests brackets deeper than MAX_DEPTH (outside strings), what can be read of it
 * without parsing: its top-level "id" and whether it has a "method". Otherwise undefined.
 */
export function tooDeep(line: string): { id: JsonRpcId | null; kind?: MessageKind } | undefined {
  // Fast path (native indexOf, no per-character JS): too few brackets to be that deep.
  let opens = 0;
  for (const bracket of ['{', '[']) {
    for (let i = line.indexOf(bracket); i !== -1 && opens <= MAX_DEPTH; i = line.indexOf(bracket, i + 1)) opens++;
  }
  if (opens <= MAX_DEPTH) return undefined;
  let depth = 0;
  let maxDepth = 0;
  let topIsObject = false;
  let id: JsonRpcId | null = null;
  let hasId = false;
  let hasMethod = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(line, i);
      if (depth === 1 && topIsObject) {
        // A key of the top-level object? Then look at its value.
        let j = end + 1;
        while (isSpace(line.charCodeAt(j))) j++;
        if (line.charCodeAt(j) === 0x3a /* : */) {
          const key = parseOr(line.slice(i, end + 1), '');
          do j++;
          while (isSpace(line.charCodeAt(j)));
          if (key === 'method') hasMethod = true;
          if (key === 'id') {
            hasId = true;
            const value =
              line.charCodeAt(j) === 0x22 ? line.slice(j, stringEnd(line, j) + 1) : /^-?[\d.eE+-]+|^null/.exec(line.slice(j, j + 40))?.[0];
            const parsed = value === undefined ? null : parseOr(value, null);
            id = typeof parsed === 'string' || (typeof parsed === 'number' && Number.isFinite(parsed)) ? parsed : null;
          }
        }
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (depth === 0) topIsObject = c === 0x7b;
      maxDepth = Math.max(maxDepth, ++depth);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  if (maxDepth <= MAX_DEPTH) return undefined;
  if (!topIsObject) return { id: null };
  const kind: MessageKind = hasMethod ? (hasId && id !== null ? 'request' : 'notification') : 'response';
  return { id, kind };
}

/** Index of the quote that closes the JSON string opening at `start` (or the line's end). */
function stringEnd(line: string, start: number): number {
  for (let i = start + 1; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return line.length;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function parseOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}
