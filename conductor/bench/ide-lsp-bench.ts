// npm run bench, part 3: what the language-server fallback costs. `findReferences` on the class
// Parser of test-fixtures/workspace/ts-project (8 locations), each path against its own warm
// typescript-language-server (same version, same initialization options), interleaved round by
// round (docs/benchmarks.md):
//   direct        `textDocument/references` sent straight to a bare typescript-language-server
//                 over vscode-jsonrpc (with the adapter's own writer, so both sides send alike),
//                 the raw LSP answer;
//   byte relay    the same, through a process that moves bytes and does nothing else
//                 (byteRelay.js): the floor of the one process hop the conductor adds;
//   conductor + adapter   an agent sends `_symposium/ide/references` as ide-operations does, to a
//                 conductor whose chain is ide-lsp: agent → conductor → ide-lsp → its server →
//                 1-based results with snippets → back. Timed by the agent, once with the ACP SDK
//                 (ideBenchAgent.ts) and once with no library at all (rawIdeAgent.ts), so that the
//                 agent's own library is not counted as the conductor's;
//   fallback with MCP     an agent's `find_references` MCP tool call: the same, behind the
//                 session's loopback MCP server and ide-operations.
// And the adapter alone, in this process, on one warm server: its answer vs the bare request on
// the same connection; the hops of the MCP path, each stopping one hop earlier; the cold start
// (fresh process to first answer).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { createProtocolConnection, StreamMessageReader, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { realpathSync } from 'node:fs';
import { LspIde } from '../components/ide-lsp/answers';
import { PipeMessageWriter } from '../components/ide-lsp/messageWriter';
import { resolveServer, BUILTIN_SERVERS } from '../components/ide-lsp/servers';
import { ServerPool } from '../components/ide-lsp/supervisor';
import { createLogger } from '../log';
import { quantile, signed } from './stats';
import { printGoal } from './goal';

const ROOT = resolve(__dirname, '../..');
const PROJECT = join(ROOT, 'test-fixtures/workspace/ts-project');
const PARSER = join(PROJECT, 'src/parser.ts');
const CONDUCTOR = resolve(__dirname, '../conductor.js');
const AGENT = resolve(__dirname, 'ideBenchAgent.js');
const RAW_AGENT = resolve(__dirname, 'rawIdeAgent.js');
const BYTE_RELAY = resolve(__dirname, 'byteRelay.js');
/** The repository's devDependency servers first (npm run puts them on PATH too; the bench may run without it). */
const SERVER_PATH = [join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLS = Number(process.env.BENCH_LSP_CALLS ?? 100);
/**
 * Calls on every path before the rounds. V8 compiles a path's code as it runs: the conductor's
 * path (parsing, the chain, the adapter, vscode-jsonrpc) still ran slower after 30 calls (CPU per
 * call 1.2 ms, p50 3.5 ms) than after 1 000 (0.7 ms, 2.2 ms), so a short warm-up measured the JIT.
 */
const WARMUP = Number(process.env.BENCH_LSP_WARMUP ?? 500);

interface Direct {
  connection: ProtocolConnection;
  close(): Promise<void>;
}

/** A bare typescript-language-server, initialized as the adapter does, parser.ts open. */
async function startDirect(relay = false): Promise<{ direct: Direct; coldMs: number }> {
  const t0 = performance.now();
  const launch = resolveServer(BUILTIN_SERVERS[0]!, PROJECT, { allowWorkspaceBinaries: false, envPath: SERVER_PATH });
  const [command, args] = relay ? [process.execPath, [BYTE_RELAY, launch.command, ...launch.args]] : [launch.command, launch.args];
  const child = spawn(command, args, {
    cwd: PROJECT,
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, ...launch.env },
  });
  // The adapter's own writer (one write per message, at once), so that both sides send alike.
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new PipeMessageWriter(child.stdin));
  connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => null));
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  const uri = pathToFileURL(PROJECT).href;
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: uri,
    workspaceFolders: [{ uri, name: 'ts-project' }],
    capabilities: {
      textDocument: { references: {}, publishDiagnostics: {} },
      window: { workDoneProgress: true },
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } },
    },
    initializationOptions: {
      tsserver: { path: launch.tsserver, useSyntaxServer: 'never', useClientFileWatcher: true },
      preferences: { includePackageJsonAutoImports: 'off' },
    },
  });
  await connection.sendNotification('initialized', {});
  await connection.sendNotification('textDocument/didOpen', {
    textDocument: {
      uri: pathToFileURL(PARSER).href,
      languageId: 'typescript',
      version: 1,
      text: await import('node:fs').then((fs) => fs.readFileSync(PARSER, 'utf8')),
    },
  });
  const first = await references(connection);
  if (first !== 8) throw new Error(`expected 8 references to Parser, got ${first}`);
  const coldMs = performance.now() - t0;
  return {
    coldMs,
    direct: {
      connection,
      close: async () => {
        await connection.sendRequest('shutdown').catch(() => undefined);
        await connection.sendNotification('exit').catch(() => undefined);
        connection.dispose();
        child.kill();
      },
    },
  };
}

