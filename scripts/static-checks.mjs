// The `checks` stage of `npm test`: what must hold of the code itself, before any test runs it.
//   - ESLint: the layer zones (eslint.config.mjs) and typescript-eslint's recommended rules;
//   - Prettier: the one formatter (.prettierrc.json) agrees with every file;
//   - bundles: the shipped bundles, minified, within their budget, ASCII, and all in the .vsix
//     (scripts/bundle-budget.mjs);
//   - test names: `*.spec.ts` is a plain-Node test, `src/test/<suite>/*.test.ts` a host suite; a
//     `*.test.ts` anywhere else would be run by nobody, so it is refused here; likewise a spec's
//     "with real agents" block in a file the real agents' stage does not list.
// Each check is one entry in test-results/checks.json, so the closing summary counts it.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const passes = [];
const failures = [];

/**
 * One check's command, its output kept. The checks run at once (each is mostly one core's work) and
 * are reported in the order given.
 * @param {string} title @param {string} command @param {string[]} args
 * @returns {Promise<{ title: string, status: number | null, out: string[] }>}
 */
function run(title, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('error', (e) => resolve({ title, status: null, out: [String(e)] }));
    child.on('close', (status) => resolve({ title, status, out: text.split('\n').filter((l) => l.trim() && !/npm warn/i.test(l)) }));
  });
}

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (p.endsWith('.ts')) yield relative(root, p);
  }
}

const results = await Promise.all([
  run('eslint: layer zones and recommended rules', 'npx', ['eslint', '.']),
  run('prettier: every file formatted', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']),
  run('tsc: the drivers in scripts/*.mjs type-check from their JSDoc (tsconfig.scripts.json)', 'npx', [
    'tsc',
    '-p',
    'tsconfig.scripts.json',
  ]),
  run(
    'bundle sizes within budget (extension 300 KB, lm 100 KB, conductor 1.5 MiB, webview 2.6 MiB; minified), ASCII, all in the .vsix',
    'node',
    ['scripts/bundle-budget.mjs'],
  ),
]);
for (const { title, status, out } of results) {
  if (status === 0) passes.push(title);
  else failures.push({ title, err: out.slice(0, 40).join('\n') || `exit ${String(status)}` });
  console.log(`${status === 0 ? 'ok  ' : 'FAIL'} ${title}`);
  if (status !== 0) console.log(out.slice(0, 80).join('\n'));
}

const misnamed = ['conductor', 'src', 'webview']
  .flatMap((d) => [...tsFiles(join(root, d))])
  .filter((f) => f.endsWith('.test.ts') && !/^src\/test\/[\w-]+\/[^/]+\.test\.ts$/.test(f));
if (misnamed.length === 0)
  passes.push('test names: *.spec.ts (unit tier), *.process.spec.ts (process tier) and src/test/<suite>/*.test.ts (host) only');
else
  failures.push({
    title: 'test names',
    err: `these *.test.ts files are not host suites and would not run (name plain-Node tests *.spec.ts, or *.process.spec.ts when they start processes): ${misnamed.join(', ')}`,
  });

// A spec's "with real agents" block is left out of the process tier (its grep) and runs only in the
// real agents' stage, which takes such blocks from the files .mocharc.agents-inline.json lists; a
// file missing there would have its block run by nobody.
const inline = new Set(JSON.parse(readFileSync(join(root, '.mocharc.agents-inline.json'), 'utf8')).spec);
const unrun = ['conductor', 'src', 'webview']
  .flatMap((d) => [...tsFiles(join(root, d))])
  .filter(
    (f) =>
      f.endsWith('.process.spec.ts') &&
      !/(^conductor\/test\/realAgents\/|\/realAgent[^/]*\.process\.spec\.ts$)/.test(f) &&
      readFileSync(join(root, f), 'utf8').includes('describe(WITH_REAL_AGENTS') &&
      !inline.has(f),
  );
if (unrun.length === 0)
  passes.push('every "with real agents" block is in a file the real agents\' stage runs (.mocharc.agents-inline.json)');
else
  failures.push({
    title: 'with real agents blocks',
    err: `these files have a "with real agents" block that no stage runs: add them to .mocharc.agents-inline.json: ${unrun.join(', ')}`,
  });
console.log(
  `${unrun.length === 0 ? 'ok  ' : 'FAIL'} every "with real agents" block runs in the real agents' stage${unrun.length ? `: missing ${unrun.join(', ')}` : ''}`,
);

mkdirSync(join(root, 'test-results'), { recursive: true });
writeFileSync(join(root, 'test-results', 'checks.json'), JSON.stringify({ passes, failures }, null, 2));
process.exit(failures.length ? 1 : 0);
