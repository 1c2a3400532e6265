// MCP over ACP, for agents that lack it. A proxy declares an MCP server it serves itself over the
// ACP connection, in one of two shapes (docs/proxies.md):
//   `{type: "acp", name, serverId}`         → `mcp/connect {serverId}` → `{connectionId}`,
//                                             `mcp/message {connectionId, method, params}`,
//                                             `mcp/disconnect {connectionId}` (notification);
//   `{type: "http", name, url: "acp:<id>"}` → `_mcp/connect {acp_url}` → `{connection_id}`,
//                                             `_mcp/message {connectionId, …}`, `_mcp/disconnect {connection_id}`
//                                             (proxies built on sacp, e.g. sparkle-mcp --acp).
// Sitting next to the agent, this component replaces each such declaration in `session/new|load|
// resume` with one the agent can use: the conductor's loopback Streamable HTTP route (or the stdio
// shim), the same bridges in-process components use (conductor/mcp/). When the agent's MCP client
// connects, the component plays the agent's part of MCP over ACP: it sends `mcp/connect` upstream
// (the way the agent would), where the proxy that declared the server answers it, then relays
// every MCP message both ways. Agents advertising `mcpCapabilities.acp` get the declarations as
// they are. Everyone upstream is told `mcpCapabilities.acp: true`: the chain supports it.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import { isObject, type JsonObject } from '../../../src/protocol/guards';
import { RpcCallError } from '../../chain/chain';
import { isSessionSetup, sessionIdOf } from '../../chain/acpGuards';
import type {
  Component,
  ComponentContext,
  ComponentFactory,
  IncomingNotification,
  IncomingRequest,
  McpInjection,
} from '../../chain/component';
import type { RpcOutcome } from '../../jsonrpc/message';

export const MCP_OVER_ACP = 'mcp-over-acp';

interface McpDialect {
  readonly connect: string;
  readonly message: string;
  readonly disconnect: string;
  connectParams(declaration: AcpServerDeclaration): Record<string, unknown>;
  connectionIdOf(result: unknown): string | undefined;
  disconnectParams(connectionId: string): Record<string, unknown>;
}

const MCP_DIALECTS = {
  acp: {
    connect: 'mcp/connect',
    message: 'mcp/message',
    disconnect: 'mcp/disconnect',
    connectParams: (d) => ({ serverId: d.id }),
    connectionIdOf: (r) => (isObject(r) && typeof r.connectionId === 'string' ? r.connectionId : undefined),
    disconnectParams: (connectionId) => ({ connectionId }),
  },
  sacp: {
    connect: '_mcp/connect',
    message: '_mcp/message',
    disconnect: '_mcp/disconnect',
    connectParams: (d) => ({ acp_url: d.id }),
    connectionIdOf: (r) => (isObject(r) && typeof r.connection_id === 'string' ? r.connection_id : undefined),
    disconnectParams: (connection_id) => ({ connection_id }),
  },
} satisfies Record<string, McpDialect>;

interface AcpServerDeclaration {
  name: string;
  /** `serverId` (acp) or the whole `acp:` URL (sacp). */
  id: string;
  dialect: McpDialect;
}

/** The MCP-over-ACP server a declaration names, if it is one. */
export function acpServerOf(declaration: unknown): AcpServerDeclaration | undefined {
  if (!isObject(declaration) || typeof declaration.name !== 'string') return undefined;
  if (declaration.type === 'acp' && typeof declaration.serverId === 'string' && declaration.serverId !== '')
    return { name: declaration.name, id: declaration.serverId, dialect: MCP_DIALECTS.acp };
  if (declaration.type === 'http' && typeof declaration.url === 'string' && /^acp:./.test(declaration.url))
    return { name: declaration.name, id: declaration.url, dialect: MCP_DIALECTS.sacp };
  return undefined;
}

