// npm run bench: the conductor's cost, measured the way a skeptic would. Several agents (ElizACP;
// a raw writer that streams as fast as the pipe takes, where per-message cost shows), several
// paths between the client and the agent, all interleaved round by round in one run so machine
// noise hits them alike, medians of the rounds, ratios to the direct connection:
// - direct: client → agent;
// - byte relay: one process that moves bytes (the physical floor of one hop);
// - thinkwell: @thinkwell/conductor 0.5.7, the TypeScript conductor a user would pick instead;
// - symposium: our conductor with no components, and with three pass-through components.
// Goals are checked and printed; results go to out/bench/results.json.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { measure, type Sample } from './measureHop';
import { printGoal } from './goal';
import { median, signed } from './stats';

const OUT = resolve(__dirname, '..');
// The bundle the .vsix ships (minified: `npm run bench` builds it into out/shipped) when it is
// there, else the development build next to this file.
const SHIPPED = resolve(OUT, 'shipped', 'conductor.js');
const CONDUCTOR = existsSync(SHIPPED) ? SHIPPED : resolve(OUT, 'conductor.js');
const AGENTS: Record<string, string[]> = {
  ElizACP: [CONDUCTOR, 'eliza', '--deterministic'],
  'raw writer': [resolve(__dirname, 'rawAgent.js')],
};
const node = process.execPath;
// Our conductor runs as the extension spawns it (src/agents/agentConfiguration.ts, bundleEnv):
// with a compile cache for its bundle (NODE_COMPILE_CACHE, used by Node 22.1 and later) and a
// malloc trim threshold (MALLOC_TRIM_THRESHOLD_); the conductor keeps both from the agent.
const COMPILE_CACHE = mkdtempSync(join(tmpdir(), 'symposium-bench-compile-cache-'));
const OURS_ENV = { NODE_COMPILE_CACHE: COMPILE_CACHE, MALLOC_TRIM_THRESHOLD_: String(128 * 1024) };
const PATHS: { name: string; hop: (agent: string[]) => string[] | undefined; traceFd?: boolean }[] = [
  { name: 'direct', hop: () => undefined },
  { name: 'byte relay', hop: (a) => [resolve(__dirname, 'byteRelay.js'), node, ...a] },
  { name: 'thinkwell 0.5.7', hop: (a) => [resolve(__dirname, 'thinkwellRunner.js'), node, ...a] },
  { name: 'symposium, 0 components', hop: (a) => [CONDUCTOR, '--log', 'warn', '--components', '', '--', node, ...a] },
  // As the extension runs it: every default component (their MCP servers are injected into the
  // bench's session; neither agent uses them).
  { name: 'symposium, default chain', hop: (a) => [CONDUCTOR, '--log', 'warn', '--', node, ...a] },
  // The extension also traces every message at every hop, to a pipe it reads (fd 3, for its
  // traffic viewer): so does this path, the bench reading the lines as the extension does.
  { name: 'symposium, default chain, traced', hop: (a) => [CONDUCTOR, '--log', 'warn', '--', node, ...a], traceFd: true },
  {
    name: 'symposium, 3 pass-through',
    hop: (a) => [CONDUCTOR, '--log', 'warn', '--components', 'passthrough,passthrough,passthrough', '--', node, ...a],
  },
];
// BENCH_BASELINE=<another build's conductor.js>: its default chain (traced and not) in the same
// run, for an A/B of a change (the agents stay this build's).
const BASELINE = process.env.BENCH_BASELINE;
if (BASELINE) {
  PATHS.push(
    { name: 'baseline, default chain', hop: (a) => [BASELINE, '--log', 'warn', '--', node, ...a] },
    { name: 'baseline, default chain, traced', hop: (a) => [BASELINE, '--log', 'warn', '--', node, ...a], traceFd: true },
  );
}
// BENCH_AGENTS / BENCH_PATHS: regular expressions that keep only some of them (quick iterations).
const pick = <T extends string>(names: T[], env: string | undefined): T[] =>
  env ? names.filter((n) => new RegExp(env, 'i').test(n)) : names;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** The path the goals are for, and the peer it is compared with. */
