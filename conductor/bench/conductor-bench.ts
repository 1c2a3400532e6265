// npm run bench: the conductor's cost, measured against a direct client → ElizACP connection in
// the same run. Reports streamed chunks per second and prompt round-trip latency (median, p99)
// for: direct, conductor with no components, conductor with three pass-through components.
// Configurations are interleaved round by round so machine noise hits them alike; the figures
// that matter are the ratios to the direct baseline.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const CONDUCTOR = resolve(__dirname, '../conductor.js');
const ELIZA = [CONDUCTOR, 'eliza', '--deterministic'];
const CONFIGS: { name: string; argv: string[] }[] = [
  { name: 'direct', argv: ELIZA },
  { name: 'conductor, 0 components', argv: [CONDUCTOR, '--log', 'warn', '--components', '', '--', process.execPath, ...ELIZA] },
  {
    name: 'conductor, 3 pass-through',
    argv: [CONDUCTOR, '--log', 'warn', '--components', 'passthrough,passthrough,passthrough', '--', process.execPath, ...ELIZA],
  },
];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20000);
const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 150);

interface Sample {
  chunksPerSecond: number;
  latenciesMs: number[];
}

async function measure(argv: string[]): Promise<Sample> {
  const child = spawn(process.execPath, argv, { stdio: ['pipe', 'pipe', 'inherit'] });
  let chunks = 0;
  const conn = acp
    .client()
    .onNotification('session/update', () => void chunks++)
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  try {
    await conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await conn.agent.request('session/new', { cwd: mkdtempSync(join(tmpdir(), 'bench-')), mcpServers: [] });
    // Warm up the JIT on both sides.
    for (let i = 0; i < 20; i++) await conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    chunks = 0;
    const t0 = performance.now();
    await conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: `stream ${CHUNKS} chunks` }] });
    const seconds = (performance.now() - t0) / 1000;
    const streamed = chunks;
    const latenciesMs: number[] = [];
    for (let i = 0; i < PROMPTS; i++) {
      const s = performance.now();
      await conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'stream 1 chunks' }] });
      latenciesMs.push(performance.now() - s);
    }
    return { chunksPerSecond: streamed / seconds, latenciesMs };
  } finally {
    child.stdin.end();
    child.kill();
  }
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const median = (xs: number[]): number => quantile(xs, 0.5);

async function main(): Promise<void> {
  const samples = new Map<string, Sample[]>(CONFIGS.map((c) => [c.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const config of CONFIGS) samples.get(config.name)!.push(await measure(config.argv));
  }
  const rows = CONFIGS.map((c) => {
    const s = samples.get(c.name)!;
    const lat = s.flatMap((x) => x.latenciesMs);
    return { name: c.name, chunksPerSecond: median(s.map((x) => x.chunksPerSecond)), p50: median(lat), p99: quantile(lat, 0.99) };
  });
  const base = rows[0]!;
  console.log(`Conductor benchmark (${ROUNDS} rounds, ${CHUNKS} chunks, ${PROMPTS} prompts per round; node ${process.version})`);
  console.log('configuration               | chunks/s | ratio | p50 ms | added p50 | p99 ms | added p99');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(27)} | ${r.chunksPerSecond.toFixed(0).padStart(8)} | ${(r.chunksPerSecond / base.chunksPerSecond).toFixed(2).padStart(5)} | ${r.p50.toFixed(3).padStart(6)} | ${(r.p50 - base.p50).toFixed(3).padStart(9)} | ${r.p99.toFixed(3).padStart(6)} | ${(r.p99 - base.p99).toFixed(3).padStart(9)}`,
    );
  }
  mkdirSync(resolve(__dirname), { recursive: true });
  writeFileSync(resolve(__dirname, 'results.json'), JSON.stringify({ when: new Date().toISOString(), rows }, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
