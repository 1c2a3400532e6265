// `conductor mcp-bridge`: a stdio MCP server that relays every message to an MCP server over HTTP,
// for agents that take only stdio MCP servers (stdio is the one transport every ACP agent must
// support). Two targets:
// - `--url U`: a component's server on the conductor's loopback listener; the bearer token comes
//   from $SYMPOSIUM_MCP_TOKEN, never the command line, so it does not show in process listings.
// - `--remote --transport http|sse`: the user's own HTTP (Streamable HTTP) or SSE server, named in
//   `session/new` for an agent that does not take that transport (remoteBridge.ts); its URL comes
//   from $SYMPOSIUM_MCP_REMOTE_URL and its headers (often an API key) from $SYMPOSIUM_MCP_SECRET_HEADERS as
//   JSON `[{name, value}]`, for the same reason.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCP_TOKEN_ENV } from './injector';
import { MCP_HEADERS_ENV, MCP_REMOTE_URL_ENV } from './remoteBridge';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import { errorText } from '../../src/protocol/errorText';

const USAGE = `usage: conductor mcp-bridge --url <http://127.0.0.1:PORT/mcp/ID> | --remote --transport http|sse (URL in $${MCP_REMOTE_URL_ENV})`;

const flag = (argv: string[], name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};

/** The headers of $SYMPOSIUM_MCP_SECRET_HEADERS (a list of `{name, value}` strings; anything else is refused). */
function headersFromEnv(): Record<string, string> {
  const raw = process.env[MCP_HEADERS_ENV];
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw);
  if (!Array.isArray(parsed)) throw new Error(`${MCP_HEADERS_ENV} must be a JSON list of {name, value}`);
  const out: Record<string, string> = {};
  for (const h of parsed as { name?: unknown; value?: unknown }[]) {
    if (typeof h?.name !== 'string' || typeof h.value !== 'string')
      throw new Error(`${MCP_HEADERS_ENV} must be a JSON list of {name, value}`);
    out[h.name] = h.value;
  }
  return out;
}

/** The client transport to the target the arguments name. */
function targetTransport(argv: string[]): { transport: Transport; url: string; streamable?: StreamableHTTPClientTransport } {
  if (argv.includes('--remote')) {
    const remote = process.env[MCP_REMOTE_URL_ENV];
    if (!remote) throw new Error(USAGE);
    const target = new URL(remote);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new Error(`mcp-bridge relays to http(s) only, not ${target.protocol}`);
    const requestInit = { headers: headersFromEnv() };
    // Logged by its origin only: a remote URL's path or query may hold a key.
    const kind = flag(argv, '--transport') ?? 'http';
    if (kind === 'sse') return { transport: new SSEClientTransport(target, { requestInit }), url: target.origin };
    if (kind !== 'http') throw new Error(USAGE);
    const streamable = new StreamableHTTPClientTransport(target, { requestInit });
    return { transport: streamable, url: target.origin, streamable };
  }
  const url = flag(argv, '--url');
  if (!url) throw new Error(USAGE);
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost')
    throw new Error(`mcp-bridge only relays to loopback, not ${target.hostname}`);
  const token = process.env[MCP_TOKEN_ENV] ?? '';
  const streamable = new StreamableHTTPClientTransport(target, { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  return { transport: streamable, url, streamable };
}

export async function runMcpBridge(argv: string[]): Promise<void> {
  const { transport: http, url, streamable } = targetTransport(argv);
  const stdio = new StdioServerTransport(process.stdin, process.stdout);
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
    // Later Streamable HTTP requests must carry the negotiated protocol version header.
    const result = (message as { result?: { protocolVersion?: unknown } }).result;
    if (streamable && typeof result?.protocolVersion === 'string') streamable.setProtocolVersion(result.protocolVersion);
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