const OURS = 'symposium, default chain, traced';
const PEER = 'thinkwell 0.5.7';
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20000);
const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 150);
/** Where results.json and results.md go (BENCH_RESULTS_DIR: elsewhere, e.g. a test's own run). */
const RESULTS = process.env.BENCH_RESULTS_DIR ?? __dirname;

interface Row {
  agent: string;
  path: string;
  chunksPerSecond: number;
  throughputRatio: number;
  p50: number;
  addedP50: number;
  coldStartMs: number;
  addedColdStartMs: number;
  rssMb: number | undefined;
}

async function main(): Promise<void> {
  const key = (agent: string, path: string): string => `${agent}|${path}`;
  const samples = new Map<string, Sample[]>();
  const agents = pick(Object.keys(AGENTS), process.env.BENCH_AGENTS);
  const paths = PATHS.filter((p, i) => i === 0 || pick([p.name], process.env.BENCH_PATHS).length > 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const agent of agents)
      for (const p of paths) {
        const argv = AGENTS[agent]!;
        const hop = p.hop(argv);
        const env = p.name.startsWith('symposium') || p.name.startsWith('baseline') ? OURS_ENV : undefined;
        const s = await measure(hop ?? argv, {
          chunks: CHUNKS,
          prompts: PROMPTS,
          isHop: hop !== undefined,
          ...(env ? { env } : {}),
          ...(p.traceFd ? { traceFd: true } : {}),
        });
        const k = key(agent, p.name);
        samples.set(k, [...(samples.get(k) ?? []), s]);
      }
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  const rows: Row[] = [];
  for (const agent of agents) {
    const summary = paths.map((p) => {
      const s = samples.get(key(agent, p.name)) ?? [];
      const rss = s.map((x) => x.rssMb).filter((x): x is number => x !== undefined);
      return {
        path: p.name,
        chunksPerSecond: median(s.map((x) => x.chunksPerSecond)),
        // The median of the per-round medians: one slow round does not move it.
        p50: median(s.map((x) => median(x.latenciesMs))),
        coldStartMs: median(s.map((x) => x.coldStartMs)),
        rssMb: rss.length ? median(rss) : undefined,
      };
    });
    const base = summary[0]!;
    for (const r of summary)
      rows.push({
        agent,
        ...r,
        throughputRatio: r.chunksPerSecond / base.chunksPerSecond,
        addedP50: r.p50 - base.p50,
        addedColdStartMs: r.coldStartMs - base.coldStartMs,
      });
  }
  const f = (x: number | undefined, d: number): string => (x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));
  const lines = [
    `Conductor benchmark: ${ROUNDS} rounds interleaved, ${CHUNKS} chunks, ${PROMPTS} prompts per round; node ${process.version}; medians of rounds; ${CONDUCTOR === SHIPPED ? 'the shipped (minified) conductor' : 'the development build'}`,
    '',
    '| agent | path | chunks/s | ratio | p50 ms | added p50 ms | cold start ms | added cold ms | hop RSS MB |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.agent} | ${r.path} | ${f(r.chunksPerSecond, 0)} | ${f(r.throughputRatio, 2)} | ${f(r.p50, 3)} | ${f(r.addedP50, 3)} | ${f(r.coldStartMs, 0)} | ${f(r.addedColdStartMs, 0)} | ${f(r.rssMb, 1)} |`,
    ),
    '',
    ...goalLines(rows),
  ];
  console.log(lines.join('\n'));
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(resolve(RESULTS, 'results.json'), JSON.stringify({ when: new Date().toISOString(), rounds: ROUNDS, rows }, null, 2));
  writeFileSync(resolve(RESULTS, 'results.md'), `${lines.join('\n')}\n`);
}

