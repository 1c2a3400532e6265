// An agent-chosen regex against the real conductor (ide-operations answered by the ide-lsp
// adapter, ElizACP calling the `search_text` tool): `(a+)+b` over a line of 32 `a`s would match
// for minutes on the conductor's event loop. It is answered with a tool error that names the
// pattern and the time budget, within that budget, while another session's IDE question is
// answered meanwhile; the next search works as before.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';

const BUDGET_MS = 1500;
const tool = (name: string, args: Record<string, unknown>): string => `use tool symposium-ide::${name} with ${JSON.stringify(args)}`;

describe('ide search_text with a regex that backtracks without end (real conductor)', function () {
  this.timeout(60_000);
  let h: Harness;
  let ws: string;

  before(async () => {
    ws = tempDir('ide-search-ws-');
    writeFileSync(join(ws, 'a.txt'), `first line\n${'a'.repeat(32)}\n`);
    h = startProcess(
      conductorArgs({ components: ['ide-lsp', 'ide-operations'], agent: elizaCommand() }),
      {},
      {
        SYMPOSIUM_SEARCH_BUDGET_MS: String(BUDGET_MS),
      },
    );
    await initialize(h, {});
  });
  after(async () => {
    await h?.close();
  });

  it('answers a tool error within the budget, and answers another session meanwhile', async () => {
    const [slow, other] = [await newSession(h, ws), await newSession(h, ws)];
    const started = Date.now();
    let searchDoneAt = 0;
    const search = prompt(h, slow, tool('search_text', { path: 'a.txt', regex: '(a+)+b' })).then((r) => {
      searchDoneAt = Date.now();
      return r;
    });
    await new Promise((r) => setTimeout(r, 300)); // the search is matching by now
    const lines = await prompt(h, other, tool('ide_operation', { program: 'lines("a.txt", 1)' }));
    const otherDoneAt = Date.now();
    assert.match(lines.text, /"content": "first line"/);
    const { text } = await search;
    const took = searchDoneAt - started;
    assert.match(
      text,
      /^Tool error: search_text: the regular expression "\(a\+\)\+b" took longer than 1\.5 s to match and the search was stopped/,
    );
    assert.ok(took >= BUDGET_MS && took < BUDGET_MS + 3000, `answered after ${took} ms (budget ${BUDGET_MS} ms)`);
    assert.ok(otherDoneAt < searchDoneAt, 'the other session was answered while the search was still running');
    assert.equal(h.child.exitCode, null, 'the conductor is alive');
  });

  it('searches as before afterwards', async () => {
    const session = await newSession(h, ws);
    const { text } = await prompt(h, session, tool('search_text', { path: '.', regex: 'first' }));
    assert.match(text, /\{"file":"a\.txt","line":1,"column":1,"endLine":1,"endColumn":6,"snippet":"first line"\}/);
  });
});
