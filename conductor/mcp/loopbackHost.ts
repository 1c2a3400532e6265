// Hosts one component MCP server for one ACP session as Streamable HTTP on 127.0.0.1, on a random
// port, behind a per-server bearer token. Each MCP client session gets its own `McpServer`
// instance (the SDK's server owns its transport). DNS-rebinding protection pins the Host header
// to the loopback address we bound.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../log';
import type { McpServerSpec, McpSessionInfo } from '../chain/component';

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export class LoopbackMcpHost {
  private readonly transports = new Map<string, StreamableHTTPServerTransport>();
  private closed = false;

  private constructor(
    private readonly http: Server,
    readonly url: string,
    readonly token: string,
    private readonly spec: McpServerSpec,
    private readonly session: McpSessionInfo,
    private readonly log: Logger,
  ) {}

  /** Binds the listener before returning, so the agent can connect as soon as it learns the URL. */
  static async start(spec: McpServerSpec, session: McpSessionInfo, log: Logger): Promise<LoopbackMcpHost> {
    const token = randomBytes(32).toString('hex');
    let host: LoopbackMcpHost | undefined;
    const http = createServer((req, res) => {
      if (!host) return void res.writeHead(503).end();
      void host.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (http.address() as AddressInfo).port;
    host = new LoopbackMcpHost(http, `http://127.0.0.1:${port}/mcp`, token, spec, session, log);
    log.debug(`MCP server "${spec.name}" listening on 127.0.0.1:${port}`);
    return host;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.transports.values()].map((t) => t.close()));
    this.transports.clear();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private authorized(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    const expected = Buffer.from(`Bearer ${this.token}`);
    const given = Buffer.from(header);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return void res.writeHead(404).end();
      if (!this.authorized(req)) {
        this.log.warn(`MCP server "${this.spec.name}": request without a valid bearer token refused`);
        return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
      }
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const sessionHeader = req.headers['mcp-session-id'];
      const mcpSession = typeof sessionHeader === 'string' ? sessionHeader : undefined;
      let transport = mcpSession ? this.transports.get(mcpSession) : undefined;
      if (!transport) {
        if (mcpSession) return jsonRpcHttpError(res, 404, -32001, 'unknown MCP session');
        if (req.method !== 'POST' || !isInitialize(body)) return jsonRpcHttpError(res, 400, -32000, 'no MCP session: send initialize first');
        transport = this.newTransport();
        await this.spec.create(this.session).connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (err) {
      this.log.error(`MCP server "${this.spec.name}": request failed`, err);
      if (!res.headersSent) jsonRpcHttpError(res, err instanceof BodyError ? 400 : 500, -32603, err instanceof Error ? err.message : String(err));
      else res.end();
    }
  }

  private newTransport(): StreamableHTTPServerTransport {
    const hosts = [`127.0.0.1:${this.port}`, `localhost:${this.port}`];
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: hosts,
      onsessioninitialized: (id) => void this.transports.set(id, transport),
      onsessionclosed: (id) => void this.transports.delete(id),
    });
    return transport;
  }
}

class BodyError extends Error {}

function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

function jsonRpcHttpError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyError(`request body exceeds ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (err) {
    throw new BodyError(`body is not JSON: ${(err as Error).message}`);
  }
}
