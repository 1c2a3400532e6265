// The agent side of the IDE-operations bench (ide-bench.ts): a minimal ACP agent whose prompt is a
// JSON order {tool, args, count}; it calls that tool of the session's injected `ide` MCP server
// `count` times, one after another (or, for {acp: {method, params}, count}, sends that request to
// the client side itself, as ide-operations would), and answers with the round trip of each call (ms) — the time an
// agent waits for `find_references`, measured where the agent sits. Run by the conductor as its
// agent: node out/bench/ideBenchAgent.js
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { McpPool } from '../eliza/mcp';

const sessions = new Map<string, McpPool>();

const app = acp
  .agent({ name: 'ide-bench-agent' })
  .onRequest('initialize', () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { mcpCapabilities: { http: true, sse: false } },
    authMethods: [],
  }))
  .onRequest('session/new', ({ params }) => {
    const sessionId = randomUUID();
    sessions.set(sessionId, new McpPool(params.mcpServers, params.cwd));
    return { sessionId };
  })
  .onRequest('session/prompt', async ({ params, client, signal }) => {
    const pool = sessions.get(params.sessionId)!;
    const text = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
    // {tool, args}: an MCP tool call; {acp: {method, params}}: that request sent to the client side
    // as ide-operations sends it (through the conductor's chain, without MCP).
    const order = JSON.parse(text) as
      | { tool: string; args: Record<string, unknown>; count: number }
      | { acp: { method: string; params: Record<string, unknown> }; count: number };
    const times: number[] = [];
    let last = '';
    for (let i = 0; i < order.count; i++) {
      const t0 = performance.now();
      if ('acp' in order) {
        last = JSON.stringify(await client.request(order.acp.method, { ...order.acp.params, sessionId: params.sessionId }));
        times.push(performance.now() - t0);
        continue;
      }
      const r = await pool.callTool('symposium-ide', order.tool, order.args, signal);
      times.push(performance.now() - t0);
      if (r.isError) throw new Error(`${order.tool} failed: ${r.text}`);
      last = r.text;
    }
    await client.notify('session/update', {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: JSON.stringify({ times, last }) } },
    });
    return { stopReason: 'end_turn' };
  });

const connection = app.connect(
  acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  ),
);
void connection.closed.then(async () => {
  await Promise.allSettled([...sessions.values()].map((p) => p.closeAll()));
  process.exit(0);
});
