// The "symposium" MCP server, injected into every session: lets the agent (and the user, through
// it) see what the conductor assembled, and check that injected MCP servers work at all.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { loadServerKit } from '../mcp/serverKit';
import type { Component, ComponentContext, ComponentFactory, Direction, IncomingRequest, McpSessionInfo } from '../chain/component';
import { CONDUCTOR_VERSION } from '../version';
import { SessionMcpServers } from './sessionMcp';

class SymposiumInfo implements Component {
  readonly name = 'symposium-info';
  private cx: ComponentContext | undefined;
  private readonly mcp = new SessionMcpServers([{ name: 'symposium', create: (session) => this.createServer(session) }]);

  onRequest(request: IncomingRequest, cx: ComponentContext): void {
    this.cx = cx;
    if (!this.mcp.handle(request, cx)) request.forward();
  }

  wantsRequest(method: string, direction: Direction): boolean {
    return SessionMcpServers.wants(method, direction);
  }

  dispose(): Promise<void> {
    return this.mcp.dispose();
  }

  private async createServer(session: McpSessionInfo): Promise<McpServer> {
    const { McpServer, z } = await loadServerKit();
    const server = new McpServer({ name: 'symposium', version: CONDUCTOR_VERSION });
    server.registerTool(
      'symposium_info',
      {
        title: 'Symposium conductor info',
        description: 'Describes this Symposium session: conductor version, working directory and the agent capabilities the conductor saw.',
        inputSchema: {},
      },
      async () => {
        const info = {
          conductorVersion: CONDUCTOR_VERSION,
          sessionId: await session.sessionId,
          cwd: session.cwd,
          agentCapabilities: this.cx?.info.agentCapabilities ?? null,
        };
        return { content: [{ type: 'text', text: JSON.stringify(info, null, 2) }] };
      },
    );
    server.registerTool(
      'echo',
      {
        title: 'Echo',
        description: 'Returns the given text unchanged; use it to check that Symposium MCP tools are reachable.',
        inputSchema: { text: z.string().describe('Text to return') },
      },
      ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
    return server;
  }
}

export const symposiumInfoFactory: ComponentFactory = {
  name: 'symposium-info',
  description: 'Injects the "symposium" MCP server (symposium_info, echo) into every session.',
  kind: 'component',
  create: () => new SymposiumInfo(),
};
