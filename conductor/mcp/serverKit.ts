// The MCP SDK's server class and zod, loaded when a component first builds an MCP server, that is
// when an agent first connects to one (McpServerSpec.create may answer with a promise). Every
// component that offers MCP needs them, and evaluating them (with ajv) at start was most of the
// default chain's start-up and a fifth of its idle memory.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';

export interface ServerKit {
  McpServer: typeof McpServer;
  z: typeof z;
}

let loading: Promise<ServerKit> | undefined;

export function loadServerKit(): Promise<ServerKit> {
  loading ??= Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('zod')]).then(([mcp, zod]) => ({
    McpServer: mcp.McpServer,
    z: zod.z,
  }));
  return loading;
}
