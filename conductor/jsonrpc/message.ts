// JSON-RPC 2.0 messages as the conductor sees them: raw objects, so that every field we do not
// interpret (`_meta`, unstable fields, unknown top-level keys) survives forwarding unchanged.
// Only `id` is ever rewritten, hop by hop.

export type JsonRpcId = string | number;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

type Extra = { [key: string]: unknown };

export interface RpcRequest extends Extra { jsonrpc: '2.0'; id: JsonRpcId; method: string; params?: unknown }
export interface RpcNotification extends Extra { jsonrpc: '2.0'; method: string; params?: unknown }
export interface RpcSuccess extends Extra { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
export interface RpcFailure extends Extra { jsonrpc: '2.0'; id: JsonRpcId | null; error: RpcError }
export type RpcResponse = RpcSuccess | RpcFailure;
export type RpcMessage = RpcRequest | RpcNotification | RpcResponse;

/** The outcome of a request, without the envelope: what a response carries. */
export type RpcOutcome = { result: unknown } | { error: RpcError };

export const ErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  requestCancelled: -32800,
  /** The downstream agent process is gone (our own code, in the implementation-defined range). */
  agentExited: -32099,
} as const;

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

export type ParseResult =
  | { ok: true; message: RpcMessage }
  | { ok: false; error: RpcError; id: JsonRpcId | null };

const isId = (v: unknown): v is JsonRpcId => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
    if ('params' in value && value.params !== undefined && typeof value.params !== 'object') return fail('"params" must be an object or an array');
    return { ok: true, message: value as RpcMessage };
  }
  if ('result' in value === 'error' in value) return fail('a response carries exactly one of "result" and "error"');
  if ('error' in value) {
    const err = value.error;
    if (!isObject(err) || typeof err.code !== 'number' || typeof err.message !== 'string') return fail('"error" must be {code: number, message: string}');
    return { ok: true, message: value as RpcMessage };
  }
  if (!isId(id)) return fail('a response needs an "id"');
  return { ok: true, message: value as RpcMessage };
}

/** Decodes and validates one line of newline-delimited JSON-RPC. */
export function parseLine(line: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, id: null, error: { code: ErrorCodes.parseError, message: `not valid JSON: ${(err as Error).message}` } };
  }
  return validateMessage(value);
}
