// The loopback MCP listener in this process, over real HTTP with the MCP SDK's client: every
// injected server shares one listener, each keeps its own path and token, a token opens only its
// own server, the Host header is pinned, and closing an injection removes only its route.
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createLogger } from '../log';
import type { McpInjection } from '../chain/component';
import { injectMcpServers } from './injector';

const log = createLogger('off');
const self = { command: process.execPath, args: [], env: [] };

function serverNamed(tool: string): McpServer {
  const server = new McpServer({ name: tool, version: '0' });
  server.registerTool(tool, { description: `the ${tool} tool` }, async () => ({ content: [{ type: 'text', text: tool }] }));
  return server;
}

type Decl = { url: string; headers: { name: string; value: string }[] };
const declOf = (injection: McpInjection): Decl => (injection.params.mcpServers as Decl[])[0]!;
const tokenOf = (d: Decl): string => d.headers.find((h) => h.name === 'Authorization')!.value;

async function listTools(url: string, authorization: string): Promise<string[]> {
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: authorization } } }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

/** A raw POST of an MCP initialize with the given headers: the HTTP status. */
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('loopback MCP listener (one per process, real HTTP)', () => {
  const injections: McpInjection[] = [];
  after(async () => {
    await Promise.all(injections.map((i) => i.close()));
  });

  async function inject(tool: string): Promise<Decl> {
    const injection = await injectMcpServers({ cwd: '/', mcpServers: [] }, [{ name: tool, create: () => serverNamed(tool) }], {
      useHttp: true,
      self,
      log,
    });
    injection.bind(`session-${tool}`);
    injections.push(injection);
    return declOf(injection);
  }

  it("serves every session's server on one port, each at its own path; a token opens only its own server", async () => {
    const a = await inject('alpha');
    const b = await inject('beta');
    assert.equal(new URL(a.url).port, new URL(b.url).port, 'one listener');
    assert.notEqual(a.url, b.url);
    assert.match(a.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{32}$/);
    assert.deepEqual(await listTools(a.url, tokenOf(a)), ['alpha']);
    assert.deepEqual(await listTools(b.url, tokenOf(b)), ['beta']);
    assert.equal(await post(b.url, { Authorization: tokenOf(a) }), 401, "alpha's token does not open beta");
    assert.equal(await post(a.url, { Authorization: tokenOf(b) }), 401, "beta's token does not open alpha");
    assert.equal(await post(a.url, {}), 401);
    await assert.rejects(listTools(b.url, tokenOf(a)), /401|nauthorized/);
  });

  it('pins the Host header to the loopback address (DNS rebinding), even with the right token', async () => {
    const a = await inject('gamma');
    const port = new URL(a.url).port;
    assert.equal(await post(a.url, { Authorization: tokenOf(a), Host: `evil.example:${port}` }), 403);
    assert.equal(await post(a.url, { Authorization: tokenOf(a), Host: `127.0.0.1:${Number(port) + 1}` }), 403);
    assert.equal(await post(a.url.replace('127.0.0.1', 'localhost'), { Authorization: tokenOf(a) }), 200, 'localhost:<port> is allowed');
  });

  it('closing an injection removes its route only; the listener and other servers stay', async () => {
    const injection = await injectMcpServers({ cwd: '/', mcpServers: [] }, [{ name: 'delta', create: () => serverNamed('delta') }], {
      useHttp: true,
      self,
      log,
    });
    const d = declOf(injection);
    const e = await inject('epsilon');
    assert.deepEqual(await listTools(d.url, tokenOf(d)), ['delta']);
    await injection.close();
    assert.equal(await post(d.url, { Authorization: tokenOf(d) }), 404, 'the closed server is gone');
    assert.deepEqual(await listTools(e.url, tokenOf(e)), ['epsilon'], 'the others still work on the same port');
    const f = await inject('zeta');
    assert.equal(new URL(f.url).port, new URL(d.url).port, 'a new server reuses the listener');
  });
});
