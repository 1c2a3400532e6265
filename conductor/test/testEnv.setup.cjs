// Mocha setup (.mocharc.json "require"; also imported by specs that may run alone).
//
// Temp folders: every test run gets ONE folder under the system's temp folder, and TMPDIR points
// into it, so the temp folders the tests make (os.tmpdir(), mkdtemp) and those of every process
// they start (conductors, agents, language servers inherit the environment) land inside it, and
// it is removed when the run ends, whatever the tests forgot. Before, each `npm test` left a few
// hundred folders in /tmp. SYMPOSIUM_KEEP_TEST_TMP=1 keeps it (its path is printed) to look at.
//
// Sparkle: the default chain includes the Sparkle component, which creates a profile in
// ~/.sparkle on first use; every conductor a test starts (directly, or through the extension's
// AgentActor) inherits this SPARKLE_DIR instead, so a test run never writes into the real home
// folder. Sparkle's own tests give each process its own HOME and an empty SPARKLE_DIR.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

if (!process.env.SYMPOSIUM_TEST_TMP) {
  const run = mkdtempSync(join(tmpdir(), 'symposium-test-run-'));
  process.env.SYMPOSIUM_TEST_TMP = run;
  process.env.TMPDIR = run;
  process.on('exit', () => {
    if (process.env.SYMPOSIUM_KEEP_TEST_TMP) console.error(`test temp folder kept: ${run}`);
    else rmSync(run, { recursive: true, force: true });
  });
}
if (!process.env.SPARKLE_DIR) process.env.SPARKLE_DIR = mkdtempSync(join(tmpdir(), 'symposium-sparkle-home-'));
