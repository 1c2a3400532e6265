// The user's own MCP servers with a real agent: Claude Code (claude-code-acp, pinned in
// .test-tools) through the conductor's default chain gets a stdio server and an HTTP server in
// `session/new` as the editor passes them from the user's mcp.json. The scripted model server calls
// a tool of each; what the tools answered reaches the model (it sees the tool results) and comes
// back as the agent's answer. Offline and deterministic; needs `node esbuild.mjs` and the pinned agents.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { startHttpMcp, type HttpMcp } from '../../eliza/fixtures/httpMcpServer';
import { TSX_IMPORT } from '../../eliza/test-harness';
import { CONDUCTOR_JS, conductorArgs, startProcess, tempDir, type Harness } from '../harness';
import { agentLaunch, agentsInstalled } from './agents';
import { startScriptedModelServer, type ScriptedModelServer } from './server';
import { mcpStep } from './steps';

const FIXTURE = path.join(__dirname, '..', '..', 'eliza', 'fixtures', 'mcp-stdio-server.ts');
const VALUE = 'from-the-users-mcp-json';

describe("claude-code-acp with the user's own MCP servers (scripted model server)", function () {
  this.timeout(120_000);
  let model: ScriptedModelServer;
  let docs: HttpMcp;
  let h: Harness;
  let sessionId: string;

  before(async function () {
    if (!existsSync(CONDUCTOR_JS)) throw new Error('build first: node esbuild.mjs');
    if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
    docs = await startHttpMcp('docs-key', () => {
      const server = new McpServer({ name: 'user-docs', version: '1.0.0' });
      server.registerTool('lookup', { description: 'Looks a word up', inputSchema: { word: z.string() } }, async ({ word }) => ({
        content: [{ type: 'text', text: `docs say: ${word} is a crab` }],
      }));
      return server;
    });
    model = await startScriptedModelServer([
      mcpStep('what is my setting', 'mine', 'env', { name: 'MY_SETTING' }),
      mcpStep('look up ferris', 'docs', 'lookup', { word: 'ferris' }),
    ]);
    const launch = agentLaunch('claude-code-acp', model.url);
    h = startProcess(conductorArgs({ agent: launch.command, log: 'info' }), {}, launch.env);
    await h.conn.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: 'symposium-tests', version: '0' },
    });
    const mcpServers: acp.McpServer[] = [
      { name: 'mine', command: process.execPath, args: ['--import', TSX_IMPORT, FIXTURE], env: [{ name: 'MY_SETTING', value: VALUE }] },
      { type: 'http', name: 'docs', url: docs.url, headers: [{ name: 'Authorization', value: 'Bearer docs-key' }] },
    ];
    ({ sessionId } = await h.conn.agent.request('session/new', { cwd: tempDir('symposium-ws-user-mcp-'), mcpServers }));
  });
  after(async () => {
    await h?.close();
    await model?.close();
    await docs?.close();
  });

  const ask = async (text: string): Promise<string> => {
    const r = await h.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
    assert.equal(r.stopReason, 'end_turn');
    return h.takeText(sessionId);
  };
  const resultsSeen = (): string => model.script.log.map((l) => l.toolResult?.text ?? '').join('\n');

  it("calls the user's stdio server's tool; its answer reaches the model", async () => {
    assert.match(await ask('what is my setting?'), new RegExp(`The tool answered: .*${VALUE}`, 's'));
    assert.match(resultsSeen(), new RegExp(VALUE), 'the model got the tool result');
  });

  it("calls the user's HTTP server's tool with the configured header; its answer reaches the model", async () => {
    assert.match(await ask('please look up ferris'), /The tool answered: .*docs say: ferris is a crab/s);
    assert.match(resultsSeen(), /docs say: ferris is a crab/);
    assert.equal(docs.unauthorized, 0);
  });
});
