// MCP over ACP through the conductor's bridge, beyond plain tool calls (real processes: the
// conductor, the SDK-written MCP injector proxy, ElizACP as the agent and MCP client):
//   - the ACP SDK 2.4 schema's connectionless form (`mcp/message {serverId, requestId, …}`, no
//     `mcp/connect`), with the server's request-scoped notifications (progress) reaching the agent;
//   - requests from the proxy's MCP server to the agent (MCP sampling), in the connection forms
//     (`mcp/message {connectionId}` and sacp's `_mcp/message`), answered by ElizACP's model;
// over the bridge's Streamable HTTP route and over its stdio shim.
import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { respond } from '../eliza/engine';
import { CONDUCTOR_JS, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, waitFor, type Harness } from './harness';

const INJECTOR = resolve(__dirname, '../../out/fixtures/proxies/mcpInjector.js');

function conductorWithInjector(injectorArgs: string[], transport: 'http' | 'stdio', traceDir?: string): string[] {
  const proxy = JSON.stringify({ name: 'mcp-injector', command: process.execPath, args: [INJECTOR, ...injectorArgs] });
  const agent = elizaCommand(transport === 'stdio' ? ['--no-http-mcp'] : []);
  const trace = traceDir ? ['--trace-dir', traceDir] : [];
  return [
    process.execPath,
    CONDUCTOR_JS,
    '--log',
    'debug',
    ...trace,
    '--proxy',
    proxy,
    '--components',
    'mcp-injector,symposium-info',
    '--',
    ...agent,
  ];
}

/** The messages the conductor traced from `from` to `to`, so far: the file is read while the conductor writes it, so a last line without its newline is not complete yet. */
function traced(traceDir: string, from: string, to: string): { method?: string; params?: Record<string, unknown> }[] {
  return readdirSync(traceDir)
    .flatMap((f) => readFileSync(join(traceDir, f), 'utf8').split('\n').slice(0, -1))
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { from: string; to: string; message: { method?: string; params?: Record<string, unknown> } })
    .filter((l) => l.from === from && l.to === to)
    .map((l) => l.message);
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
      assert.equal(
        (await prompt(h, sessionId, 'list tools from proxy-tools')).text,
        'Tools from proxy-tools: reverse, count, ask_agent, ask_user',
      );
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

    it(`connectionless: the agent cancelling its MCP call cancels the outer mcp/message request at the proxy (${transport})`, async () => {
      const traceDir = tempDir('symposium-mcp-cancel-');
      h = startProcess(conductorWithInjector(['--dialect', 'proxy', '--mcp', 'connectionless'], transport, traceDir));
      await initialize(h);
      const sessionId = await newSession(h, tempDir());
      // 100 progress steps 30 ms apart: the call runs for 3 s unless cancelled.
      const running = h.conn.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'use tool proxy-tools::count with {"n": 100}' }],
      });
      const wire = (): ReturnType<typeof traced> => traced(traceDir, 'mcp-injector', 'mcp-injector (process)');
      await waitFor(
        () =>
          wire().some(
            (m) =>
              m.method === 'proxy/successor' &&
              m.params?.method === 'mcp/message' &&
              (m.params.params as { method?: string }).method === 'tools/call',
          ),
        5000,
        'the tool call at the proxy',
      );
      await h.conn.agent.notify('session/cancel', { sessionId });
      assert.equal((await running).stopReason, 'cancelled');
      await waitFor(() => wire().some((m) => m.method === '$/cancel_request'), 3000, 'the $/cancel_request sent to the proxy');
      assert.equal(
        (await prompt(h, sessionId, 'use tool proxy-tools::reverse with {"text": "stressed"}')).text,
        'desserts',
        'the server goes on',
      );
    });

    // The proxy's MCP server elicits during a tool call: the user answers in the editor (ACP
    // elicitation/create, scoped to the session and the agent's tool call), never the agent.
    const dialect = transport === 'http' ? 'proxy' : '_proxy';
    it(`asks the editor for the proxy server's elicitation during a tool call, answer and decline back in the tool (${dialect}/*, ${transport})`, async () => {
      const asked: acp.CreateElicitationRequest[] = [];
      const answers: acp.CreateElicitationResponse[] = [{ action: 'accept', content: { name: 'Ada' } }, { action: 'decline' }];
      h = startProcess(conductorWithInjector(['--dialect', dialect], transport), {
        elicitation: async (p) => {
          asked.push(p);
          return answers.shift()!;
        },
      });
      await initialize(h, { elicitation: { form: {} } });
      const sessionId = await newSession(h, tempDir());
      const ask = 'use tool proxy-tools::ask_user with {"question": "Who are you?"}';
      assert.equal((await prompt(h, sessionId, ask)).text, 'the user answered: accept {"name":"Ada"}');
      const card = h.updates.find((u) => u.update.sessionUpdate === 'tool_call' && u.update.title === 'proxy-tools::ask_user');
      assert.ok(card && card.update.sessionUpdate === 'tool_call');
      assert.deepEqual(asked[0], {
        mode: 'form',
        sessionId,
        toolCallId: card.update.toolCallId,
        message: 'Who are you?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
      });
      assert.equal((await prompt(h, sessionId, ask)).text, 'the user answered: decline');
      assert.equal(asked.length, 2);
    });

    it(`tells the proxy's server there is no elicitation when the editor takes none (${transport})`, async () => {
      let asked = 0;
      h = startProcess(conductorWithInjector(['--dialect', dialect], transport), {
        elicitation: async () => {
          asked++;
          return { action: 'cancel' };
        },
      });
      await initialize(h);
      const sessionId = await newSession(h, tempDir());
      const answer = (await prompt(h, sessionId, 'use tool proxy-tools::ask_user with {"question": "Who are you?"}')).text;
      assert.match(answer, /^Tool error: .*does not support form elicitation/);
      assert.equal(asked, 0);
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
