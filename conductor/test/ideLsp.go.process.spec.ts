// Go through the language-server fallback: the real gopls (Debian's `gopls` package with
// `golang-go`; .ci/run installs both) started by the ide-lsp adapter in the real conductor
// process, asked by ElizACP through the `ide` tools. The answers must equal the shared table
// (src/test/ideExpectations.ts, GO_EXPECTATIONS). gopls missing is a failure that says what to
// install, not a skip: CI installs it. Locally, SYMPOSIUM_ALLOW_MISSING_GOPLS=1 skips instead.
import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { groupAlive } from '../../src/node/processGroup';
import { GO_EXPECTATIONS, mismatches } from '../../src/test/ideExpectations';
import { goplsInstalled, serverPids } from './languageServerLog';
import { conductorArgs, initialize, newSession, prompt, startProcess, waitFor, type Harness } from './harness';

const WORKSPACE = resolve(__dirname, '../../test-fixtures/workspace');

describe('ide-lsp: Go through the real gopls', function () {
  this.timeout(120_000);
  let h: Harness;
  let sessionId: string;

  before(async function () {
    if (!goplsInstalled()) {
      if (process.env.SYMPOSIUM_ALLOW_MISSING_GOPLS === '1') return this.skip();
      assert.fail(
        'gopls and go are not installed: apt-get install gopls golang-go (.ci/run does; SYMPOSIUM_ALLOW_MISSING_GOPLS=1 skips locally)',
      );
    }
    h = startProcess(conductorArgs({ components: ['ide-operations'], log: 'debug' }));
    await initialize(h, {});
    sessionId = await newSession(h, WORKSPACE);
  });
  after(async () => {
    await h?.close();
  });

  for (const e of GO_EXPECTATIONS) {
    it(`Go: ${e.title}`, async () => {
      const { text } = await prompt(h, sessionId, e.prompt);
      assert.deepEqual(mismatches(e, text), []);
    });
  }

  it('gopls is shut down when the conductor exits', async () => {
    const pids = serverPids(h.stderr()).filter((s) => s.name === 'gopls');
    assert.equal(pids.length, 1, 'one gopls for the module');
    await h.close();
    for (const { pid } of pids) await waitFor(() => !groupAlive(pid), 5000, `gopls (${pid}) to be gone`);
  });
});
