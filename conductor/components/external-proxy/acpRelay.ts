// One MCP client session of the agent, relayed to an MCP server a proxy serves over ACP (see
// mcpOverAcp.ts for the bridge around it). It stands where an `McpServer` would on the loopback host
// or the stdio shim: it is given that session's transport. Two forms of MCP over ACP:
//
//   connection (Rust SDK conductor, sacp): `mcp/connect` (`_mcp/connect`) opens a connection;
//     `mcp/message {connectionId, method, params}` then carries every MCP message, both ways: the
//     agent's requests and notifications up to the proxy, and the server's own requests (sampling,
//     roots; an elicitation too, which the loopback host's transport turns into the editor's ACP
//     elicitation before it reaches the agent: mcp/mcpElicitation.ts) and notifications down to
//     the agent's MCP client.
//   connectionless (ACP SDK 2.4 schema, `MessageMcpRequest` / `MessageMcpNotification`): no
//     connect; each inner request is an ACP request `mcp/message {serverId, requestId, method,
//     params}` answered `{result}` or `{error}`; while it runs, the server may send notifications for
//     it, `mcp/message {serverId, requestId, method, params}` (progress, logs). The schema defines
//     nothing else: no notifications from the agent's side (the agent's `notifications/cancelled`
//     becomes the cancellation of the outer request; others are dropped, logged) and no requests
//     from the server (a server that wants to sample cannot, in this form).
//
// Which form a `{type: "acp", serverId}` server speaks is learned on first use: `mcp/connect`, and
// when that is "method not found", connectionless. `acp:` URL servers (sacp) always use connections.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import { isObject, type JsonObject } from '../../../src/protocol/guards';
import { RpcCallError } from '../../chain/chain';
import type { ComponentContext } from '../../chain/component';
import type { RpcError, RpcOutcome } from '../../jsonrpc/message';
import { errorText } from '../../../src/protocol/errorText';

export interface McpDialect {
  readonly connect: string;
  readonly message: string;
  readonly disconnect: string;
  connectParams(declaration: AcpServerDeclaration): Record<string, unknown>;
  connectionIdOf(result: unknown): string | undefined;
  disconnectParams(connectionId: string): Record<string, unknown>;
  /** Whether servers declared this way may answer `connect` with "method not found" and speak connectionless. */
  readonly mayBeConnectionless: boolean;
}

export interface AcpServerDeclaration {
  name: string;
  /** `serverId` (acp) or the whole `acp:` URL (sacp). */
  id: string;
  dialect: McpDialect;
}

/** What the relays of one bridge share: where a message from a proxy's server is routed. */
export interface RelayDirectory {
  /** Connection form: open relays by connection id. */
  readonly byConnection: Map<string, AcpRelay>;
  /** Connectionless form: relays with an inner request running, by its `requestId`. */
  readonly byRequest: Map<string, AcpRelay>;
}

type McpId = string | number;

const errorOf = (err: unknown): RpcError =>
  err instanceof RpcCallError ? err.error : { code: ErrorCodes.internalError, message: errorText(err) };

export class AcpRelay {
  private transport: Transport | undefined;
  private form: Promise<{ kind: 'connection'; id: string } | { kind: 'connectionless' }> | undefined;
  private connectionId: string | undefined;
  private closed = false;
  /** The agent's MCP requests in flight, by MCP id (connectionless: with the outer request's abort). */
  private readonly inflight = new Map<string, { id: McpId; abort: AbortController; requestId?: string }>();
  /** Requests of the proxy's server waiting for the agent's MCP client, by the id we gave them. */
  private readonly serverRequests = new Map<string, (outcome: RpcOutcome) => void>();
  /** Prefix of the connectionless `requestId`s of this relay (unique per connection). */
  private readonly uid = crypto.randomUUID();
  private nextServerRequest = 1;

  constructor(
    private readonly server: AcpServerDeclaration,
    private readonly cx: ComponentContext,
    private readonly directory: RelayDirectory,
  ) {}

