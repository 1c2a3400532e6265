// ElizACP as an MCP client: real MCP servers over stdio (a fixture child process) and Streamable
// HTTP (served from this test process), plus the crate-research flow.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { respond } from './engine';
import { ElizaHarness, TSX_IMPORT, waitFor } from './test-harness';
import { startHttpMcp, type HttpMcp } from './fixtures/httpMcpServer';

const FIXTURE = path.join(__dirname, 'fixtures', 'mcp-stdio-server.ts');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('ElizACP MCP hooks (process)', function () {
  this.timeout(20000);
  let eliza: ElizaHarness;
  let dir: string;
  let web: HttpMcp;
  let research: HttpMcp;
  const returned: string[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'eliza-mcp-'));
    const crateDir = path.join(dir, 'checkout', 'demo-crate-1.2.3');
    mkdirSync(crateDir, { recursive: true });
    writeFileSync(
      path.join(crateDir, 'Cargo.toml'),
      '[package]\nname = "demo-crate"\nversion = "1.2.3"\ndescription = "A demo crate for ElizACP tests."\n\n[dependencies]\nserde = "1"\n',
    );

    web = await startHttpMcp('s3cret', () => {
      const s = new McpServer({ name: 'web', version: '1.0.0' });
      s.registerTool('greet', { inputSchema: { name: z.string() } }, async ({ name }) => ({
        content: [{ type: 'text', text: `Hello, ${name}` }],
      }));
      return s;
    });
    research = await startHttpMcp('r', () => {
      const s = new McpServer({ name: 'research', version: '1.0.0' });
      s.registerTool(
        'get_rust_crate_source',
        { inputSchema: { crate_name: z.string(), version: z.string().optional() } },
        async ({ crate_name }) => ({
          content: [{ type: 'text', text: JSON.stringify({ crate_name, checkout_path: crateDir }) }],
        }),
      );
      s.registerTool('return_response_to_user', { inputSchema: { response: z.string() } }, async ({ response }) => {
        returned.push(response);
        return { content: [{ type: 'text', text: 'ok' }] };
      });
      return s;
    });
    eliza = await ElizaHarness.start(['--deterministic']);
  });

  after(async () => {
    await eliza?.close();
    await web?.close();
    await research?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const stdioServer = (name: string): acp.McpServer => ({
    name,
    command: process.execPath,
    args: ['--import', TSX_IMPORT, FIXTURE],
    env: [{ name: 'ELIZA_FIXTURE_VAR', value: 'from-acp' }],
  });

  it('lists and calls tools of a stdio MCP server, reusing one server process', async () => {
    const { sessionId } = await eliza.newSession(dir, [stdioServer('fixture')]);
    assert.equal((await eliza.prompt(sessionId, 'list tools from fixture')).text, 'Tools from fixture: echo, add, env, cwd, pid, fail');
    assert.equal((await eliza.prompt(sessionId, 'use tool fixture::add with {"a": 2, "b": 40}')).text, '42');
    assert.equal((await eliza.prompt(sessionId, 'use tool fixture::echo with {"text": "hi there"}')).text, 'echo: hi there');
    assert.equal((await eliza.prompt(sessionId, 'use tool fixture::env with {"name": "ELIZA_FIXTURE_VAR"}')).text, 'from-acp');
    assert.equal((await eliza.prompt(sessionId, 'use tool fixture::fail with {"message": "boom"}')).text, 'Tool error: boom');
    const missing = (await eliza.prompt(sessionId, 'use tool fixture::nosuch with {}')).text;
    assert.ok(missing.startsWith('Tool error: ') && missing.includes('nosuch'), missing);
    assert.match((await eliza.prompt(sessionId, 'use tool fixture::add with {oops')).text, /^Invalid JSON arguments for add: /);

    const pid1 = Number((await eliza.prompt(sessionId, 'use tool fixture::pid')).text);
    const pid2 = Number((await eliza.prompt(sessionId, 'use tool fixture::pid')).text);
    assert.ok(pid1 > 0);
    assert.equal(pid2, pid1, 'the MCP client is cached per session and server');
    assert.ok(alive(pid1));

    // Closing the session closes its MCP clients, which stops the stdio server.
    await eliza.agent.request('session/close', { sessionId });
    await waitFor(() => !alive(pid1), 5000, 'stdio MCP server to exit');
  });

  it('answers clearly for unknown servers instead of hanging', async () => {
    const { sessionId } = await eliza.newSession(dir, [stdioServer('fixture')]);
    const expected = "No MCP server named 'ghost' in this session. Known servers: fixture.";
    assert.equal((await eliza.prompt(sessionId, 'list tools from ghost')).text, expected);
    assert.equal((await eliza.prompt(sessionId, 'use tool ghost::x with {}')).text, expected);
    const { sessionId: empty } = await eliza.newSession(dir);
    assert.equal((await eliza.prompt(empty, 'list tools from x')).text, "No MCP server named 'x' in this session. Known servers: (none).");
  });

  it('talks Streamable HTTP with the configured headers', async () => {
    const before = web.requests;
    const { sessionId } = await eliza.newSession(dir, [
      { type: 'http', name: 'web', url: web.url, headers: [{ name: 'Authorization', value: 'Bearer s3cret' }] },
      { type: 'http', name: 'locked', url: web.url, headers: [] },
    ]);
    assert.equal((await eliza.prompt(sessionId, 'list tools from web')).text, 'Tools from web: greet');
    assert.equal((await eliza.prompt(sessionId, 'use tool web::greet with {"name": "Ada"}')).text, 'Hello, Ada');
    assert.ok(web.requests > before);
    assert.equal(web.unauthorized, 0);
    const locked = (await eliza.prompt(sessionId, 'list tools from locked')).text;
    assert.match(locked, /^Error listing tools from locked: /);
    assert.equal(web.unauthorized > 0, true);
  });

  it('runs crate research in sessions that offer return_response_to_user', async () => {
    const { sessionId } = await eliza.newSession(dir, [
      { type: 'http', name: 'research', url: research.url, headers: [{ name: 'Authorization', value: 'Bearer r' }] },
    ]);
    const expected = 'Research on demo-crate 1.2.3: A demo crate for ElizACP tests.';
    const turn = await eliza.prompt(sessionId, 'Please research this crate.\ncrate_name: demo-crate');
    assert.equal(turn.response.stopReason, 'end_turn');
    assert.deepEqual(returned, [expected]);
    assert.equal(turn.text, expected);
    assert.ok(
      eliza.fileReads.some((p) => p.endsWith(path.join('demo-crate-1.2.3', 'Cargo.toml'))),
      'read via fs/read_text_file',
    );

    eliza.permissionAnswer = { optionId: 'reject-once' };
    try {
      const denied = await eliza.prompt(sessionId, '{"crate_name": "demo-crate"} with permission');
      assert.match(denied.text, /^Research on demo-crate: not allowed to read .*Cargo\.toml \(permission: reject-once\)\.$/);
      assert.equal(eliza.permissionRequests.at(-1)?.toolCall.kind, 'read');
    } finally {
      eliza.permissionAnswer = { optionId: 'allow-once' };
    }

    // Without a crate name it is just ELIZA.
    assert.equal((await eliza.prompt(sessionId, 'hello')).text, respond('hello', { deterministic: true }));
  });
});
