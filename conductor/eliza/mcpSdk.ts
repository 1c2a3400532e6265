// The MCP SDK's client parts ElizACP uses, in one module so that mcp.ts can load them on first
// use with one dynamic import (esbuild keeps the module's initialization lazy).
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
