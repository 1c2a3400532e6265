// The user's HTTP and SSE MCP servers for an agent that does not take that transport. The
// conductor tells the editor it takes both (`mcpCapabilities.http/sse`, chain/edges.ts), so an
// editor passes the user's servers as they are configured; on the way to the agent (the agent
// edge) each declaration of a transport the agent did not advertise becomes a stdio server that
// runs `conductor mcp-bridge --remote --transport http|sse`, which relays to the same URL. The URL
// and headers (an API key may be in either) travel in the bridge's environment, never on its command
// line, which any local user can read. Pure.
import { isObject } from '../../src/protocol/guards';
import type { SelfCommand } from './injector';

// "SECRET" in the name: traces mask the value by its name (src/protocol/secretMask.ts).
export const MCP_HEADERS_ENV = 'SYMPOSIUM_MCP_SECRET_HEADERS';
export const MCP_REMOTE_URL_ENV = 'SYMPOSIUM_MCP_REMOTE_URL';

/** Which remote transports the agent takes itself (its `agentCapabilities.mcpCapabilities`). */
export function agentMcpTransports(agentCapabilities: Record<string, unknown> | undefined): { http: boolean; sse: boolean } {
  const mcp = agentCapabilities?.mcpCapabilities;
  return { http: isObject(mcp) && mcp.http === true, sse: isObject(mcp) && mcp.sse === true };
}

/**
 * `mcpServers` with every `http`/`sse` declaration the agent cannot take replaced by a stdio bridge
 * declaration of the same name; the rest unchanged. `bridged` names the ones replaced.
 */
export function bridgeRemoteServers(
  mcpServers: readonly unknown[],
  agent: { http: boolean; sse: boolean },
  self: SelfCommand,
): { mcpServers: unknown[]; bridged: string[] } {
  const bridged: string[] = [];
  const out = mcpServers.map((server) => {
    if (!isObject(server) || (server.type !== 'http' && server.type !== 'sse') || agent[server.type]) return server;
    if (typeof server.name !== 'string' || typeof server.url !== 'string') return server;
    const headers = Array.isArray(server.headers) ? server.headers : [];
    bridged.push(server.name);
    return {
      name: server.name,
      command: self.command,
      args: [...self.args, 'mcp-bridge', '--remote', '--transport', server.type],
      env: [
        ...self.env,
        { name: MCP_REMOTE_URL_ENV, value: server.url },
        ...(headers.length ? [{ name: MCP_HEADERS_ENV, value: JSON.stringify(headers) }] : []),
      ],
    };
  });
  return { mcpServers: out, bridged };
}
