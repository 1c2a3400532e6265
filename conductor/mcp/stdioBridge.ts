// `conductor mcp-bridge --url U`: a stdio MCP server that relays every message to a loopback
// Streamable-HTTP MCP server (the token comes from $SYMPOSIUM_MCP_TOKEN, never the command line,
// so it does not show in process listings). Agents without HTTP MCP support launch this.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOKEN_ENV } from './injector';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import { errorText } from '../../src/protocol/errorText';

export async function runMcpBridge(argv: string[]): Promise<void> {
  const urlIndex = argv.indexOf('--url');
  const url = urlIndex >= 0 ? argv[urlIndex + 1] : undefined;
  if (!url) throw new Error('usage: conductor mcp-bridge --url <http://127.0.0.1:PORT/mcp/ID>');
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost')
    throw new Error(`mcp-bridge only relays to loopback, not ${target.hostname}`);
  const token = process.env[MCP_TOKEN_ENV] ?? '';

  const stdio = new StdioServerTransport(process.stdin, process.stdout);
  const http = new StreamableHTTPClientTransport(target, { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const log = (message: string): void => void process.stderr.write(`mcp-bridge: ${message}\n`);

  let closing = false;
  const shutdown = async (why: string): Promise<void> => {
    if (closing) return;
    closing = true;
    log(`closing (${why})`);
    await Promise.allSettled([http.close(), stdio.close()]);
    process.exit(0);
  };

  stdio.onmessage = (message: JSONRPCMessage) => {
    http.send(message).catch((err: unknown) => {
      const text = errorText(err);
      log(`relay to ${url} failed: ${text}`);
      // A request must still get an answer, or the agent's MCP client would wait forever.
      if ('id' in message && 'method' in message) {
        void stdio.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCodes.internalError, message: `MCP bridge: ${text}` } });
      }
    });
  };
  http.onmessage = (message: JSONRPCMessage) => {
    // Later HTTP requests must carry the negotiated protocol version header.
    const result = (message as { result?: { protocolVersion?: unknown } }).result;
    if (typeof result?.protocolVersion === 'string') http.setProtocolVersion(result.protocolVersion);
    void stdio.send(message);
  };
  http.onerror = (err) => log(`http: ${err.message}`);
  stdio.onerror = (err) => log(`stdio: ${err.message}`);
  http.onclose = () => void shutdown('server closed');
  stdio.onclose = () => void shutdown('stdin closed');
  process.stdin.on('end', () => void shutdown('stdin ended'));

  await http.start();
  await stdio.start();
}