async function references(connection: ProtocolConnection): Promise<number> {
  const r = await connection.sendRequest<unknown[]>('textDocument/references', {
    textDocument: { uri: pathToFileURL(PARSER).href },
    position: { line: 3, character: 13 },
    context: { includeDeclaration: true },
  });
  return r.length;
}

async function timeDirect(d: Direct, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await references(d.connection);
    times.push(performance.now() - t0);
  }
  return times;
}

interface Fallback {
  conn: acp.ClientConnection;
  sessionId: string;
  close(): void;
}
const chunks: { sessionId: string; text: string }[] = [];

/** The conductor with ElizACP's bench twin as its agent; this client advertises no IDE, so ide-lsp answers. */
async function startFallback(components = 'ide-operations', agent = AGENT): Promise<Fallback> {
  const child = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir>: a CPU profile of the conductor (where the fallback path's time goes).
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      CONDUCTOR,
      ...['--log', process.env.BENCH_LOG ?? 'warn', '--components', components, '--', process.execPath, agent],
    ],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, PATH: SERVER_PATH },
    },
  );
  const conn = acp
    .client()
    .onNotification('session/update', ({ params }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text')
        chunks.push({ sessionId: params.sessionId, text: params.update.content.text });
    })
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  await conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await conn.agent.request('session/new', { cwd: PROJECT, mcpServers: [] });
  return {
    conn,
    sessionId,
    close: () => {
      child.stdin.end();
    },
  };
}

const FIND_REFERENCES = { tool: 'find_references', args: { file: 'src/parser.ts', line: 4, column: 14 } };
/** The hops of the whole path, each order stopping one hop earlier (see docs/benchmarks.md). */
const HOPS = {
  /** agent → loopback MCP → the `ide` tool, which evaluates a literal: no IDE request at all. */
  mcp: { tool: 'ide_operation', args: { program: '1' } },
  /** … → ide-operations → `_symposium/ide/selection` through the chain → ide-lsp, which answers without a server. */
  chain: { tool: 'ide_operation', args: { program: 'getSelection()' } },
  /** … and an answer of about the same size (8 locations with snippets) from the text search: no server. */
  payload: { tool: 'search_text', args: { path: 'src', regex: 'Parser\\b', extension: '.ts' } },
};

/**
 * The conductor + adapter without MCP: the bench agent sends `_symposium/ide/references` itself,
 * as ide-operations does for a tool call, to a conductor whose chain is ide-lsp alone (with
 * ide-operations, which refuses IDE requests that agents send, it would not pass): agent →
 * conductor → ide-lsp → its typescript-language-server → back, over the conductor's stdio.
 */
const ACP_REFERENCES = {
  acp: { method: '_symposium/ide/references', params: { position: { file: 'src/parser.ts', line: 4, column: 14 } } },
};
/** The same hop without the work: `_symposium/ide/selection`, which ide-lsp answers without a server. */
const ACP_HOP = { acp: { method: '_symposium/ide/selection', params: {} } };

/** One prompt = `count` timed calls of one tool; the agent's reply carries the times and the last answer. */
async function timeFallback(
  f: Fallback,
  count: number,
  call: { tool: string; args: Record<string, unknown> } | { acp: { method: string; params: Record<string, unknown> } } = FIND_REFERENCES,
): Promise<{ times: number[]; last: string }> {
  const order = JSON.stringify({ ...call, count });
  const before = chunks.length;
  await f.conn.agent.request('session/prompt', { sessionId: f.sessionId, prompt: [{ type: 'text', text: order }] });
  await new Promise((r) => setImmediate(r));
  const text = chunks
    .slice(before)
    .filter((c) => c.sessionId === f.sessionId)
    .map((c) => c.text)
    .join('');
  return JSON.parse(text) as { times: number[]; last: string };
}

