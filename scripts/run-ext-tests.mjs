// Runs extension-host suites (out/test/index.js → out/test/<suite>/**/*.test.js) inside a real VS Code
// extension host served by code-server. Invoke through scripts/vscode-host-run.sh. Writes
// test-results/<name>.json ({passes, failures}) and, on failure, test-results/<name>-failure.png;
// screenshots a test asks for (helpers.ts `screenshot`) land in test-results/<name>-<shot>.png.
// Exit code 0 when every test passed.
//
//   run-ext-tests.mjs                      the single-folder suites (out/test/suite/) on test-fixtures/workspace/ → host.json
//   run-ext-tests.mjs --suite multiroot --workspace test-fixtures/workspace-multi/symposium-multi.code-workspace --name host-multiroot
//                                          only out/test/multiroot/, on that multi-root workspace
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openWorkbench, writeResults, RESULTS_DIR, ROOT, sleep, requiredEnv, newResults } from './browser.mjs';

const { values: opts } = parseArgs({
  options: { suite: { type: 'string', default: 'suite' }, workspace: { type: 'string' }, name: { type: 'string', default: 'host' } },
});
// The whole run's limit (24 suites take about 5 minutes here); each test has its own mocha timeout.
const TIMEOUT_MS = Number(process.env.HOST_TESTS_TIMEOUT_MS ?? 900_000);
const runDir = requiredEnv('VSCODE_HOST_RUN_DIR');
const resultsFile = path.join(runDir, `${opts.name}-results.json`);
const { ctx, page, exited } = await openWorkbench({
  // A smaller window than the chat's browser tests use: the stage is bound by chromium drawing the
  // workbench (most of its CPU), and a fifth of that goes with the pixels (measured: 127 → 98 s of
  // chromium CPU, 111 → 92 s, for the history and IDE suites). Their screenshots are this size.
  viewport: { width: 1000, height: 650 },
  testsPath: path.join(ROOT, 'out/test/index.js'),
  workspace: opts.workspace,
  env: { TEST_RESULTS: resultsFile, SYMPOSIUM_TEST_SUITE: opts.suite, SYMPOSIUM_TEST_GREP: process.env.SYMPOSIUM_TEST_GREP ?? '' },
});
const started = Date.now();
// A host test can ask for a screenshot of the workbench at a moment it chooses (a live progress
// line, say): it writes <run>/screenshot-requests/<name>.req and waits for <name>.done. It can also
// wait for the workbench to show something it cannot observe itself (a quick pick drawn): it writes
// <name>.shown holding a CSS selector, and <name>.done appears once that is visible (or
// <name>.failed after 15 s); <name>.click also clicks it, as a user would.
const shotsDir = path.join(runDir, 'screenshot-requests');
fs.mkdirSync(shotsDir, { recursive: true });
const shotPoll = setInterval(() => {
  for (const f of fs.readdirSync(shotsDir).filter((x) => x.endsWith('.shown') || x.endsWith('.click'))) {
    const click = f.endsWith('.click');
    const name = f.replace(/\.(shown|click)$/, '').replace(/[^\w-]/g, '');
    const target = page.locator(fs.readFileSync(path.join(shotsDir, f), 'utf8')).first();
    fs.renameSync(path.join(shotsDir, f), path.join(shotsDir, `${name}.waiting`));
    void target
      .waitFor({ state: 'visible', timeout: 15_000 })
      .then(() => (click ? target.click() : undefined))
      .then(
        () => fs.writeFileSync(path.join(shotsDir, `${name}.done`), ''),
        (e) => fs.writeFileSync(path.join(shotsDir, `${name}.failed`), String(e)),
      );
  }
  for (const f of fs.readdirSync(shotsDir).filter((x) => x.endsWith('.req'))) {
    const name = f.slice(0, -'.req'.length).replace(/[^\w-]/g, '');
    fs.renameSync(path.join(shotsDir, f), path.join(shotsDir, `${name}.taking`));
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    void page
      .screenshot({ path: path.join(RESULTS_DIR, `${opts.name}-${name}.png`) })
      .catch((e) => console.error(`screenshot ${name}: ${String(e)}`))
      .finally(() => fs.writeFileSync(path.join(shotsDir, `${name}.done`), ''));
  }
}, 100);
const code = await Promise.race([exited, sleep(TIMEOUT_MS).then(() => 'timeout')]);
clearInterval(shotPoll);
let results = newResults();
if (fs.existsSync(resultsFile)) results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
if (code === 'timeout') results.failures.push({ title: `${opts.name} test run`, err: `no result after ${TIMEOUT_MS} ms` });
else if (code !== 0 && results.failures.length === 0) results.failures.push({ title: `${opts.name} test run`, err: `exit code ${code}` });
// A suite that ran nothing proves nothing (a wrong --suite, or a build without its files).
else if (results.passes.length === 0 && results.failures.length === 0 && !process.env.SYMPOSIUM_TEST_GREP)
  results.failures.push({ title: `${opts.name} test run`, err: `no tests ran from out/test/${opts.suite}` });
writeResults(opts.name, results);
// Each suite file's time, slowest first (src/test/index.ts writes it next to the results).
for (const times of ['files', 'tests']) {
  const file = resultsFile.replace(/\.json$/, `-${times}.txt`);
  if (fs.existsSync(file)) fs.copyFileSync(file, path.join(RESULTS_DIR, `${opts.name}-${times}.txt`));
}
const ok = code === 0 && results.failures.length === 0;
if (!ok) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS_DIR, `${opts.name}-failure.png`) }).catch(() => {});
}
console.log(
  `${opts.name} tests: ${results.passes.length} passed, ${results.failures.length} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
for (const f of results.failures) console.log(`  FAIL ${f.title}\n    ${f.err.split('\n').join('\n    ')}`);
await ctx.close().catch(() => {});
process.exit(ok ? 0 : 1);
