// The user's own MCP servers, passed by the editor in `session/new`, through the real conductor to
// ElizACP: they arrive beside the conductor's own servers, and an HTTP server reaches an agent that
// takes only stdio through the conductor's bridge, with its headers, which never show on a command
// line. Real processes over stdio pipes; the HTTP server is served from this test process.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';
import { SYMPOSIUM_META_KEY } from '../../src/protocol/symposium-ext';
import { startHttpMcp, type HttpMcp } from '../eliza/fixtures/httpMcpServer';
import { TSX_IMPORT } from '../eliza/test-harness';
import { conductorArgs, elizaCommand, initialize, startProcess, tempDir, type Harness } from './harness';

const FIXTURE = path.join(__dirname, '..', 'eliza', 'fixtures', 'mcp-stdio-server.ts');
const SECRET = 'Bearer user-docs-k3y';

/** Every running process's command line that holds `text`. */
function commandLinesWith(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (line.includes(text)) found.push(line);
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** An MCP server over the older SSE transport (GET /sse opens the stream, POST /messages carries requests). */
async function startSseMcp(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, SSEServerTransport>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      const mcp = new McpServer({ name: 'user-old-sse', version: '1.0.0' });
      mcp.registerTool('motto', { description: 'The server motto' }, async () => ({ content: [{ type: 'text', text: 'old but served' }] }));
      void mcp.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && transport) return void transport.handlePostMessage(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("the user's MCP servers through the conductor", function () {
  this.timeout(60_000);
  let docs: HttpMcp;
  const cwd = tempDir('symposium-user-mcp-');
  const userServers = (): acp.McpServer[] => [
    {
      name: 'mine',
      command: process.execPath,
      args: ['--import', TSX_IMPORT, FIXTURE],
      env: [{ name: 'MY_SETTING', value: 'from mcp.json' }],
    },
    { type: 'http', name: 'docs', url: docs.url, headers: [{ name: 'Authorization', value: SECRET }] },
  ];

  before(async () => {
    docs = await startHttpMcp(SECRET.slice('Bearer '.length), () => {
      const server = new McpServer({ name: 'user-docs', version: '1.0.0' });
      server.registerTool('lookup', { description: 'Looks a word up', inputSchema: { word: z.string() } }, async ({ word }) => ({
        content: [{ type: 'text', text: `docs say: ${word} is a word` }],
      }));
      return server;
    });
  });
  after(() => docs.close());

  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const ask = async (sessionId: string, text: string): Promise<string> => {
    await h!.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    return h!.takeText(sessionId);
  };

  it('an agent without HTTP MCP gets the stdio server as is and the HTTP one bridged, beside the conductor’s own; both answer', async () => {
    h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand(['--no-http-mcp']) }));
    const init = await initialize(h);
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: true }, 'the conductor takes HTTP and SSE servers');
    const meta = init.agentCapabilities?._meta?.[SYMPOSIUM_META_KEY] as { agentMcpCapabilities?: unknown };
    assert.deepEqual(meta.agentMcpCapabilities, { http: false, sse: false }, 'and says what the agent takes itself');

    const { sessionId } = await h.conn.agent.request('session/new', { cwd, mcpServers: userServers() });
    h.takeText(sessionId);
    assert.equal(await ask(sessionId, 'which mcp servers do you have'), 'MCP servers: mine (stdio), docs (stdio), symposium (stdio).');
    assert.equal(await ask(sessionId, 'use tool mine::env with {"name": "MY_SETTING"}'), 'from mcp.json');
    assert.equal(await ask(sessionId, 'use tool docs::lookup with {"word": "ferris"}'), 'docs say: ferris is a word');
    assert.equal(docs.unauthorized, 0, 'the bridge sent the configured header');
    assert.deepEqual(commandLinesWith('user-docs-k3y'), [], 'the header is on no command line');
    assert.deepEqual(commandLinesWith(docs.url), [], 'nor the URL');
    assert.match(h.stderr(), /bridged: docs/);
  });

  it('an agent with HTTP MCP gets the HTTP server itself', async () => {
    h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand() }));
    const init = await initialize(h);
    const meta = init.agentCapabilities?._meta?.[SYMPOSIUM_META_KEY] as { agentMcpCapabilities?: unknown };
    assert.deepEqual(meta.agentMcpCapabilities, { http: true, sse: false });
    const { sessionId } = await h.conn.agent.request('session/new', { cwd, mcpServers: userServers() });
    h.takeText(sessionId);
    assert.equal(await ask(sessionId, 'which mcp servers do you have'), 'MCP servers: mine (stdio), docs (http), symposium (http).');
    assert.equal(await ask(sessionId, 'use tool docs::lookup with {"word": "crab"}'), 'docs say: crab is a word');
    assert.doesNotMatch(h.stderr(), /bridged/);
  });

  it('an SSE server reaches an agent that takes no SSE through the bridge', async () => {
    const old = await startSseMcp();
    try {
      h = startProcess(conductorArgs({ components: [], agent: elizaCommand() }));
      await initialize(h);
      const mcpServers: acp.McpServer[] = [{ type: 'sse', name: 'old', url: old.url, headers: [] }];
      const { sessionId } = await h.conn.agent.request('session/new', { cwd, mcpServers });
      h.takeText(sessionId);
      assert.equal(await ask(sessionId, 'which mcp servers do you have'), 'MCP servers: old (stdio).');
      assert.equal(await ask(sessionId, 'use tool old::motto'), 'old but served');
    } finally {
      await h?.close();
      h = undefined;
      await old.close();
    }
  });
});
