// The language-server fallback in the real conductor process: `--components ide-operations` in
// front of an editor that does not answer IDE operations (no `_meta.symposium.ide`, as acpx or
// Zed), so assembly places the ide-lsp adapter, which starts the real typescript-language-server
// and pyright (devDependencies, found in the repository's node_modules/.bin above
// test-fixtures/workspace/). ElizACP calls the `ide` tools; every answer must equal the shared table the
// host suite asks VS Code (src/test/ideExpectations.ts). When the conductor exits, no server
// process (nor anything it started) is left.
import * as assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { groupAlive } from '../../src/node/processGroup';
import { IDE_OPERATIONS, withIdeCapability } from '../../src/protocol/ideOperations';
import { SYMPOSIUM_META_KEY } from '../../src/protocol/symposium-ext';
import { mismatches, PYTHON_EXPECTATIONS, toolReplyJson, TYPESCRIPT_EXPECTATIONS } from '../../src/test/ideExpectations';
import { serverPids, testWorkspaceServers } from './languageServerLog';
import { conductorArgs, initialize, newSession, prompt, startProcess, waitFor, type Harness } from './harness';

const WORKSPACE = resolve(__dirname, '../../test-fixtures/workspace');
const WORKSPACE_B = resolve(__dirname, '../../test-fixtures/workspace-b');
/** Workspace-wide questions start the server of every language present (gopls too, for go-module/). */
const SERVERS = testWorkspaceServers();

describe('ide-lsp: language servers answer the ide tools when the editor does not', function () {
  this.timeout(120_000);
  let h: Harness;
  let sessionId: string;

  before(async () => {
    h = startProcess(conductorArgs({ components: ['ide-operations'], log: 'debug' }));
    const init = await initialize(h, {});
    const meta = (init.agentCapabilities?._meta as Record<string, { components: string[] }>)[SYMPOSIUM_META_KEY]!;
    assert.deepEqual(meta.components, ['ide-lsp', 'ide-operations'], 'assembly places the adapter before ide-operations');
    sessionId = await newSession(h, WORKSPACE);
  });
  after(async () => {
    await h?.close();
  });

  for (const e of TYPESCRIPT_EXPECTATIONS) {
    it(`TypeScript: ${e.title}`, async () => {
      const { text } = await prompt(h, sessionId, e.prompt);
      assert.deepEqual(mismatches(e, text), []);
    });
  }

  for (const e of PYTHON_EXPECTATIONS) {
    it(`Python: ${e.title}`, async () => {
      const { text } = await prompt(h, sessionId, e.prompt);
      assert.deepEqual(mismatches(e, text), []);
    });
  }

  it('one server process per language for the workspace, shared by a second session', async () => {
    const second = await newSession(h, WORKSPACE);
    const { text } = await prompt(h, second, 'find definition of Circle');
    assert.match(text, /shapes\.py/);
    assert.deepEqual(
      serverPids(h.stderr())
        .map((s) => s.name)
        .sort(),
      SERVERS,
    );
  });

  it("getSelection: no editor, so no selection; lines and paths outside the session's folder as the editor answers them", async () => {
    assert.equal(
      (await prompt(h, sessionId, 'use tool symposium-ide::ide_operation with {"program":"getSelection()"}')).text,
      '{\n  "result": null\n}',
    );
    const lines = toolReplyJson(
      (await prompt(h, sessionId, 'use tool symposium-ide::ide_operation with {"program":"lines(\\"ts-project/src/main.ts\\", 7, 8)"}'))
        .text,
    );
    assert.deepEqual(lines, {
      file: 'ts-project/src/main.ts',
      line: 7,
      endLine: 8,
      content: '\t\tconst second = makeParser();\n\t\treturn first.parse(input) + second.parse(input);',
    });
    const outside = await prompt(
      h,
      sessionId,
      `use tool symposium-ide::hover with ${JSON.stringify({ file: '/etc/hostname', line: 1, column: 1 })}`,
    );
    assert.match(outside.text, /^Tool error: hover: \/etc\/hostname is outside the session's folder/);
    const none = await prompt(h, sessionId, 'use tool symposium-ide::find_definitions with {"symbol": "NoSuchSymbolAnywhere"}');
    assert.deepEqual(toolReplyJson(none.text), {
      total: 0,
      results: [],
      notes: ['no symbol named "NoSuchSymbolAnywhere" was found among the workspace symbols'],
    });
  });

  it("a session's additional directory: a file named there is answered by its own folder's server; one outside every folder is refused", async () => {
    const r = await h.conn.agent.request('session/new', { cwd: WORKSPACE_B, additionalDirectories: [WORKSPACE], mcpServers: [] });
    const hover = { file: resolve(WORKSPACE, 'ts-project/src/main.ts'), line: 4, column: 46 };
    const { text } = await prompt(h, r.sessionId, `use tool symposium-ide::hover with ${JSON.stringify(hover)}`);
    assert.match(text, /new Parser\(strict: boolean\): Parser/);
    const outside = await prompt(
      h,
      r.sessionId,
      `use tool symposium-ide::hover with ${JSON.stringify({ file: '/etc/hostname', line: 1, column: 1 })}`,
    );
    assert.match(outside.text, /^Tool error: hover: \/etc\/hostname is outside the session's folder/);
  });

  it('no language-server process is left after the conductor exits', async () => {
    const pids = serverPids(h.stderr());
    assert.equal(pids.length, SERVERS.length);
    for (const { pid } of pids) assert.ok(groupAlive(pid), `server ${pid} runs while the conductor does`);
    await h.close();
    for (const { name, pid } of pids) await waitFor(() => !groupAlive(pid), 5000, `${name} (${pid}) and its children to be gone`);
    assert.match(h.stderr(), /typescript-language-server exited with code 0/, 'shut down with shutdown/exit, not killed');
  });
});

describe('ide-lsp placement', function () {
  this.timeout(30_000);
  it('an editor that advertises _meta.symposium.ide keeps the adapter out', async () => {
    const h = startProcess(conductorArgs({ components: ['ide-operations'], log: 'warn' }));
    try {
      const init = await initialize(h, { _meta: withIdeCapability(undefined, { operations: [...IDE_OPERATIONS] }) });
      const meta = (init.agentCapabilities?._meta as Record<string, { components: string[]; skipped: { name: string }[] }>)[
        SYMPOSIUM_META_KEY
      ]!;
      assert.deepEqual(meta.components, ['ide-operations']);
      assert.deepEqual(
        meta.skipped.map((s) => s.name),
        ['ide-lsp'],
      );
    } finally {
      await h.close();
    }
  });
});
