// MCP over ACP, for agents that lack it. A proxy declares an MCP server it serves itself over the
// ACP connection, in one of two shapes (docs/proxies.md):
//   `{type: "acp", name, serverId}`         → `mcp/connect {serverId}` → `{connectionId}`,
//                                             `mcp/message {connectionId, method, params}`,
//                                             `mcp/disconnect {connectionId}` (notification);
//                                             or, when the proxy does not know `mcp/connect`, the
//                                             ACP SDK 2.4 schema's connectionless form:
//                                             `mcp/message {serverId, requestId, method, params}`;
//   `{type: "http", name, url: "acp:<id>"}` → `_mcp/connect {acp_url}` → `{connection_id}`,
//                                             `_mcp/message {connectionId, …}`, `_mcp/disconnect {connection_id}`
//                                             (proxies built on sacp, e.g. sparkle-mcp --acp).
// Sitting next to the agent, this component replaces each such declaration in `session/new|load|
// resume|fork` with one the agent can use: the conductor's loopback Streamable HTTP route (or the stdio
// shim), the same bridges in-process components use (conductor/mcp/). When the agent's MCP client
// connects, the component plays the agent's part of MCP over ACP (acpRelay.ts): it sends
// `mcp/connect` upstream (the way the agent would), where the proxy that declared the server
// answers it, then relays every MCP message both ways, the server's own requests (sampling)
// included. Agents advertising `mcpCapabilities.acp` get the declarations as they are. Everyone
// upstream is told `mcpCapabilities.acp: true`: the chain supports it.
import { ErrorCodes } from '../../../src/protocol/errorCodes';
import { isObject } from '../../../src/protocol/guards';
import { isSessionSetup, sessionIdOf, setUpSessionId } from '../../chain/acpGuards';
import { AcpRelay, type AcpServerDeclaration, type McpDialect, type RelayDirectory } from './acpRelay';
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

const MCP_DIALECTS = {
  acp: {
    connect: 'mcp/connect',
    message: 'mcp/message',
    disconnect: 'mcp/disconnect',
    connectParams: (d) => ({ serverId: d.id }),
    connectionIdOf: (r) => (isObject(r) && typeof r.connectionId === 'string' ? r.connectionId : undefined),
    disconnectParams: (connectionId) => ({ connectionId }),
    mayBeConnectionless: true,
  },
  sacp: {
    connect: '_mcp/connect',
    message: '_mcp/message',
    disconnect: '_mcp/disconnect',
    connectParams: (d) => ({ acp_url: d.id }),
    connectionIdOf: (r) => (isObject(r) && typeof r.connection_id === 'string' ? r.connection_id : undefined),
    disconnectParams: (connection_id) => ({ connection_id }),
    mayBeConnectionless: false,
  },
} satisfies Record<string, McpDialect>;

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
  /** Where a proxy's server-to-client MCP messages go. */
  private readonly relays: RelayDirectory = { byConnection: new Map(), byRequest: new Map() };

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    if (request.direction === 'toClient') return request.forward();
    if (request.method === 'initialize') return request.forwardThen(undefined, advertiseMcpOverAcp);
    if (isSessionSetup(request.method)) return void this.bridge(request, cx);
    const target = this.relayFor(request.method, request.params);
    if (target?.connectionless)
      return request.fail({
        code: ErrorCodes.methodNotFound,
        message: 'the connectionless mcp/message form (ACP SDK 2.4 schema) has no requests from the MCP server to the agent',
      });
    if (target) {
      // A request of the proxy's server (sampling, elicitation, roots) for the agent's MCP client
      // (an elicitation is taken to the editor by the session's transport: mcp/mcpElicitation.ts).
      const p = request.params as { method: string; params?: unknown };
      return void target.relay
        .requestMcpClient(p.method, p.params, request.signal)
        .then((outcome) => ('error' in outcome ? request.fail(outcome.error) : request.respond(outcome.result)));
    }
    if (request.method === 'session/close') {
      const sessionId = sessionIdOf(request.params);
      if (sessionId) void this.closeSession(sessionId);
    }
    request.forward();
  }

  onNotification(notification: IncomingNotification): void {
    const target = notification.direction === 'toAgent' ? this.relayFor(notification.method, notification.params) : undefined;
    if (!target) return notification.forward();
    const p = notification.params as { method: string; params?: unknown; requestId?: string };
    target.relay.notifyMcpClient(p.method, p.params, target.connectionless ? p.requestId : undefined);
  }

  async dispose(): Promise<void> {
    const all = [...this.bySession.values()].flat();
    this.bySession.clear();
    await Promise.allSettled(all.map((i) => i.close()));
  }

  /**
   * The relay an `mcp/message` a proxy sends toward the agent is for: by its connection id, or
   * (connectionless) by the requestId of the agent's request it belongs to.
   */
  private relayFor(method: string, params: unknown): { relay: AcpRelay; connectionless: boolean } | undefined {
    if (method !== MCP_DIALECTS.acp.message && method !== MCP_DIALECTS.sacp.message) return undefined;
    if (!isObject(params) || typeof params.method !== 'string') return undefined;
    const byConnection = typeof params.connectionId === 'string' ? this.relays.byConnection.get(params.connectionId) : undefined;
    if (byConnection) return { relay: byConnection, connectionless: false };
    const byRequest = typeof params.requestId === 'string' ? this.relays.byRequest.get(params.requestId) : undefined;
    return byRequest ? { relay: byRequest, connectionless: true } : undefined;
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
      const sessionId = 'result' in outcome ? setUpSessionId(request.method, params, outcome.result) : undefined;
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

export const mcpOverAcpFactory: ComponentFactory = {
  name: MCP_OVER_ACP,
  description: 'Bridges MCP servers that proxies serve over ACP (mcp/connect, _mcp/connect) to agents without MCP-over-ACP.',
  kind: 'component',
  create: () => new McpOverAcpBridge(),
};
