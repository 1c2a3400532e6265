// Mocha reporter: the usual spec output on the console, plus test-results/<stage>.json
// ({passes, failures}) for scripts/summarize-results.mjs. Stage name from $TEST_STAGE.
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
    runner.once('end', () => {
      const dir = path.resolve(__dirname, '../test-results');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${process.env.TEST_STAGE || 'unit'}.json`), JSON.stringify({ passes, failures }, null, 2));
    });
  }
}
module.exports = SpecAndJson;
