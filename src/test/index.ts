// Entry point the VS Code test runner loads into the extension host (extensionTestsPath). Runs the
// suites of src/test/<SYMPOSIUM_TEST_SUITE>, built to out/test/ (default `suite`: the single-folder suites;
// `multiroot`: the suite that needs the multi-root workspace) with mocha TDD and, when TEST_RESULTS is
// set (code-server runner), writes {passes, failures} there. @vscode/test-cli does not use this file:
// .vscode-test.mjs gives it the same folders and mocha options.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import type { LogEvent } from '../log/logEvent';
import { writeTestTimes } from '../node/testTimes';

/**
 * The built files of the suites in src/test/<suite>/ (out/test/<suite>/x.test.js), in name order, the
 * same list .vscode-test.mjs gives @vscode/test-cli. Taken from the sources so that a stale bundle of
 * a renamed or deleted suite, which esbuild leaves in out/, is not run.
 */
function testFiles(suite: string): string[] {
  const sources = fs.readdirSync(path.join(__dirname, '..', '..', 'src', 'test', suite), { recursive: true }) as string[];
  return sources
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(__dirname, suite, f.replace(/\.ts$/, '.js')));
}

export function run(): Promise<void> {
  const grep = process.env.SYMPOSIUM_TEST_GREP;
  const mocha = new Mocha({ ui: 'tdd', timeout: 30_000, color: false, ...(grep ? { grep } : {}) });
  const suite = process.env.SYMPOSIUM_TEST_SUITE || 'suite';
  if (!/^[\w-]+$/.test(suite)) return Promise.reject(new Error(`SYMPOSIUM_TEST_SUITE must name a folder of src/test, not ${suite}`));
  for (const f of testFiles(suite)) mocha.addFile(f);
  const results: { passes: string[]; failures: { title: string; err: string }[] } = { passes: [], failures: [] };
  // Each file's time, hooks included (TEST_RESULTS' name with -files.txt), slowest first, as the node tiers report theirs.
  const fileTimes = new Map<string, number>();
  const started = new Map<Mocha.Suite, number>();
  // And the slowest tests (-tests.txt): where the stage's time goes.
  const testTimes: [string, number][] = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      if (process.env.TEST_RESULTS) {
        fs.writeFileSync(process.env.TEST_RESULTS, JSON.stringify(results, null, 2));
        writeTestTimes(process.env.TEST_RESULTS, fileTimes, testTimes);
      }
      if (failures > 0) reject(new Error(`${failures} tests failed.`));
      else resolve();
    });
    runner.on('suite', (s) => void (s.parent?.root && started.set(s, Date.now())));
    runner.on('suite end', (s) => {
      const t0 = started.get(s);
      if (t0 === undefined) return;
      const file = path.basename(s.file ?? s.title).replace(/\.js$/, '.ts');
      fileTimes.set(file, (fileTimes.get(file) ?? 0) + Date.now() - t0);
    });
    runner.on('test end', (t) => testTimes.push([t.fullTitle(), t.duration ?? 0]));
    runner.on('pass', (t) => results.passes.push(t.fullTitle()));
    runner.on('fail', (t, err: unknown) => {
      const e = err instanceof Error ? (err.stack ?? err.message) : String(err);
      results.failures.push({ title: t.fullTitle(), err: e });
      // The extension's own warnings and errors (webview ones included) explain most failures.
      void Promise.resolve(vscode.commands.executeCommand<LogEvent[]>('symposium.test.getLogEvents')).then(
        (events) => {
          for (const ev of (events ?? []).filter((x) => x.level === 'warn' || x.level === 'error').slice(-15)) {
            console.log(`    [${ev.level}] ${ev.category}: ${ev.message} ${JSON.stringify(ev.data ?? '').slice(0, 400)}`);
          }
        },
        () => undefined,
      );
    });
  });
}
