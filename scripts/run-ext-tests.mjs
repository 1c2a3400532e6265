// Runs the extension-host suites (out/test/index.js → out/test/**/*.test.js) inside a real VS Code
// extension host served by code-server. Invoke through scripts/vscode-host-run.sh. Writes
// test-results/host.json ({passes, failures}) and, on failure, test-results/host-failure.png.
// Exit code 0 when every test passed.
import fs from 'node:fs';
import path from 'node:path';
import { openWorkbench, writeResults, RESULTS_DIR, ROOT, sleep } from './browser.mjs';

const TIMEOUT_MS = Number(process.env.HOST_TESTS_TIMEOUT_MS ?? 240_000);
const runDir = process.env.VSCODE_HOST_RUN_DIR;
const resultsFile = path.join(runDir, 'host-results.json');
const { ctx, page, exited } = await openWorkbench({
  testsPath: path.join(ROOT, 'out/test/index.js'),
  env: { TEST_RESULTS: resultsFile, SYMPOSIUM_TEST_GREP: process.env.SYMPOSIUM_TEST_GREP ?? '' },
});
const started = Date.now();
const code = await Promise.race([exited, sleep(TIMEOUT_MS).then(() => 'timeout')]);
let results = { passes: [], failures: [] };
if (fs.existsSync(resultsFile)) results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
if (code === 'timeout') results.failures.push({ title: 'host test run', err: `no result after ${TIMEOUT_MS} ms` });
else if (code !== 0 && results.failures.length === 0) results.failures.push({ title: 'host test run', err: `exit code ${code}` });
writeResults('host', results);
const ok = code === 0 && results.failures.length === 0;
if (!ok) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(RESULTS_DIR, 'host-failure.png') }).catch(() => {});
}
console.log(`host tests: ${results.passes.length} passed, ${results.failures.length} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
for (const f of results.failures) console.log(`  FAIL ${f.title}\n    ${f.err.split('\n').join('\n    ')}`);
await ctx.close().catch(() => {});
process.exit(ok ? 0 : 1);
