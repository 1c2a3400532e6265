// MCP over ACP through the conductor's bridge, beyond plain tool calls (real processes: the
// conductor, the SDK-written MCP injector proxy, ElizACP as the agent and MCP client):
//   - the ACP SDK 2.4 schema's connectionless form (`mcp/message {serverId, requestId, …}`, no
//     `mcp/connect`), with the server's request-scoped notifications (progress) reaching the agent;
//   - requests from the proxy's MCP server to the agent (MCP sampling), in the connection forms
//     (`mcp/message {connectionId}` and sacp's `_mcp/message`), answered by ElizACP's model;
// over the bridge's Streamable HTTP route and over its stdio shim.
import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { respond } from '../eliza/engine';
import { CONDUCTOR_JS, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';

const INJECTOR = resolve(__dirname, '../../out/fixtures/proxies/mcpInjector.js');

function conductorWithInjector(injectorArgs: string[], transport: 'http' | 'stdio'): string[] {
  const proxy = JSON.stringify({ name: 'mcp-injector', command: process.execPath, args: [INJECTOR, ...injectorArgs] });
  const agent = elizaCommand(transport === 'stdio' ? ['--no-http-mcp'] : []);
  return [
    process.execPath,
    CONDUCTOR_JS,
    '--log',
    'debug',
    '--proxy',
    proxy,
    '--components',
    'mcp-injector,symposium-info',
    '--',
    ...agent,
  ];
}

describe('MCP over ACP through the bridge: connectionless form, progress, sampling (real processes)', function () {
  this.timeout(30000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const transport of ['http', 'stdio'] as const) {
    it(`serves a connectionless (SDK 2.4 schema) server to the agent, its progress notifications included (${transport})`, async () => {
      h = startProcess(conductorWithInjector(['--dialect', 'proxy', '--mcp', 'connectionless'], transport));
      await initialize(h);
      const sessionId = await newSession(h, tempDir());
      assert.equal((await prompt(h, sessionId, 'list tools from proxy-tools')).text, 'Tools from proxy-tools: reverse, count, ask_agent');
      assert.equal((await prompt(h, sessionId, 'use tool proxy-tools::reverse with {"text": "stressed"}')).text, 'desserts');
      // The server's notifications for the running request (mcp/message {serverId, requestId}) reach the agent's MCP client, before the answer.
      assert.equal(
        (await prompt(h, sessionId, 'use tool proxy-tools::count with {"n": 3}')).text,
        'counted to 3\n(progress: 1/3, 2/3, 3/3)',
      );
      assert.match(h.stderr(), /"proxy-tools" does not know mcp\/connect: using the connectionless mcp\/message form/);
      // The form has no requests from the server: a server that wants to sample is told it cannot.
      const sampled = (await prompt(h, sessionId, 'use tool proxy-tools::ask_agent with {"question": "I am sad"}')).text;
      assert.match(sampled, /^Tool error: /);
      assert.match(sampled, /sampling/i);
    });

    for (const dialect of ['proxy', '_proxy'] as const) {
      it(`carries the proxy server's sampling request to the agent and its answer back (${dialect}/* connection form, ${transport})`, async () => {
        h = startProcess(conductorWithInjector(['--dialect', dialect], transport));
        await initialize(h);
        const sessionId = await newSession(h, tempDir());
        const expected = `elizacp says: ${respond('I am sad', { deterministic: true })}`;
        assert.equal((await prompt(h, sessionId, 'use tool proxy-tools::ask_agent with {"question": "I am sad"}')).text, expected);
        // Twice, and the session's other traffic goes on around it.
        assert.equal((await prompt(h, sessionId, 'use tool proxy-tools::count with {"n": 2}')).text, 'counted to 2\n(progress: 1/2, 2/2)');
        assert.equal((await prompt(h, sessionId, 'use tool proxy-tools::ask_agent with {"question": "I am sad"}')).text, expected);
        assert.doesNotMatch(h.stderr(), /not bridged/);
      });
    }
  }
});
