// The real agents through the conductor against the same agents direct: `session/new` time, and
// the time from sending a prompt to its first streamed chunk (what a user waits for after Enter,
// less the chat's own share, which chat-bench measures), each agent against the scripted model
// server. Ratios are chain / direct, in the same run, alternating. A third measure is the floor of
// what the chain asks of an agent: the agent direct, given four trivial HTTP MCP servers (as many
// as the default chain injects) served from this process; what an agent spends connecting to MCP
// servers is its own, not the chain's. The first chunk is measured twice: for a prompt sent the
// moment session/new answers (through the chain it waits behind Sparkle's embodiment turn, one model
// turn the default chain runs at session start), and for one sent TYPING_MS later, as a user who
// types it after opening the tab does; the goal (+10 ms at most, Claude Code and Codex) is for the
// second. Needs the pinned agents (scripts/test-tools-install.sh); an
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
import { printGoal } from './goal';
import { median, signed } from './stats';
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
/** How long a user takes to type the first prompt after the tab opened (short for anyone). */
const TYPING_MS = 2000;
/** The goal: Enter → first chunk through the chain within this much of the agent direct. */
const GOAL_ADDED_MS = 10;
/** The agents the goal names: Claude Code (both of its adapters) and Codex. */
const GOAL_AGENTS: readonly AgentId[] = ['claude-agent-acp', 'claude-code-acp', 'codex'];

interface Sample {
  sessionNewMs: number;
  firstChunkMs: number;
}

type Mode = 'direct' | 'direct with four MCP servers' | 'chain';

async function once(id: AgentId, mode: Mode, typingMs = 0): Promise<Sample> {
  const chain = mode === 'chain';
  const model = await startScriptedModelServer([{ when: 'say hello', text: ANSWER }]);
  const ws = mkdtempSync(join(tmpdir(), 'agents-bench-ws-'));
  const launch = agentLaunch(id, model.url);
  const command = chain ? [process.execPath, CONDUCTOR, '--log', 'warn', '--', ...launch.command] : launch.command;
  // In a process group of its own (setsid execs in place), so whatever an agent leaves running
  // (Codex's native binary outlives its npm wrapper) is killed with it instead of running on into
  // the next measure.
  const h = startProcess(['setsid', ...command], {}, launch.env);
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
            // An agent may still reach a server after the measure closed them: not worth a line here.
            log: createLogger('error'),
          })
        : undefined;
    let t = performance.now();
    const { sessionId } = await h.conn.agent.request(
      'session/new',
      (injection?.params ?? { cwd: ws, mcpServers: [] }) as acp.NewSessionRequest,
    );
    const sessionNewMs = performance.now() - t;
    injection?.bind(sessionId);
    if (typingMs > 0) await new Promise((r) => setTimeout(r, typingMs));
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
    try {
      process.kill(-h.child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
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
    '| agent | session/new direct | direct, given four MCP servers (floor) | through the chain | ratio to direct | ratio to the floor | first chunk, sent at once: direct | through the chain | first chunk, typed: direct | through the chain | added |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const goals: string[] = [];
  const rows: Record<string, unknown> = {};
  for (const id of AGENT_IDS) {
    const direct: Sample[] = [];
    const floor: Sample[] = [];
    const chain: Sample[] = [];
    const typedDirect: Sample[] = [];
    const typedChain: Sample[] = [];
    try {
      await once(id, 'direct'); // warm the agent's own caches (npm, compile caches) once, unmeasured
      for (let i = 0; i < ROUNDS; i++) {
        direct.push(await once(id, 'direct'));
        floor.push(await once(id, 'direct with four MCP servers'));
        chain.push(await once(id, 'chain'));
        typedDirect.push(await once(id, 'direct', TYPING_MS));
        typedChain.push(await once(id, 'chain', TYPING_MS));
      }
    } catch (e) {
      lines.push(`| ${id} | failed: ${errorText(e)} | | | | | | | | | |`);
      if (GOAL_AGENTS.includes(id)) {
        goals.push(`| ${id} | failed: ${errorText(e)} | **not met** |`);
        printGoal({
          area: 'Real agents',
          goal: `Enter → first chunk ≤ direct + ${GOAL_ADDED_MS} ms (${id})`,
          figure: `failed: ${errorText(e)}`,
          met: false,
        });
      }
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
    const [td, tc] = [m(typedDirect, 'firstChunkMs'), m(typedChain, 'firstChunkMs')];
    const plus = (ms: number): string => `${signed(ms)} ms`;
    lines.push(
      `| ${id} | ${f(sd)} | ${f(sf)} | ${f(sc)} | ${(sc / sd).toFixed(2)}× (${plus(sc - sd)}) | ${(sc / sf).toFixed(2)}× (${plus(sc - sf)}) | ${f(fd)} | ${f(fc)} (${plus(fc - fd)}) | ${f(td)} | ${f(tc)} | ${plus(tc - td)} |`,
    );
    if (GOAL_AGENTS.includes(id)) {
      const met = tc - td <= GOAL_ADDED_MS;
      goals.push(`| ${id} | ${f(td)} → ${f(tc)} (${plus(tc - td)}) | ${met ? 'met' : '**not met**'} |`);
      printGoal({
        area: 'Real agents',
        goal: `Enter → first chunk ≤ direct + ${GOAL_ADDED_MS} ms, typed prompt (${id})`,
        figure: `${f(td)} → ${f(tc)} (${plus(tc - td)}; sent at once ${plus(fc - fd)})`,
        met,
      });
    }
    rows[id] = { direct, floor, chain, typedDirect, typedChain };
    console.log(lines.at(-1));
  }
  lines.push(
    '',
    `Goal: Enter → first chunk through the chain ≤ the agent direct + ${GOAL_ADDED_MS} ms, for a prompt typed after the tab opened (${TYPING_MS} ms).`,
    '',
    '| agent | first chunk, typed: direct → chain | |',
    '|---|---|---|',
    ...goals,
  );
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
