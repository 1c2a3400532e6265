// The MCP server stack (the MCP SDK's server and its Streamable HTTP transport, with zod, ajv and
// hono), as the bundle of its own that the shipped conductor loads when an agent first connects
// to one of its MCP servers (out/conductor-mcp.js, esbuild.mjs). The conductor's modules import
// the packages themselves; the build points those imports here, so the proxy's bundle does not
// carry ~390 KB that a session without MCP never runs (docs/benchmarks.md, session 15).
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
export { z } from 'zod';