/** The adapter's answering code in this process, with its own warm server. */
async function startAdapter() {
  const log = createLogger('warn');
  const pool = new ServerPool(log);
  const ide = new LspIde({
    servers: BUILTIN_SERVERS,
    pool,
    log,
    diagnosticsWaitMs: 5000,
    diagnosticsQuietMs: 500,
    projectLoadWaitMs: 10_000,
  });
  const signal = new AbortController().signal;
  const params = { sessionId: 'bench', position: { file: 'src/parser.ts', line: 4, column: 14 } };
  const answer = async (): Promise<number> => (await ide.answer('references', params, PROJECT, signal)).total;
  const t0 = performance.now();
  const first = await answer();
  if (first !== 8) throw new Error(`the adapter found ${first} references to Parser, not 8`);
  const coldMs = performance.now() - t0;
  const client = await pool.supervisor(BUILTIN_SERVERS[0]!, realpathSync(PROJECT)).client();
  const raw = (): Promise<unknown> =>
    client.request('textDocument/references', {
      textDocument: { uri: pathToFileURL(PARSER).href },
      position: { line: 3, character: 13 },
      context: { includeDeclaration: true },
    });
  const time = async (f: () => Promise<unknown>, count: number): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      await f();
      times.push(performance.now() - t);
    }
    return times;
  };
  return { coldMs, answer: (n: number) => time(answer, n), raw: (n: number) => time(raw, n), close: () => pool.dispose() };
}

type Row = { name: string; p50: number; p90: number; p99: number; coldMs: number };
const row = (name: string, xs: number[], cold = NaN): Row => ({
  name,
  p50: quantile(xs, 0.5),
  p90: quantile(xs, 0.9),
  p99: quantile(xs, 0.99),
  coldMs: cold,
});

