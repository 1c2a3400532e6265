// The MCP server stack (the MCP SDK's server and its Streamable HTTP transport, with zod, ajv and
// hono), as the bundle of its own that the shipped conductor loads when an agent first connects
// to one of its MCP servers (out/conductor-mcp.js, esbuild.mjs). The conductor's modules import
// the packages themselves; the build points each of those imports at its namespace here (so every
// name of each module is there, and two modules exporting the same name do not clash), and the
// proxy's bundle does not carry ~390 KB that a session without MCP never runs (docs/benchmarks.md,
// session 15).
export * as mcpServer from '@modelcontextprotocol/sdk/server/mcp.js';
export * as streamableHttp from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export * as types from '@modelcontextprotocol/sdk/types.js';
export * as zod from 'zod';
