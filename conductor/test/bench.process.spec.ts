// `npm run bench` prints every goal of the conductor, met or not, with its figures, and its last
// step gathers them into the one table of docs/benchmark-figures.md. This runs the conductor bench
// small (one round, a few prompts: the figures mean nothing here and nothing is asserted of them)
// and checks what it prints, so a change that drops a goal or its figure fails in `npm test`
// rather than in the next full bench. Speed is measured by the bench only, never by a test.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { builtBundle } from './builtBundle';
import { tempDir } from './harness';

const ROOT = resolve(__dirname, '../..');
const GOALS = [
  'throughput ≥ 0.90× the relay’s',
  'added p50 ≤ the relay’s + 0.05 ms',
  'cold start ≤ the relay’s + 30 ms',
  'idle RSS ≤ 60 MB',
  'ahead of thinkwell: throughput',
  'ahead of thinkwell: round trip',
  'ahead of thinkwell: cold start',
  'ahead of thinkwell: idle RSS',
];
const AGENTS = ['ElizACP', 'raw writer'];

interface Goal {
  area: string;
  goal: string;
  figure: string;
  met: boolean | null;
}

describe('npm run bench: the conductor bench prints every goal met or not, with its figures', function () {
  this.timeout(180_000);

  it('one small round: each goal for both agents, then the figures file with one row each', () => {
    const dir = tempDir('symposium-bench-smoke-');
    const run = spawnSync(process.execPath, [builtBundle('bench/conductor-bench.js')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, BENCH_ROUNDS: '1', BENCH_CHUNKS: '200', BENCH_PROMPTS: '5', BENCH_RESULTS_DIR: dir },
      timeout: 150_000,
    });
    assert.equal(run.status, 0, `the bench failed:\n${run.stderr}`);
    const goals: Goal[] = run.stdout
      .split('\n')
      .flatMap((l) => (l.startsWith('bench-goal ') ? [JSON.parse(l.slice('bench-goal '.length)) as Goal] : []));
    const expected = GOALS.flatMap((g) => AGENTS.map((a) => `${g} (${a})`));
    assert.deepEqual(goals.map((g) => g.goal).sort(), [...expected].sort(), run.stdout);
    for (const g of goals) {
      assert.equal(g.area, 'Conductor');
      assert.equal(typeof g.met, 'boolean', `${g.goal}: met or not`);
      assert.match(g.figure, /\d/, `${g.goal}: its figure`);
    }
    // Every path of the table measured: the byte relay and thinkwell are the goals' baselines.
    for (const path of ['direct', 'byte relay', 'thinkwell 0.5.7', 'symposium, default chain, traced'])
      for (const agent of AGENTS) assert.match(run.stdout, new RegExp(`^\\| ${agent} \\| ${path} \\| \\d+ \\|`, 'm'), `${agent}, ${path}`);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { rows: unknown[] };
    assert.equal(results.rows.length, AGENTS.length * 7);

    // The last step of `npm run bench`: the one table.
    const outputs = join(dir, 'outputs');
    mkdirSync(outputs);
    writeFileSync(join(outputs, 'run.json'), JSON.stringify({ started: new Date().toISOString(), node: process.version }));
    writeFileSync(join(outputs, '01-conductor.txt'), run.stdout);
    const figuresFile = join(dir, 'figures.md');
    const figures = spawnSync(process.execPath, ['scripts/bench-figures.mjs', outputs, figuresFile], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(figures.status, 0, figures.stderr);
    const text = readFileSync(figuresFile, 'utf8');
    const met = goals.filter((g) => g.met).length;
    assert.match(text, new RegExp(`^## Goals: ${met} met, ${goals.length - met} not met$`, 'm'));
    assert.match(text, /^- Node: v\d+/m);
    assert.match(text, /^- Machine: \d+ cores/m);
    for (const g of goals) {
      const row = text.split('\n').find((l) => l.startsWith(`| Conductor | ${g.goal} |`));
      assert.ok(row, `a row for ${g.goal}`);
      assert.ok(row.endsWith(g.met ? '| met |' : '| **not met** |'), row);
      assert.ok(row.includes(g.figure), row);
    }
    assert.match(text, /^### conductor$/m);
  });
});
