// The last step of `npm run bench`: writes docs/benchmark-figures.md from the run's outputs, the
// file docs/benchmarks.md links as its current figures. `node scripts/bench-figures.mjs <dir> <out>`:
// <dir> holds one <NN>-<bench>.txt per bench (its standard output, in run order) and run.json (when
// the run started and on which Node). Every `bench-goal {json}` line a bench printed
// (conductor/bench/goal.ts, scripts/benchGoal.mjs) becomes a row of the one goals table; the rest of
// each output follows verbatim, so the file holds every figure of the run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [dir, out] = process.argv.slice(2);
if (!dir || !out) throw new Error('usage: node scripts/bench-figures.mjs <outputs dir> <figures file>');
/** @type {{ started: string; node: string }} */
const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'));

/** @typedef {{ area: string; goal: string; figure: string; met: boolean | null }} Goal */
/** @type {Goal[]} */
const goals = [];
/** @type {{ name: string; text: string }[]} */
const sections = [];
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort()) {
  const kept = [];
  for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
    const goal = /^bench-goal (\{.*\})$/.exec(line);
    if (goal?.[1]) goals.push(JSON.parse(goal[1]));
    else kept.push(line);
  }
  sections.push({ name: file.replace(/^\d+-/, '').replace(/\.txt$/, ''), text: kept.join('\n').trim() });
}

const cell = (/** @type {string} */ s) => s.replace(/\|/g, '\\|');
const git = (/** @type {string[]} */ args) => {
  try {
    return execFileSync('git', args, { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
};
const cpu = os.cpus()[0]?.model ?? '?';
const met = goals.filter((g) => g.met === true).length;
const notMet = goals.filter((g) => g.met === false).length;
const goalTable = [
  `## Goals: ${met} met, ${notMet} not met${goals.some((g) => g.met === null) ? ', the rest reported' : ''}`,
  '',
  '| area | goal | this run | |',
  '|---|---|---|---|',
  ...goals.map(
    (g) => `| ${cell(g.area)} | ${cell(g.goal)} | ${cell(g.figure)} | ${g.met === null ? 'reported' : g.met ? 'met' : '**not met**'} |`,
  ),
];
const lines = [
  '# Benchmark figures',
  '',
  'Written by `npm run bench` (scripts/bench-figures.mjs) at the end of its last full run; what each',
  'bench does and what its rows mean: [benchmarks.md](benchmarks.md).',
  '',
  `- Run: ${run.started} – ${new Date().toISOString()}, commit ${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--untracked-files=no']) ? ' (with local changes)' : ''}`,
  `- Node: ${run.node} (the Node that runs the conductor in the product here)`,
  `- Machine: ${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')} at the end`,
  '',
  ...goalTable,
  '',
  "## Each bench's output",
  '',
  ...sections.flatMap((s) => [`### ${s.name}`, '', '```text', s.text || '(no output)', '```', '']),
];
fs.writeFileSync(out, `${lines.join('\n').trimEnd()}\n`);
console.log(`\n${goalTable.join('\n')}`);
console.log(`bench: ${met} goals met, ${notMet} not met; figures written to ${path.relative(process.cwd(), out)}`);
