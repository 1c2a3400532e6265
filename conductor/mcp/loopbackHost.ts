// Hosts the component MCP servers injected into ACP sessions as Streamable HTTP on 127.0.0.1.
// ONE listener per conductor process serves them all, each at its own path (/mcp/<random id>)
// behind its own bearer token: a listener per injected server left two listening sockets per
// session whenever the agent could not `session/close` (402 after 200 sessions). Closing an
// injection removes its route and its MCP sessions; the listener stays for the next one.
//
// Each MCP client session gets its own `McpServer` instance (the SDK's server owns its
// transport). DNS-rebinding protection: the Host header must name the loopback address we bound.
// Refused requests are logged once per kind and then every 100th, so a flood cannot flood the log.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isObject } from '../../src/protocol/guards';
import type { Logger } from '../log';
import type { McpServerSpec, McpSessionInfo } from '../chain/component';
import { bridgeElicitation, type ElicitationRoute } from './mcpElicitation';
import { errorText } from '../../src/protocol/errorText';

const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** After the first refusal of a kind, one log line per this many. */
export const REFUSAL_LOG_EVERY = 100;

/** The process's one loopback listener: routes requests by path to the injected servers. */
class LoopbackListener {
  private static current: Promise<LoopbackListener> | undefined;
  readonly routes = new Map<string, LoopbackMcpHost>();
  private readonly refusals = new Map<string, number>();

  private constructor(
    private readonly http: Server,
    private readonly log: Logger,
  ) {}

  /** The process's listener, bound on first use (and again if binding failed). */
  static shared(log: Logger): Promise<LoopbackListener> {
    LoopbackListener.current ??= LoopbackListener.bind(log).catch((err: unknown) => {
      LoopbackListener.current = undefined;
      throw err;
    });
    return LoopbackListener.current;
  }

