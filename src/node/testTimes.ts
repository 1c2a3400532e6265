// Where a test stage's time goes, written beside its results file (<name>.json): <name>-files.txt,
// each spec file's seconds, slowest first, and <name>-tests.txt, the 40 slowest tests. Used by the
// node tiers' mocha reporter (scripts/mocha-json-reporter.cjs) and the extension-host runner
// (src/test/index.ts), so every stage reports them alike.
import * as fs from 'node:fs';

const SLOWEST = 40;

const row = ([name, ms]: [string, number]): string => `${(ms / 1000).toFixed(1).padStart(7)}s  ${name}`;
const slowestFirst = (rows: Iterable<[string, number]>): [string, number][] => [...rows].sort((a, b) => b[1] - a[1]);

/** `fileTimes`: ms per file (as it should be shown); `testTimes`: [full title, ms] per test. */
export function writeTestTimes(resultsFile: string, fileTimes: ReadonlyMap<string, number>, testTimes: Iterable<[string, number]>): void {
  const base = resultsFile.replace(/\.json$/, '');
  fs.writeFileSync(`${base}-files.txt`, `${slowestFirst(fileTimes).map(row).join('\n')}\n`);
  fs.writeFileSync(`${base}-tests.txt`, `${slowestFirst(testTimes).slice(0, SLOWEST).map(row).join('\n')}\n`);
}
