// npm run bench, part 2: what the chain costs an IDE operation. `findReferences` on the class
// Parser of test-fixtures/workspace/ts-project, answered by a real TypeScript language service — the engine
// behind VS Code's reference provider — two ways, interleaved round by round:
//   direct  the language service call (and the conversion to 1-based results) in this process;
//   chain   an agent's `find_references` MCP call, timed by the agent (ideBenchAgent.ts): agent →
//           loopback MCP → ide-operations component → conductor → `_symposium/ide/references` to
//           the editor (this process, which makes the same language-service call) → back.
// A third row answers from a precomputed list, so the chain's own cost shows without the work.
// The ratio chain/direct is the figure to watch. The same comparison against VS Code's own
// command, in a real extension host, is `npm run bench:ide-host` (src/test/bench/); this file
// runs it too when the host is installed and BENCH_HOST is not 0. See docs/benchmarks.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type * as TS from 'typescript';
import { columnToUtf16, ideMethod, snippetOf, utf16ToColumn, type IdeLocation, type IdePosition } from '../../src/protocol/ideOperations';
import { quantile } from './stats';

const ts = createRequire(__filename)('typescript') as typeof TS;
const ROOT = resolve(__dirname, '../..');
const PROJECT = join(ROOT, 'test-fixtures/workspace/ts-project');
const CONDUCTOR = resolve(__dirname, '../conductor.js');
const AGENT = resolve(__dirname, 'ideBenchAgent.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLS = Number(process.env.BENCH_IDE_CALLS ?? 200);
const TARGET: IdePosition = { file: join(PROJECT, 'src/parser.ts'), line: 4, column: 14 };

/** A language service over the project, files read once (as an editor holds them in memory). */
function languageService(): TS.LanguageService {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(PROJECT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const snapshots = new Map<string, TS.IScriptSnapshot | undefined>();
  return ts.createLanguageService(
    {
      getScriptFileNames: () => config.fileNames,
      getScriptVersion: () => '1',
      getScriptSnapshot: (f) => {
        if (!snapshots.has(f)) snapshots.set(f, ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)!) : undefined);
        return snapshots.get(f);
      },
      getCurrentDirectory: () => PROJECT,
      getCompilationSettings: () => config.options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    },
    ts.createDocumentRegistry(),
  );
}

const service = languageService();

/** Find All References at `p`, as IDE-operation results: what an answerer does per request. */
function references(p: IdePosition): IdeLocation[] {
  const program = service.getProgram()!;
  const source = program.getSourceFile(p.file)!;
  const lineText = (sf: TS.SourceFile, line: number): string =>
    sf.text.slice(sf.getLineStarts()[line], sf.getLineStarts()[line + 1] ?? sf.text.length).replace(/\r?\n$/, '');
  const offset = source.getPositionOfLineAndCharacter(p.line - 1, columnToUtf16(lineText(source, p.line - 1), p.column));
  return (service.getReferencesAtPosition(p.file, offset) ?? []).map((r) => {
    const sf = program.getSourceFile(r.fileName)!;
    const start = sf.getLineAndCharacterOfPosition(r.textSpan.start);
    const end = sf.getLineAndCharacterOfPosition(r.textSpan.start + r.textSpan.length);
    return {
      file: r.fileName,
      line: start.line + 1,
      column: utf16ToColumn(lineText(sf, start.line), start.character),
      endLine: end.line + 1,
      endColumn: utf16ToColumn(lineText(sf, end.line), end.character),
      snippet: snippetOf(lineText(sf, start.line)),
    };
  });
}

interface Chain {
  conn: acp.ClientConnection;
  sessionId: string;
  close(): void;
}

/** The agents' replies (their timings), as they stream in. */
const chunks: { sessionId: string; text: string }[] = [];

async function startChain(answer: (p: IdePosition) => IdeLocation[]): Promise<Chain> {
  const child = spawn(process.execPath, [CONDUCTOR, '--log', 'warn', '--components', 'ide-operations', '--', process.execPath, AGENT], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const conn = acp
    .client()
    .onNotification('session/update', ({ params }) => {
      if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text')
        chunks.push({ sessionId: params.sessionId, text: params.update.content.text });
    })
    .onRequest(
      ideMethod('references'),
      (raw: unknown) => raw as { position: IdePosition },
      ({ params }) => {
        const items = answer(params.position);
        return { items, total: items.length };
      },
    )
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  await conn.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { _meta: { symposium: { ide: { operations: ['references'] } } } },
  });
  const { sessionId } = await conn.agent.request('session/new', { cwd: PROJECT, mcpServers: [] });
  return {
    conn,
    sessionId,
    close: () => {
      child.stdin.end();
      child.kill();
    },
  };
}