  private static async bind(log: Logger): Promise<LoopbackListener> {
    let listener: LoopbackListener | undefined;
    const http = createServer((req, res) => void listener?.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => resolve());
    });
    http.unref(); // open MCP sessions must not keep a finished conductor alive
    listener = new LoopbackListener(http, log.child('mcp-listener'));
    log.debug(`MCP servers listening on 127.0.0.1:${listener.port}`);
    return listener;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  /** The Host header values a loopback client sends; anything else is DNS rebinding. */
  get allowedHosts(): string[] {
    return [`127.0.0.1:${this.port}`, `localhost:${this.port}`];
  }

  /** Logs the 1st refusal of `kind` and every REFUSAL_LOG_EVERY-th after it, with the count. */
  refused(kind: string, detail: string): void {
    const count = (this.refusals.get(kind) ?? 0) + 1;
    this.refusals.set(kind, count);
    if (count === 1 || count % REFUSAL_LOG_EVERY === 0) {
      this.log.warn(
        `MCP listener refused ${kind} (${detail}); ${count} refused so far, logged at the first and every ${REFUSAL_LOG_EVERY}th`,
      );
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host ?? '';
    if (!this.allowedHosts.includes(host)) {
      this.refused('a request with a foreign Host header', `Host: ${host.slice(0, 100)}`);
      return jsonRpcHttpError(res, 403, -32000, 'forbidden host');
    }
    const match = /^\/mcp\/([0-9a-f]{32})$/.exec(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const route = match ? this.routes.get(match[1]!) : undefined;
    if (!route) {
      this.refused('a request for an unknown path', 'no such MCP server, or it was closed');
      return void res.writeHead(404).end();
    }
    if (!route.authorized(req)) {
      this.refused('a request without a valid bearer token', `MCP server "${route.name}"`);
      return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized' }));
    }
    await route.handle(req, res);
  }
}

/** One injected MCP server for one ACP session: a route on the shared listener. */
export class LoopbackMcpHost {
  private readonly transports = new Map<string, StreamableHTTPServerTransport>();
  private closed = false;
  private markConnected!: () => void;
  /** Settles when a client first sends `initialize` (with the right token): the agent took the server. */
  readonly firstConnection = new Promise<void>((resolve) => (this.markConnected = resolve));

  private constructor(
    private readonly listener: LoopbackListener,
    private readonly id: string,
    readonly token: string,
    private readonly spec: McpServerSpec,
    private readonly session: McpSessionInfo,
    private readonly log: Logger,
    private readonly elicitation: ElicitationRoute | undefined,
  ) {}

  /** Adds the route before returning, so the agent can connect as soon as it learns the URL. */
  /** `elicitation`: where the server's `elicitation/create` goes (the editor); absent, to the agent's MCP client. */
  static async start(spec: McpServerSpec, session: McpSessionInfo, log: Logger, elicitation?: ElicitationRoute): Promise<LoopbackMcpHost> {
    const listener = await LoopbackListener.shared(log);
    const id = randomBytes(16).toString('hex');
    const host = new LoopbackMcpHost(listener, id, randomBytes(32).toString('hex'), spec, session, log, elicitation);
    listener.routes.set(host.id, host);
    log.debug(`MCP server "${spec.name}" served at ${host.url}`);
    return host;
  }

  get name(): string {
    return this.spec.name;
  }

  get url(): string {
    return `http://127.0.0.1:${this.listener.port}/mcp/${this.id}`;
  }

  get port(): number {
    return this.listener.port;
  }

  /** Removes the route and ends its MCP sessions; the listener stays for other servers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listener.routes.delete(this.id);
    await Promise.allSettled([...this.transports.values()].map((t) => t.close()));
    this.transports.clear();
  }

  authorized(req: IncomingMessage): boolean {
    const expected = Buffer.from(`Bearer ${this.token}`);
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    res.once('finish', () =>
      this.log.debug(`MCP "${this.spec.name}" ${req.method} ${methodsOf(body)} answered in ${Math.round(performance.now() - started)} ms`),
    );
    let body: unknown;
    try {
      body = req.method === 'POST' ? await readJson(req) : undefined;
      const sessionHeader = req.headers['mcp-session-id'];
      const mcpSession = typeof sessionHeader === 'string' ? sessionHeader : undefined;
      let transport = mcpSession ? this.transports.get(mcpSession) : undefined;
      if (!transport) {
        if (mcpSession) return jsonRpcHttpError(res, 404, -32001, 'unknown MCP session');
        if (req.method !== 'POST' || !isInitialize(body))
          return jsonRpcHttpError(res, 400, -32000, 'no MCP session: send initialize first');
        transport = await this.newTransport();
        const endpoint = await this.spec.create(this.session);
        await endpoint.connect(this.elicitation ? bridgeElicitation(transport, this.session, this.elicitation) : transport);
        this.markConnected();
      }
      await transport.handleRequest(req, res, body);
    } catch (err) {
      this.log.error(`MCP server "${this.spec.name}": request failed`, err);
      if (!res.headersSent) jsonRpcHttpError(res, err instanceof BodyError ? 400 : 500, -32603, errorText(err));
      else res.end();
    }
  }

  private async newTransport(): Promise<StreamableHTTPServerTransport> {
    // The MCP SDK's HTTP transport (and hono, zod) load when an agent first connects: a session
    // whose agent never uses our servers does not pay for them.
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true, // checked by the listener too; kept as a second line
      allowedHosts: this.listener.allowedHosts,
      onsessioninitialized: (id) => {
        if (this.closed)
          void transport.close(); // the route closed while the client was connecting
        else this.transports.set(id, transport);
      },
      onsessionclosed: (id) => void this.transports.delete(id),
    });
    return transport;
  }
}

class BodyError extends Error {}

/** The JSON-RPC methods of a request body (a batch has several), for the debug log. */
function methodsOf(body: unknown): string {
  const all = Array.isArray(body) ? body : [body];
  return all.map((m) => (isObject(m) && typeof m.method === 'string' ? m.method : isObject(m) ? 'response' : '-')).join(',');
}

function isInitialize(body: unknown): boolean {
  return isObject(body) && body.method === 'initialize';
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
    throw new BodyError(`body is not JSON: ${errorText(err)}`);
  }
}
