// Mocha reporter: the usual spec output on the console, plus test-results/<stage>.json
// ({passes, failures}) for scripts/summarize-results.mjs, and test-results/<stage>-files.txt: the
// seconds each spec file took, slowest first (where a tier's time goes). Stage name from $TEST_STAGE.
const Mocha = require('mocha');
const fs = require('node:fs');
const path = require('node:path');

class SpecAndJson extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const passes = [];
    const failures = [];
    runner.on('pass', (t) => passes.push(t.fullTitle()));
    runner.on('fail', (t, err) => failures.push({ title: t.fullTitle(), err: String((err && err.message) || err) }));
    // A file's time: from its first top-level suite's start to its last one's end.
    const fileTimes = new Map();
    const started = new Map();
    runner.on('suite', (s) => {
      if (s.file && s.parent && s.parent.root) started.set(s, Date.now());
    });
    runner.on('suite end', (s) => {
      const t0 = started.get(s);
      if (t0 !== undefined) fileTimes.set(s.file, (fileTimes.get(s.file) || 0) + (Date.now() - t0));
    });
    runner.once('end', () => {
      const dir = path.resolve(__dirname, '../test-results');
      fs.mkdirSync(dir, { recursive: true });
      const stage = process.env.TEST_STAGE || 'unit';
      fs.writeFileSync(path.join(dir, `${stage}.json`), JSON.stringify({ passes, failures }, null, 2));
      const rows = [...fileTimes].sort((a, b) => b[1] - a[1]).map(([f, ms]) => `${(ms / 1000).toFixed(1).padStart(7)}s  ${path.relative(process.cwd(), f)}`);
      fs.writeFileSync(path.join(dir, `${stage}-files.txt`), rows.join('\n') + '\n');
    });
  }
}
module.exports = SpecAndJson;