  async connect(transport: Transport): Promise<void> {
    this.transport = transport;
    transport.onmessage = (message) => void this.fromMcpClient(message);
    transport.onclose = () => this.close();
    await transport.start();
  }

  // ---- from the proxy's server, for the agent's MCP client -------------------------------------

  /**
   * A notification of the proxy's server. Connectionless ones belong to a running request (`relatedTo`,
   * its requestId), and go on that request's stream.
   */
  notifyMcpClient(method: string, params: unknown, relatedTo?: string): void {
    // On the stream of the request it belongs to (connectionless: named; else the latest in flight).
    const related = relatedTo === undefined ? [...this.inflight.values()].at(-1)?.id : this.byRequestId(relatedTo)?.id;
    const message = { jsonrpc: '2.0', method, ...(isObject(params) ? { params } : {}) } as JSONRPCMessage;
    void this.transport
      ?.send(message, related === undefined ? undefined : { relatedRequestId: related })
      .catch((err: unknown) => this.cx.log.warn(`MCP notification for the agent lost`, err));
  }

  /**
   * A request of the proxy's server (connection form: `sampling/createMessage`, `elicitation/create`,
   * `roots/list`…), sent to the agent's MCP client (an elicitation is taken to the editor on the
   * way); resolves with its answer. It goes on the stream of the agent's latest request in flight
   * (a server samples while it answers a tool call), else on the session's own stream.
   */
  requestMcpClient(method: string, params: unknown, signal: AbortSignal): Promise<RpcOutcome> {
    const transport = this.transport;
    if (!transport || this.closed)
      return Promise.resolve({ error: { code: ErrorCodes.internalError, message: 'the MCP session is closed' } });
    const id = `symposium-${this.uid}-${this.nextServerRequest++}`;
    const related = [...this.inflight.values()].at(-1)?.id;
    return new Promise((resolve) => {
      const settle = (outcome: RpcOutcome): void => {
        if (!this.serverRequests.delete(id)) return;
        resolve(outcome);
      };
      this.serverRequests.set(id, settle);
      signal.addEventListener(
        'abort',
        () => {
          if (!this.serverRequests.has(id)) return;
          void transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled' } });
          settle({ error: { code: ErrorCodes.requestCancelled, message: 'request cancelled' } });
        },
        { once: true },
      );
      const message = { jsonrpc: '2.0', id, method, ...(isObject(params) ? { params } : {}) } as JSONRPCMessage;
      transport
        .send(message, related === undefined ? undefined : { relatedRequestId: related })
        .catch((err: unknown) => settle({ error: errorOf(err) }));
    });
  }

  // ---- from the agent's MCP client ------------------------------------------------------------