const agentSpeaksMcpOverAcp = (caps: Record<string, unknown> | undefined): boolean =>
  isObject(caps?.mcpCapabilities) && caps.mcpCapabilities.acp === true;

class McpOverAcpBridge implements Component {
  readonly name = MCP_OVER_ACP;
  private readonly bySession = new Map<string, McpInjection[]>();
  /** Open relays by connection id: where a proxy's server-to-client MCP messages go. */
  private readonly relays = new Map<string, AcpRelay>();

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    if (request.direction === 'toClient') return request.forward();
    if (request.method === 'initialize') return request.forwardThen(undefined, advertiseMcpOverAcp);
    if (isSessionSetup(request.method)) return void this.bridge(request, cx);
    const relay = this.relayFor(request.method, request.params);
    if (relay) return request.fail({ code: ErrorCodes.methodNotFound, message: 'server-to-client MCP requests are not bridged' });
    if (request.method === 'session/close') {
      const sessionId = sessionIdOf(request.params);
      if (sessionId) void this.closeSession(sessionId);
    }
    request.forward();
  }

  onNotification(notification: IncomingNotification): void {
    const relay = notification.direction === 'toAgent' ? this.relayFor(notification.method, notification.params) : undefined;
    if (!relay) return notification.forward();
    const p = notification.params as JsonObject;
    relay.toMcpClient({ jsonrpc: '2.0', method: String(p.method), ...(isObject(p.params) ? { params: p.params } : {}) } as JSONRPCMessage);
  }

  async dispose(): Promise<void> {
    const all = [...this.bySession.values()].flat();
    this.bySession.clear();
    await Promise.allSettled(all.map((i) => i.close()));
  }

  /** A relay's connection named by an `mcp/message` a proxy sends toward the agent. */
  private relayFor(method: string, params: unknown): AcpRelay | undefined {
    if (method !== MCP_DIALECTS.acp.message && method !== MCP_DIALECTS.sacp.message) return undefined;
    return isObject(params) && typeof params.connectionId === 'string' ? this.relays.get(params.connectionId) : undefined;
  }

  private async bridge(request: IncomingRequest, cx: ComponentContext): Promise<void> {
    const params = isObject(request.params) ? request.params : undefined;
    const declared = Array.isArray(params?.mcpServers) ? params.mcpServers : [];
    const acpServers = declared.map(acpServerOf);
    if (!params || acpServers.every((s) => s === undefined) || agentSpeaksMcpOverAcp(cx.info.agentCapabilities)) return request.forward();
    const kept = declared.filter((_, i) => acpServers[i] === undefined);
    const specs = acpServers
      .filter((s): s is AcpServerDeclaration => s !== undefined)
      .map((server) => ({ name: server.name, create: () => new AcpRelay(server, cx, this.relays) }));
    let injection: McpInjection;
    try {
      injection = await cx.injectMcpServers({ ...params, mcpServers: kept }, specs);
    } catch (err) {
      cx.log.error(`could not bridge the MCP-over-ACP servers of ${request.method}; forwarding them unchanged`, err);
      return request.forward();
    }
    if (request.signal.aborted) {
      await injection.close();
      return request.fail({ code: ErrorCodes.requestCancelled, message: 'request cancelled' });
    }
    cx.log.info(`bridged MCP-over-ACP servers for the agent: ${specs.map((s) => s.name).join(', ')}`);
    request.forwardThen(injection.params, (outcome) => {
      const sessionId =
        'result' in outcome ? (request.method === 'session/new' ? sessionIdOf(outcome.result) : sessionIdOf(params)) : undefined;
      if (sessionId) {
        injection.bind(sessionId);
        this.bySession.set(sessionId, [...(this.bySession.get(sessionId) ?? []), injection]);
      } else void injection.close();
      return outcome;
    });
  }

  private async closeSession(sessionId: string): Promise<void> {
    const injections = this.bySession.get(sessionId) ?? [];
    this.bySession.delete(sessionId);
    await Promise.allSettled(injections.map((i) => i.close()));
  }
}