function printTable(title: string, rows: Row[], base: number): void {
  console.log(`\n${title}`);
  console.log(`${'path'.padEnd(58)} | p50 ms | p90 ms | p99 ms | ratio p50 | cold start to first answer ms`);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(58)} | ${r.p50.toFixed(3).padStart(6)} | ${r.p90.toFixed(3).padStart(6)} | ${r.p99.toFixed(3).padStart(6)} | ${(r.p50 / base).toFixed(2).padStart(9)} | ${Number.isNaN(r.coldMs) ? '     –' : r.coldMs.toFixed(0).padStart(6)}`,
    );
}

async function main(): Promise<void> {
  const { direct, coldMs: directCold } = await startDirect();
  const { direct: relayed } = await startDirect(true);
  const adapter = await startAdapter();
  const fallback = await startFallback();
  const viaSdk = await startFallback('ide-lsp');
  const viaRaw = await startFallback('ide-lsp', RAW_AGENT);
  const coldStart = performance.now();
  const first = await timeFallback(fallback, 1);
  const fallbackCold = performance.now() - coldStart;
  const total = (JSON.parse(first.last) as { total: number }).total;
  if (total !== 8) throw new Error(`the fallback found ${total} references to Parser, not 8: ${first.last}`);
  for (const f of [viaSdk, viaRaw]) {
    const answer = JSON.parse((await timeFallback(f, 1, ACP_REFERENCES)).last) as { total: number };
    if (answer.total !== 8) throw new Error(`the conductor + adapter found ${answer.total} references to Parser, not 8`);
  }
  // Every path, as measured below, is timed WARMUP times first: JIT, both servers' caches, the MCP connection.
  const paths: Record<string, (n: number) => Promise<number[]>> = {
    direct: (n) => timeDirect(direct, n),
    relayed: (n) => timeDirect(relayed, n),
    fallback: async (n) => (await timeFallback(fallback, n)).times,
    conductor: async (n) => (await timeFallback(viaSdk, n, ACP_REFERENCES)).times,
    conductorRaw: async (n) => (await timeFallback(viaRaw, n, ACP_REFERENCES)).times,
    raw: (n) => adapter.raw(n),
    adapter: (n) => adapter.answer(n),
    mcp: async (n) => (await timeFallback(fallback, n, HOPS.mcp)).times,
    chain: async (n) => (await timeFallback(fallback, n, HOPS.chain)).times,
    payload: async (n) => (await timeFallback(fallback, n, HOPS.payload)).times,
    acpHop: async (n) => (await timeFallback(viaRaw, n, ACP_HOP)).times,
  };
  for (const time of Object.values(paths)) await time(WARMUP);
  const sample = JSON.parse((await timeFallback(fallback, 1, HOPS.payload)).last) as { total: number };
  if (sample.total < 6) throw new Error(`the text search found ${sample.total} lines, expected about 8`);
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) for (const [k, time] of Object.entries(paths)) samples[k]!.push(...(await time(CALLS)));
  await direct.close();
  await relayed.close();
  await adapter.close();
  for (const f of [fallback, viaSdk, viaRaw]) f.close();

  const s = (k: string): number[] => samples[k]!;
  const rows = [
    row('direct typescript-language-server', s('direct'), directCold),
    row('direct, through a byte relay (one process hop, no work)', s('relayed')),
    row('conductor + adapter (agent → conductor → ide-lsp)', s('conductor')),
    row('conductor + adapter, raw agent (no ACP library)', s('conductorRaw')),
    row('fallback with MCP (agent → MCP → conductor → ide-lsp)', s('fallback'), fallbackCold),
  ];
  const adapterRows = [row('same server, bare request', s('raw')), row('same server, the adapter answering', s('adapter'), adapter.coldMs)];
  const hops = [
    row('hop: agent → MCP → tool (no IDE request)', s('mcp')),
    row('hop: … → chain → ide-lsp (no server)', s('chain')),
    row('hop: … an 8-line answer (text search)', s('payload')),
    row('hop: raw agent → conductor → ide-lsp (no MCP, no server)', s('acpHop')),
  ];
  const base = rows[0]!.p50;
  console.log(
    `\nLanguage-server fallback benchmark: findReferences("Parser") → 8 locations (${ROUNDS} rounds × ${CALLS} calls after ${WARMUP} on each path; node ${process.version})`,
  );
  printTable('Against the direct request (reported, no goal: an agent turn takes seconds)', rows, base);
  printTable('The adapter alone, in this process, on one warm server', adapterRows, adapterRows[0]!.p50);
  for (const h of hops) console.log(`${h.name.padEnd(58)} | p50 ${h.p50.toFixed(3)} ms | p90 ${h.p90.toFixed(3)} ms`);
  const [mcp, chain, payload, acpHop] = hops.map((h) => h.p50) as [number, number, number, number];
  const added = (r: Row): string => `${signed(r.p50 - base, 3)} ms`;
  console.log(
    `p50 split, with MCP: the MCP call ${mcp.toFixed(3)} ms, the chain hop to ide-lsp and back +${(chain - mcp).toFixed(3)} ms, ` +
      `the adapter + language server +${(rows[4]!.p50 - chain).toFixed(3)} ms; an answer of that size without a server ${payload.toFixed(3)} ms`,
  );
  console.log(
    `Added to the direct request at p50: one byte relay ${added(rows[1]!)}; the conductor + adapter ${added(rows[2]!)} ` +
      `(raw agent ${added(rows[3]!)}; of which the hop without work ${acpHop.toFixed(3)} ms and the adapter's own work ` +
      `${signed(adapterRows[1]!.p50 - adapterRows[0]!.p50, 3)} ms)`,
  );
  printGoal({
    area: 'Language-server fallback',
    goal: 'the conductor + adapter against a direct request and against one byte relay (reported, no goal)',
    figure: `${(rows[2]!.p50 / base).toFixed(2)}× direct, ${(rows[2]!.p50 / rows[1]!.p50).toFixed(2)}× the relay (${added(rows[2]!)})`,
    met: null,
  });
  mkdirSync(join(ROOT, 'test-results/bench'), { recursive: true });
  writeFileSync(
    join(ROOT, 'test-results/bench/ide-lsp-results.json'),
    JSON.stringify({ when: new Date().toISOString(), loadAverage: (await import('node:os')).loadavg(), rows, adapterRows, hops }, null, 2),
  );
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
