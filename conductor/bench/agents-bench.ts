// The real agents through the conductor against the same agents direct: `session/new` time, and
// the time from sending a prompt to its first streamed chunk (what a user waits for after Enter,
// less the chat's own share, which chat-bench measures), each agent against the scripted model
// server. Ratios are chain / direct, in the same run, alternating. A third measure is the floor of
// what the chain asks of an agent: the agent direct, given four trivial HTTP MCP servers (as many
// as the default chain injects) served from this process; what an agent spends connecting to MCP
// servers is its own, not the chain's. Needs the pinned agents (scripts/test-tools-install.sh); an
// agent that is missing is skipped with a line saying so.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { startProcess } from '../test/harness';
import { AGENT_IDS, agentLaunch, agentsInstalled, type AgentId } from '../test/realAgents/agents';
import { startScriptedModelServer } from '../test/realAgents/server';
import type { McpServerSpec } from '../chain/component';
import { createLogger } from '../log';
import { injectMcpServers } from '../mcp/injector';
import { median } from './stats';
import { errorText } from '../../src/protocol/errorText';

/** As many servers as the default chain injects (symposium, sparkle, rust-crate-sources, symposium-ide), each with one tool. */
async function trivialMcpServers(): Promise<McpServerSpec[]> {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  return ['one', 'two', 'three', 'four'].map((name) => ({
    name,
    create: () => {
      const server = new McpServer({ name, version: '0' });
      server.tool('ping', 'Answers pong.', async () => ({ content: [{ type: 'text' as const, text: 'pong' }] }));
      return server;
    },
  }));
}

const OUT = resolve(__dirname, '..');
const SHIPPED = resolve(OUT, 'shipped', 'conductor.js');
const CONDUCTOR = existsSync(SHIPPED) ? SHIPPED : resolve(OUT, 'conductor.js');
const ROUNDS = Number(process.env.AGENTS_BENCH_ROUNDS ?? 3);
const ANSWER = 'A short scripted answer, streamed in a few chunks.';

interface Sample {
  sessionNewMs: number;
  firstChunkMs: number;
}

type Mode = 'direct' | 'direct with four MCP servers' | 'chain';

async function once(id: AgentId, mode: Mode): Promise<Sample> {
  const chain = mode === 'chain';
  const model = await startScriptedModelServer([{ when: 'say hello', text: ANSWER }]);
  const ws = mkdtempSync(join(tmpdir(), 'agents-bench-ws-'));
  const launch = agentLaunch(id, model.url);
  const argv = chain ? [process.execPath, CONDUCTOR, '--log', 'warn', '--', ...launch.command] : launch.command;
  const h = startProcess(argv, {}, launch.env);
  try {
    await h.conn.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
      clientInfo: { name: 'bench', version: '0' },
    });
    const injection =
      mode === 'direct with four MCP servers'
        ? await injectMcpServers({ cwd: ws, mcpServers: [] }, await trivialMcpServers(), {
            useHttp: true,
            self: { command: process.execPath, args: [], env: [] },
            log: createLogger('warn'),
          })
        : undefined;
    let t = performance.now();
    const { sessionId } = await h.conn.agent.request(
      'session/new',
      (injection?.params ?? { cwd: ws, mcpServers: [] }) as acp.NewSessionRequest,
    );
    const sessionNewMs = performance.now() - t;
    injection?.bind(sessionId);
    const seen = h.updates.length;
    t = performance.now();
    const first = new Promise<number>((resolveFirst) => {
      const timer = setInterval(() => {
        const chunk = h.updates.slice(seen).find((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk');
        if (chunk) {
          clearInterval(timer);
          resolveFirst(performance.now() - t);
        }
      }, 1);
    });
    await h.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say hello' }] });
    const firstChunkMs = await first;
    await injection?.close();
    return { sessionNewMs, firstChunkMs };
  } finally {
    await h.close();
    await model.close();
  }
}

async function main(): Promise<void> {
  if (!agentsInstalled()) {
    console.log('agents bench skipped: the pinned agents are missing (bash scripts/test-tools-install.sh)');
    return;
  }
  const lines = [
    `## Real agents: chain / direct (${ROUNDS} rounds each, medians)`,
    '',
    '| agent | session/new direct | direct, given four MCP servers (floor) | through the chain | ratio to direct | ratio to the floor | first chunk direct | through the chain | ratio |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const rows: Record<string, unknown> = {};
  for (const id of AGENT_IDS) {
    const direct: Sample[] = [];
    const floor: Sample[] = [];
    const chain: Sample[] = [];
    try {
      await once(id, 'direct'); // warm the agent's own caches (npm, compile caches) once, unmeasured
      for (let i = 0; i < ROUNDS; i++) {
        direct.push(await once(id, 'direct'));
        floor.push(await once(id, 'direct with four MCP servers'));
        chain.push(await once(id, 'chain'));
      }
    } catch (e) {
      lines.push(`| ${id} | failed: ${errorText(e)} | | | | | | | |`);
      continue;
    }
    const m = (xs: Sample[], k: keyof Sample): number => median(xs.map((x) => x[k]));
    const f = (ms: number): string => `${ms.toFixed(0)} ms`;
    const [sd, sf, sc, fd, fc] = [
      m(direct, 'sessionNewMs'),
      m(floor, 'sessionNewMs'),
      m(chain, 'sessionNewMs'),
      m(direct, 'firstChunkMs'),
      m(chain, 'firstChunkMs'),
    ];
    const plus = (ms: number): string => `${ms >= 0 ? '+' : '−'}${f(Math.abs(ms))}`;
    lines.push(
      `| ${id} | ${f(sd)} | ${f(sf)} | ${f(sc)} | ${(sc / sd).toFixed(2)}× (${plus(sc - sd)}) | ${(sc / sf).toFixed(2)}× (${plus(sc - sf)}) | ${f(fd)} | ${f(fc)} | ${(fc / fd).toFixed(2)}× (${plus(fc - fd)}) |`,
    );
    rows[id] = { direct, floor, chain };
    console.log(lines.at(-1));
  }
  console.log(lines.join('\n'));
  writeFileSync(
    resolve(__dirname, 'agents-results.json'),
    JSON.stringify({ when: new Date().toISOString(), rounds: ROUNDS, rows }, null, 2),
  );
  writeFileSync(resolve(__dirname, 'agents-results.md'), `${lines.join('\n')}\n`);
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
