// Mocha reporter: the usual spec output on the console, plus test-results/<stage>.json
// ({passes, failures}) for scripts/summarize-results.mjs, and test-results/<stage>-files.txt: the
// seconds each spec file's tests took, slowest first (where a tier's time goes), and <stage>-tests.txt: the
// 40 slowest tests. Stage name from $TEST_STAGE.
const Mocha = require('mocha');
const fs = require('node:fs');
const path = require('node:path');
// TypeScript, loaded through tsx (every tier runs mocha with --import tsx).
const { writeTestTimes } = require('../src/node/testTimes.ts');

class SpecAndJson extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const passes = [];
    const failures = [];
    runner.on('pass', (t) => passes.push(t.fullTitle()));
    runner.on('fail', (t, err) => failures.push({ title: t.fullTitle(), err: String((err && err.message) || err) }));
    // A file's time: the sum of its tests' durations (what a parallel run reports too).
    const fileTimes = new Map();
    // And the slowest tests (<stage>-tests.txt).
    const testTimes = [];
    const timed = (t) => {
      if (t.file && typeof t.duration === 'number') fileTimes.set(t.file, (fileTimes.get(t.file) || 0) + t.duration);
      if (typeof t.duration === 'number') testTimes.push([t.fullTitle(), t.duration]);
    };
    runner.on('pass', timed);
    runner.on('fail', timed);
    runner.once('end', () => {
      const dir = path.resolve(__dirname, '../test-results');
      fs.mkdirSync(dir, { recursive: true });
      const stage = process.env.TEST_STAGE || 'unit';
      const resultsFile = path.join(dir, `${stage}.json`);
      fs.writeFileSync(resultsFile, JSON.stringify({ passes, failures }, null, 2));
      const files = new Map([...fileTimes].map(([f, ms]) => [path.relative(process.cwd(), f), ms]));
      writeTestTimes(resultsFile, files, testTimes);
    });
  }
}
module.exports = SpecAndJson;
