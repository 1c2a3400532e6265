// What a conductor component is. Components run in-process as a chain between the editor and
// the agent (editor → c1 → c2 → … → agent). A component sees every request and notification that
// crosses its position, in either direction, and may observe, transform, answer or forward it.
// Responses travel back automatically to whoever sent the request; a component that wants to see
// or change a response uses `forward(params, mapOutcome)`. A component may also originate its own
// requests (e.g. start a session on the agent) with `ComponentContext.request`.
//
// Handlers are called synchronously, in arrival order. A handler that forwards synchronously keeps
// the stream's order intact (a `session/prompt` response can never overtake the updates before
// it); a handler that awaits something before forwarding delays only that message.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from '../log';
import type { RpcError, RpcMessage, RpcOutcome } from '../jsonrpc/message';

/** `toAgent` = downstream (editor → agent); `toClient` = upstream (agent → editor). */
export type Direction = 'toAgent' | 'toClient';

export interface IncomingRequest {
  readonly method: string;
  readonly params: unknown;
  readonly direction: Direction;
  /** Aborted when the sender cancels (`$/cancel_request`) or the conductor shuts down. */
  readonly signal: AbortSignal;
  /** Passes the request on in its direction; the response returns to the sender unchanged. */
  forward(params?: unknown): void;
  /** Passes the request on; `mapOutcome` may change the response on its way back. */
  forwardThen(params: unknown, mapOutcome: (outcome: RpcOutcome) => RpcOutcome): void;
  /** Answers the request here; it goes no further. */
  respond(result: unknown): void;
  fail(error: RpcError): void;
}

export interface IncomingNotification {
  readonly method: string;
  readonly params: unknown;
  readonly direction: Direction;
  /** Passes the notification on (optionally with new params). Not calling it drops it. */
  forward(params?: unknown): void;
}

/** What the conductor learned at `initialize`, shared with every component. */
export interface ChainInfo {
  /** `initialize.params.clientCapabilities` as the editor sent them. */
  readonly clientCapabilities: Record<string, unknown>;
  /** `initialize.result.agentCapabilities` as the agent answered (undefined until then). */
  readonly agentCapabilities: Record<string, unknown> | undefined;
}

/**
 * What serves one MCP client session: the MCP SDK's `McpServer`, or a relay to a server elsewhere
 * (an external proxy's, components/external-proxy/mcpOverAcp.ts).
 */
export interface McpEndpoint {
  connect(transport: Transport): Promise<void>;
}

/** An MCP server a component offers to sessions. A fresh endpoint is made per MCP client. */
export interface McpServerSpec {
  /** The name the agent sees in `mcpServers`. */
  readonly name: string;
  /** May answer with a promise: servers whose code loads on first use (mcp/serverKit.ts). */
  create(session: McpSessionInfo): McpEndpoint | Promise<McpEndpoint>;
}

export interface McpSessionInfo {
  /** The ACP session the server was injected into; resolves when `session/new` has answered. */
  readonly sessionId: Promise<string>;
  readonly cwd: string;
}

export interface ComponentContext {
  readonly name: string;
  readonly log: Logger;
  readonly info: ChainInfo;
  /**
   * Sends a request of the component's own in `direction`; its response comes back here only.
   * `onResponse` runs synchronously when the response is routed, before any later message —
   * use it to register state (e.g. a new session id) that the next messages depend on.
   */
  request(direction: Direction, method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  notify(direction: Direction, method: string, params: unknown): void;
  /**
   * Starts loopback hosts for `servers` and returns `sessionParams` (a `session/new`, `load` or
   * `resume` params object) with their declarations appended to `mcpServers`: Streamable HTTP
   * when the agent advertises `mcpCapabilities.http`, else the conductor's stdio shim. Call
   * `bind(sessionId)` once the agent has answered, or `close()` if it failed.
   */
  injectMcpServers(sessionParams: Record<string, unknown>, servers: readonly McpServerSpec[]): Promise<McpInjection>;
  /**
   * Records in the conductor's trace a message the component exchanges outside the chain, with
   * `peer` (an external proxy's own stdio): `out` to the peer, `in` from it.
   */
  traceExternal?(direction: 'out' | 'in', peer: string, message: RpcMessage): void;
  /**
   * For a component that writes to a peer of its own (an external proxy's stdin): that output is
   * full (true) or drained (false). The conductor stops reading every other input meanwhile.
   */
  outputFull?(full: boolean): void;
}

export interface RequestOptions {
  signal?: AbortSignal;
  onResponse?: (outcome: RpcOutcome) => void;
}

export interface McpInjection {
  readonly params: Record<string, unknown>;
  bind(sessionId: string): void;
  close(): Promise<void>;
  /**
   * Whether the agent connected to the injected server `name` (sent it MCP's `initialize`), waiting
   * up to `withinMs` for it: some agents ignore servers they were given (Gemini CLI in a folder it
   * does not trust), and a prompt must not tell them to use tools they do not have.
   */
  connected?(name: string, withinMs: number): Promise<boolean>;
}

export interface Component {
  readonly name: string;
  onRequest?(request: IncomingRequest, cx: ComponentContext): void | Promise<void>;
  onNotification?(notification: IncomingNotification, cx: ComponentContext): void | Promise<void>;
  /**
   * Which notifications `onNotification` needs to see; the others pass this component straight on,
   * without a call (a streamed reply is thousands of `session/update`s, and most components look
   * at none of them). Asked per notification, so it must be cheap: `params` may be read (e.g. the
   * kind of a session/update), not walked. Absent: every notification.
   */
  wantsNotification?(method: string, direction: Direction, params?: unknown): boolean;
  /**
   * Which requests `onRequest` needs to see; the others pass this component straight on, as if
   * it had called `forward()`: no handler call, no id of its own, and the response and any
   * cancel go straight between its neighbours. Asked per request, so it must be cheap; it may
   * change with the component's state, but a request already passed by stays passed by. The
   * chain's two edges see every request regardless. Absent: every request.
   */
  wantsRequest?(method: string, direction: Direction): boolean;
  dispose?(): void | Promise<void>;
  /**
   * For a component the chain cannot work without once it is gone (an external proxy process):
   * settles with the reason when it ends by itself. It must then refuse what reaches it with that
   * reason; the conductor tells the editor (`_symposium/component_exited`) and keeps running.
   */
  readonly exited?: Promise<RpcError>;
  /** For a component that reads a peer of its own: stop (or resume) reading it, for `reason` (backpressure). */
  holdInput?(reason: string, held: boolean): void;
}

/**
 * How a component enters the chain. Plain components are included whenever enabled. An adapter
 * supplies a primitive capability the editor may lack; it is included only when
 * `providedUpstream` says the editor does not already offer it.
 */
export interface ComponentFactory {
  readonly name: string;
  readonly description: string;
  readonly kind: 'component' | 'adapter';
  providedUpstream?(clientCapabilities: Record<string, unknown>): boolean;
  /** Adapters this component relies on; assembly places one right before it when it is not enabled explicitly. */
  readonly adapters?: readonly string[];
  create(): Component;
}