/** The initialize answer upstream: MCP over ACP is supported from here on (both spellings). */
function advertiseMcpOverAcp(outcome: RpcOutcome): RpcOutcome {
  if (!('result' in outcome) || !isObject(outcome.result)) return outcome;
  const caps = isObject(outcome.result.agentCapabilities) ? outcome.result.agentCapabilities : {};
  const mcp = isObject(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
  const meta = isObject(caps._meta) ? caps._meta : {};
  const sym = isObject(meta.symposium) ? meta.symposium : {};
  return {
    result: {
      ...outcome.result,
      agentCapabilities: {
        ...caps,
        mcpCapabilities: { ...mcp, acp: true },
        _meta: { ...meta, symposium: { ...sym, mcp_acp_transport: true } },
      },
    },
  };
}

/**
 * One MCP client session of the agent, relayed to the proxy's server over ACP. Stands where an
 * `McpServer` would on the loopback host: it is given the session's transport.
 */
class AcpRelay {
  private transport: Transport | undefined;
  private connection: Promise<string> | undefined;
  private connectionId: string | undefined;
  private closed = false;

  constructor(
    private readonly server: AcpServerDeclaration,
    private readonly cx: ComponentContext,
    private readonly relays: Map<string, AcpRelay>,
  ) {}

  async connect(transport: Transport): Promise<void> {
    this.transport = transport;
    transport.onmessage = (message) => void this.fromMcpClient(message);
    transport.onclose = () => this.close();
    await transport.start();
  }

  /** A message of the proxy's server for the agent's MCP client. */
  toMcpClient(message: JSONRPCMessage): void {
    void this.transport?.send(message).catch((err: unknown) => this.cx.log.warn(`MCP message for the agent lost`, err));
  }

  private openConnection(): Promise<string> {
    const { dialect } = this.server;
    this.connection ??= this.cx.request('toClient', dialect.connect, dialect.connectParams(this.server)).then((result) => {
      const id = dialect.connectionIdOf(result);
      if (!id) throw new Error(`${dialect.connect} answered without a connection id`);
      this.connectionId = id;
      if (this.closed) this.disconnect();
      else this.relays.set(id, this);
      return id;
    });
    return this.connection;
  }

  private async fromMcpClient(message: JSONRPCMessage): Promise<void> {
    const request = 'method' in message && 'id' in message ? message : undefined;
    try {
      const connectionId = await this.openConnection();
      if (!('method' in message)) return; // answers to server-to-client requests: none are bridged
      const params = { connectionId, method: message.method, ...(message.params === undefined ? {} : { params: message.params }) };
      if (!request) return this.cx.notify('toClient', this.server.dialect.message, params);
      const result = await this.cx.request('toClient', this.server.dialect.message, params);
      await this.transport?.send({ jsonrpc: '2.0', id: request.id, result: (result ?? {}) as Record<string, unknown> });
    } catch (err) {
      if (!request) return this.cx.log.warn(`MCP notification for "${this.server.name}" lost`, err);
      const error =
        err instanceof RpcCallError
          ? err.error
          : { code: ErrorCodes.internalError, message: err instanceof Error ? err.message : String(err) };
      await this.transport?.send({ jsonrpc: '2.0', id: request.id, error }).catch(() => undefined);
    }
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.connectionId) this.disconnect();
  }

  private disconnect(): void {
    const id = this.connectionId!;
    this.relays.delete(id);
    this.cx.notify('toClient', this.server.dialect.disconnect, this.server.dialect.disconnectParams(id));
  }
}

export const mcpOverAcpFactory: ComponentFactory = {
  name: MCP_OVER_ACP,
  description: 'Bridges MCP servers that proxies serve over ACP (mcp/connect, _mcp/connect) to agents without MCP-over-ACP.',
  kind: 'component',
  create: () => new McpOverAcpBridge(),
};
