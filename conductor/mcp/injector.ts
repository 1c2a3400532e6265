// Offers component MCP servers to the agent in `session/new` (and `load`/`resume`). Agents that
// advertise `mcpCapabilities.http` get the loopback Streamable-HTTP URL with a bearer header; the
// rest get a stdio MCP server that runs the conductor's own `mcp-bridge` shim, which relays to
// the same loopback URL (stdio MCP is the one transport every ACP agent must support).
import { isObject } from '../../src/protocol/guards';
import type { Logger } from '../log';
import type { McpInjection, McpServerSpec } from '../chain/component';
import type { LoopbackMcpHost } from './loopbackHost';
import type { ElicitationRoute } from './mcpElicitation';

/** How to run this conductor again (for the stdio shim): the Node binary and our script. */
export interface SelfCommand {
  command: string;
  args: string[];
  env: { name: string; value: string }[];
}

export const MCP_TOKEN_ENV = 'SYMPOSIUM_MCP_TOKEN';

export function agentSupportsHttpMcp(agentCapabilities: Record<string, unknown> | undefined): boolean {
  const mcp = agentCapabilities?.mcpCapabilities;
  return isObject(mcp) && mcp.http === true;
}

export async function injectMcpServers(
  sessionParams: Record<string, unknown>,
  servers: readonly McpServerSpec[],
  options: { useHttp: boolean; self: SelfCommand; log: Logger; elicitation?: ElicitationRoute },
): Promise<McpInjection> {
  let bindSession!: (id: string) => void;
  let failSession!: (err: Error) => void;
  const sessionId = new Promise<string>((resolve, reject) => {
    bindSession = resolve;
    failSession = reject;
  });
  sessionId.catch(() => undefined); // a failed session/new is not an unhandled rejection
  const cwd = typeof sessionParams.cwd === 'string' ? sessionParams.cwd : process.cwd();

  // Loaded on the first session that gets servers, not at start: the MCP SDK's HTTP transport
  // (hono, and Node's fetch classes it touches) is a third of the conductor's start-up work.
  const { LoopbackMcpHost } = await import('./loopbackHost');
  const hosts: LoopbackMcpHost[] = [];
  try {
    for (const spec of servers) hosts.push(await LoopbackMcpHost.start(spec, { sessionId, cwd }, options.log, options.elicitation));
  } catch (err) {
    await Promise.allSettled(hosts.map((h) => h.close()));
    throw err;
  }

  const declarations = hosts.map((host, i) => {
    const name = servers[i]!.name;
    if (options.useHttp) {
      return { type: 'http', name, url: host.url, headers: [{ name: 'Authorization', value: `Bearer ${host.token}` }] };
    }
    return {
      name,
      command: options.self.command,
      args: [...options.self.args, 'mcp-bridge', '--url', host.url],
      env: [...options.self.env, { name: MCP_TOKEN_ENV, value: host.token }],
    };
  });
  const existing = Array.isArray(sessionParams.mcpServers) ? sessionParams.mcpServers : [];
  return {
    params: { ...sessionParams, mcpServers: [...existing, ...declarations] },
    bind: (id) => bindSession(id),
    connected: async (name, withinMs) => {
      const host = hosts.find((h) => h.name === name);
      if (!host) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
      const outcome = await Promise.race([host.firstConnection.then(() => true as const), timeout]);
      clearTimeout(timer);
      return outcome;
    },
    close: async () => {
      failSession(new Error('session was not created'));
      await Promise.allSettled(hosts.map((h) => h.close()));
    },
  };
}