/**
 * The goals, for the conductor as the extension runs it (the default chain, traced to the traffic
 * viewer), against the floor of one hop measured in the same run (the byte relay: a process that
 * only moves bytes) and against @thinkwell/conductor: met or not, with the figures.
 */
function goalLines(rows: Row[]): string[] {
  const row = (agent: string, path: string): Row | undefined => rows.find((r) => r.agent === agent && r.path === path);
  const ms = (x: number): string => `${x.toFixed(3)} ms`;
  type Goal = { name: string; check: (ours: Row, relay: Row, peer: Row) => [boolean, string] };
  const goals: Goal[] = [
    {
      name: 'throughput ≥ 0.90× the relay’s',
      check: (o, r) => [o.chunksPerSecond >= 0.9 * r.chunksPerSecond, `${(o.chunksPerSecond / r.chunksPerSecond).toFixed(2)}× the relay`],
    },
    {
      name: 'added p50 ≤ the relay’s + 0.05 ms',
      check: (o, r) => [o.addedP50 <= r.addedP50 + 0.05, `${ms(o.addedP50)} (relay ${ms(r.addedP50)})`],
    },
    {
      name: 'cold start ≤ the relay’s + 30 ms',
      check: (o, r) => [
        o.addedColdStartMs <= r.addedColdStartMs + 30,
        `${signed(o.addedColdStartMs)} ms (relay ${signed(r.addedColdStartMs)})`,
      ],
    },
    { name: 'idle RSS ≤ 60 MB', check: (o) => [(o.rssMb ?? Infinity) <= 60, `${o.rssMb?.toFixed(1) ?? '—'} MB`] },
    {
      name: 'ahead of thinkwell: throughput',
      check: (o, _r, t) => [
        o.chunksPerSecond > t.chunksPerSecond,
        `${o.chunksPerSecond.toFixed(0)} vs ${t.chunksPerSecond.toFixed(0)} chunks/s`,
      ],
    },
    { name: 'ahead of thinkwell: round trip', check: (o, _r, t) => [o.p50 < t.p50, `${ms(o.p50)} vs ${ms(t.p50)}`] },
    {
      name: 'ahead of thinkwell: cold start',
      check: (o, _r, t) => [o.coldStartMs < t.coldStartMs, `${o.coldStartMs.toFixed(0)} vs ${t.coldStartMs.toFixed(0)} ms`],
    },
    {
      name: 'ahead of thinkwell: idle RSS',
      check: (o, _r, t) => [
        (o.rssMb ?? Infinity) < (t.rssMb ?? Infinity),
        `${o.rssMb?.toFixed(1) ?? '—'} vs ${t.rssMb?.toFixed(1) ?? '—'} MB`,
      ],
    },
  ];
  const agents = [...new Set(rows.map((r) => r.agent))].filter((a) => row(a, OURS) && row(a, 'byte relay') && row(a, PEER));
  if (agents.length === 0) return [`(goals need the paths "${OURS}", "byte relay" and "${PEER}" in the run)`];
  return [
    `Goals for "${OURS}" (the conductor as the extension runs it), against the byte relay and ${PEER} of the same run:`,
    '',
    `| goal | ${agents.join(' | ')} |`,
    `|---|${agents.map(() => '---').join('|')}|`,
    ...goals.map((g) => {
      const cells = agents.map((a) => {
        const [met, shown] = g.check(row(a, OURS)!, row(a, 'byte relay')!, row(a, PEER)!);
        printGoal({ area: 'Conductor', goal: `${g.name} (${a})`, figure: shown, met });
        return `${shown}: ${met ? 'met' : '**not met**'}`;
      });
      return `| ${g.name} | ${cells.join(' | ')} |`;
    }),
  ];
}

main()
  .finally(() => {
    rmSync(COMPILE_CACHE, { recursive: true, force: true });
  })
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
