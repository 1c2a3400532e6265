// The `checks` stage of `npm test`: what must hold of the code itself, before any test runs it.
//   - ESLint: the layer zones (eslint.config.mjs) and typescript-eslint's recommended rules;
//   - Prettier: the one formatter (.prettierrc.json) agrees with every file;
//   - bundles: the shipped bundles, minified, within their budget, ASCII, and all in the .vsix
//     (scripts/bundle-budget.mjs);
//   - test names: `*.spec.ts` is a plain-Node test, `src/test/<suite>/*.test.ts` a host suite; a
//     `*.test.ts` anywhere else would be run by nobody, so it is refused here.
// Each check is one entry in test-results/checks.json, so the closing summary counts it.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const passes = [];
const failures = [];

function run(title, command, args) {
  const r = spawnSync(command, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').filter((l) => l.trim() && !/npm warn/i.test(l));
  if (r.status === 0) passes.push(title);
  else failures.push({ title, err: out.slice(0, 40).join('\n') || `exit ${String(r.status)}` });
  console.log(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${title}`);
  if (r.status !== 0) console.log(out.slice(0, 80).join('\n'));
}

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (p.endsWith('.ts')) yield relative(root, p);
  }
}

run('eslint: layer zones and recommended rules', 'npx', ['eslint', '.']);
run('prettier: every file formatted', 'npx', ['prettier', '--check', '--log-level', 'warn', '.']);
run('tsc: the drivers in scripts/*.mjs type-check from their JSDoc (tsconfig.scripts.json)', 'npx', ['tsc', '-p', 'tsconfig.scripts.json']);
run(
  'bundle sizes within budget (extension 300 KB, lm 100 KB, conductor 1.5 MiB, webview 2.6 MiB; minified), ASCII, all in the .vsix',
  'node',
  ['scripts/bundle-budget.mjs'],
);

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

mkdirSync(join(root, 'test-results'), { recursive: true });
writeFileSync(join(root, 'test-results', 'checks.json'), JSON.stringify({ passes, failures }, null, 2));
process.exit(failures.length ? 1 : 0);