function direct(count: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    references(TARGET);
    times.push(performance.now() - t0);
  }
  return times;
}

async function main(): Promise<void> {
  const expected = references(TARGET);
  if (expected.length !== 8) throw new Error(`expected 8 references to Parser, got ${expected.length}`);
  const chains = { live: await startChain(references), canned: await startChain(() => expected) };
  const samples: Record<'direct' | 'chain' | 'canned', number[]> = { direct: [], chain: [], canned: [] };
  // Warm-up: JIT, the language service's program, the MCP connection.
  direct(50);
  await timed(chains.live, 50);
  await timed(chains.canned, 50);
  for (let round = 0; round < ROUNDS; round++) {
    samples.direct.push(...direct(CALLS));
    samples.chain.push(...(await timed(chains.live, CALLS)));
    samples.canned.push(...(await timed(chains.canned, CALLS)));
  }
  chains.live.close();
  chains.canned.close();
  const row = (name: string, xs: number[]) => ({ name, p50: quantile(xs, 0.5), p90: quantile(xs, 0.9), p99: quantile(xs, 0.99) });
  const rows = [
    row('direct (language service)', samples.direct),
    row('through the chain', samples.chain),
    row('chain, precomputed answer', samples.canned),
  ];
  const base = rows[0]!.p50;
  console.log(
    `\nIDE operations benchmark: findReferences("Parser") → 8 locations (${ROUNDS} rounds × ${CALLS} calls; node ${process.version})`,
  );
  console.log('path                        | p50 ms | p90 ms | p99 ms | ratio p50 | added p50 ms');
  for (const r of rows)
    console.log(
      `${r.name.padEnd(27)} | ${r.p50.toFixed(3).padStart(6)} | ${r.p90.toFixed(3).padStart(6)} | ${r.p99.toFixed(3).padStart(6)} | ${(r.p50 / base).toFixed(2).padStart(9)} | ${(r.p50 - base).toFixed(3).padStart(12)}`,
    );
  writeFileSync(resolve(__dirname, 'ide-results.json'), JSON.stringify({ when: new Date().toISOString(), rows }, null, 2));
  runHostBench();
}

/** One prompt = `count` timed calls; the agent's reply carries the times. */
async function timed(chain: Chain, count: number): Promise<number[]> {
  const order = JSON.stringify({ tool: 'find_references', args: TARGET, count });
  const before = chunks.length;
  await chain.conn.agent.request('session/prompt', { sessionId: chain.sessionId, prompt: [{ type: 'text', text: order }] });
  await new Promise((r) => setImmediate(r));
  const text = chunks
    .slice(before)
    .filter((c) => c.sessionId === chain.sessionId)
    .map((c) => c.text)
    .join('');
  return (JSON.parse(text) as { times: number[] }).times;
}

/** VS Code's own command vs the chain in a real extension host (src/test/bench/), if installed. */
function runHostBench(): void {
  if (process.env.BENCH_HOST === '0') return;
  if (!existsSync(join(ROOT, '.vscode-test-host'))) {
    console.log('\n(host bench skipped: no VS Code host; run scripts/vscode-host-install.sh, then npm run bench:ide-host)');
    return;
  }
  const r = spawnSync(
    'bash',
    [join(ROOT, 'scripts/vscode-host-run.sh'), join(ROOT, 'scripts/run-ext-tests.mjs'), '--suite', 'bench', '--name', 'ide-bench'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const file = join(ROOT, 'test-results/ide-bench-host.json');
  if (r.status !== 0 || !existsSync(file)) {
    console.log(`\n(host bench failed: exit ${r.status}; see test-results/ide-bench.json)`);
    return;
  }
  const host = JSON.parse(readFileSync(file, 'utf8')) as { table: string[] };
  console.log(`\n${host.table.join('\n')}`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
