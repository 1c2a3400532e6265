// The names the ACP proxy protocol goes by. Two dialects are in use (docs/proxies.md):
//   spec: `proxy/initialize` + `proxy/successor`, the RFD and the ACP SDK 2.4 schema;
//   sacp: `_proxy/initialize` + `_proxy/successor`, the Rust conductor's, spoken by proxies built
//         on sacp / agent-client-protocol (sparkle-mcp --acp and other Symposium mods).
// Both wrap one message as `{method, params?, _meta? | meta?}`; the envelope's own metadata is
// hop-local and dropped. The conductor offers `spec` first and falls back to `sacp` when the
// proxy does not know `proxy/initialize`; from a proxy it accepts either envelope name.
import { isObject } from '../../../src/protocol/guards';

export const PROXY_DIALECTS = {
  spec: { initialize: 'proxy/initialize', successor: 'proxy/successor' },
  sacp: { initialize: '_proxy/initialize', successor: '_proxy/successor' },
} as const;

export type ProxyDialect = keyof typeof PROXY_DIALECTS;

export const isSuccessorMethod = (method: string): boolean =>
  method === PROXY_DIALECTS.spec.successor || method === PROXY_DIALECTS.sacp.successor;

export const isProxyInitializeMethod = (method: string): boolean =>
  method === PROXY_DIALECTS.spec.initialize || method === PROXY_DIALECTS.sacp.initialize;

/** One message inside a successor envelope. */
export interface WrappedMessage {
  method: string;
  params?: unknown;
}

/** The message inside an envelope's params, or undefined when they are not an envelope. */
export function unwrap(params: unknown): WrappedMessage | undefined {
  if (!isObject(params) || typeof params.method !== 'string' || params.method === '') return undefined;
  const inner = params.params;
  // JSON-RPC params are an object or an array; omitted and null both mean none.
  if (inner !== undefined && inner !== null && typeof inner !== 'object') return undefined;
  return inner === undefined || inner === null ? { method: params.method } : { method: params.method, params: inner };
}

/** The envelope params for `message`. */
export function wrap(method: string, params: unknown): WrappedMessage {
  return params === undefined ? { method } : { method, params };
}