  private async fromMcpClient(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message)) return this.answerFromMcpClient(message);
    const request = 'id' in message ? (message as { id: McpId; method: string; params?: unknown }) : undefined;
    const key = request ? String(request.id) : '';
    const abort = new AbortController();
    if (request) this.inflight.set(key, { id: request.id, abort });
    try {
      const form = await this.openForm();
      if (form.kind === 'connectionless') return await this.connectionless(message, request, abort);
      const params = { connectionId: form.id, method: message.method, ...(message.params === undefined ? {} : { params: message.params }) };
      if (!request) return this.cx.notify('toClient', this.server.dialect.message, params);
      const result = await this.cx.request('toClient', this.server.dialect.message, params, { signal: abort.signal });
      await this.transport?.send({ jsonrpc: '2.0', id: request.id, result: (result ?? {}) as JsonObject });
    } catch (err) {
      if (!request) return this.cx.log.warn(`MCP notification for "${this.server.name}" lost`, err);
      await this.transport?.send({ jsonrpc: '2.0', id: request.id, error: errorOf(err) }).catch(() => undefined);
    } finally {
      if (request) this.inflight.delete(key);
    }
  }

  /** The agent's MCP client answers a request of the proxy's server. */
  private answerFromMcpClient(message: JSONRPCMessage): void {
    const response = message as { id?: unknown; result?: unknown; error?: unknown };
    const settle = this.serverRequests.get(String(response.id));
    if (!settle) return this.cx.log.warn(`a response from the agent's MCP client for an unknown request ${String(response.id)} dropped`);
    if (isObject(response.error)) {
      const e = response.error;
      settle({ error: { code: typeof e.code === 'number' ? e.code : ErrorCodes.internalError, message: String(e.message), data: e.data } });
    } else settle({ result: response.result ?? null });
  }

  /** The connectionless form (ACP SDK 2.4 schema) of one message of the agent's MCP client. */
  private async connectionless(message: JSONRPCMessage & { method: string }, request: { id: McpId } | undefined, abort: AbortController) {
    const params = isObject((message as { params?: unknown }).params) ? (message as { params: JsonObject }).params : undefined;
    if (!request) {
      // The schema has no consumer → provider notification; a cancellation cancels the outer request.
      const cancelled = message.method === 'notifications/cancelled' ? this.inflight.get(String(params?.requestId)) : undefined;
      if (cancelled) return cancelled.abort.abort();
      return this.cx.log.debug(
        `${message.method} for "${this.server.name}" dropped: the connectionless mcp/message form has no notifications from the agent`,
      );
    }
    const requestId = `${this.uid}:${String(request.id)}`;
    const entry = this.inflight.get(String(request.id));
    if (entry) entry.requestId = requestId;
    this.directory.byRequest.set(requestId, this);
    try {
      const carrier = await this.cx.request(
        'toClient',
        this.server.dialect.message,
        { serverId: this.server.id, requestId, method: message.method, ...(params ? { params } : {}) },
        { signal: abort.signal },
      );
      // `{result}` (preferred when both are there, and may be null) or `{error}`: the inner MCP outcome.
      if (isObject(carrier) && 'result' in carrier)
        return await this.transport?.send({ jsonrpc: '2.0', id: request.id, result: (carrier.result ?? {}) as JsonObject });
      if (
        isObject(carrier) &&
        isObject(carrier.error) &&
        typeof carrier.error.code === 'number' &&
        typeof carrier.error.message === 'string'
      ) {
        const { code, message: text, data } = carrier.error;
        return await this.transport?.send({
          jsonrpc: '2.0',
          id: request.id,
          error: { code, message: text, ...(data === undefined ? {} : { data }) },
        });
      }
      throw new RpcCallError({
        code: ErrorCodes.internalError,
        message: `${this.server.dialect.message} answered with neither {result} nor {error}`,
      });
    } finally {
      this.directory.byRequest.delete(requestId);
    }
  }

  private byRequestId(requestId: string): { id: McpId } | undefined {
    return [...this.inflight.values()].find((e) => e.requestId === requestId);
  }

  /** Connects once (connection form), or learns that the server is connectionless. */
  private openForm(): NonNullable<AcpRelay['form']> {
    const { dialect } = this.server;
    this.form ??= this.cx.request('toClient', dialect.connect, dialect.connectParams(this.server)).then(
      (result) => {
        const id = dialect.connectionIdOf(result);
        if (!id) throw new Error(`${dialect.connect} answered without a connection id`);
        this.connectionId = id;
        if (this.closed) this.disconnect();
        else this.directory.byConnection.set(id, this);
        return { kind: 'connection' as const, id };
      },
      (err: unknown) => {
        if (!(dialect.mayBeConnectionless && err instanceof RpcCallError && err.error.code === ErrorCodes.methodNotFound)) throw err;
        this.cx.log.info(`"${this.server.name}" does not know ${dialect.connect}: using the connectionless ${dialect.message} form`);
        return { kind: 'connectionless' as const };
      },
    );
    return this.form;
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const entry of this.inflight.values()) entry.abort.abort();
    for (const settle of [...this.serverRequests.values()])
      settle({ error: { code: ErrorCodes.internalError, message: "the agent's MCP session closed" } });
    if (this.connectionId) this.disconnect();
  }

  private disconnect(): void {
    const id = this.connectionId!;
    this.directory.byConnection.delete(id);
    this.cx.notify('toClient', this.server.dialect.disconnect, this.server.dialect.disconnectParams(id));
  }
}
