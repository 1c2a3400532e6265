// The language-server fallback's file watcher, through the real conductor (`--components
// ide-operations`, an editor without `ide`) and ElizACP, with the real typescript-language-server
// (which then leaves file watching to this client: `useClientFileWatcher`). Files created, renamed
// and changed on disk after the server started — never named by a question — are seen by the next
// answers: workspace symbols and references find a new file and follow its rename
// (`workspace/didChangeWatchedFiles`), and a document the server has open gets its new text
// (`didChange`) before the next question.
import * as assert from 'node:assert/strict';
import { cpSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brief, toolReplyJson, type Located } from '../../src/test/ideExpectations';
import { conductorArgs, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';

const TS_PROJECT = resolve(__dirname, '../../test-fixtures/workspace/ts-project');

const located = (text: string): string[] => {
  try {
    return (toolReplyJson(text) as { results: Located[] }).results.map(brief);
  } catch {
    throw new Error(`not a list answer: ${text}`);
  }
};

describe('ide-lsp: files changed on disk reach the language servers (file watcher)', function () {
  this.timeout(120_000);
  let h: Harness;
  let sessionId: string;
  let ws: string;
  const ask = async (text: string): Promise<string[]> => located((await prompt(h, sessionId, text)).text);
  const symbols = (query: string): Promise<string[]> => ask(`use tool symposium-ide::workspace_symbols with ${JSON.stringify({ query })}`);
  const parserReferences = (): Promise<string[]> =>
    ask(`use tool symposium-ide::find_references with ${JSON.stringify({ file: 'src/parser.ts', line: 4, column: 14 })}`);

  before(async () => {
    ws = tempDir('ide-lsp-watch-');
    cpSync(TS_PROJECT, ws, { recursive: true });
    h = startProcess(conductorArgs({ components: ['ide-operations'], log: 'debug' }));
    await initialize(h, {});
    sessionId = await newSession(h, ws);
    assert.ok((await symbols('Parser')).includes('src/parser.ts:4:14-4:20'), 'the server runs and has the project');
  });
  after(async () => {
    await h?.close();
  });

  it('a file created after the server started is found by workspace symbols and references', async () => {
    writeFileSync(
      join(ws, 'src/lexer.ts'),
      "import { Parser } from './parser';\n\nexport class Lexer {\n  readonly parser = new Parser(true);\n}\n",
    );
    assert.deepEqual(await symbols('Lexer'), ['src/lexer.ts:3:14-3:19']);
    const refs = await parserReferences();
    assert.ok(refs.includes('src/lexer.ts:1:10-1:16') && refs.includes('src/lexer.ts:4:25-4:31'), JSON.stringify(refs));
  });

  it('a renamed file: the answers follow it to its new name', async () => {
    renameSync(join(ws, 'src/lexer.ts'), join(ws, 'src/scanner.ts'));
    assert.deepEqual(await symbols('Lexer'), ['src/scanner.ts:3:14-3:19']);
    const refs = await parserReferences();
    assert.ok(refs.includes('src/scanner.ts:4:25-4:31'), JSON.stringify(refs));
    assert.ok(!refs.some((r) => r.startsWith('src/lexer.ts')), JSON.stringify(refs));
  });

  it('a document the server has open, changed on disk: the next question sees its new text', async () => {
    // report.ts is open on the server once a question named it.
    const before = await ask(`use tool symposium-ide::document_symbols with ${JSON.stringify({ file: 'src/report.ts' })}`);
    assert.ok(before.length > 0);
    assert.ok((await parserReferences()).some((r) => r.startsWith('src/report.ts')));
    writeFileSync(join(ws, 'src/report.ts'), 'export const unrelated = 1;\n');
    const refs = await parserReferences();
    assert.ok(!refs.some((r) => r.startsWith('src/report.ts')), `report.ts no longer uses Parser: ${JSON.stringify(refs)}`);
    assert.match(h.stderr(), /file watcher: \d+ change\(s\)/);
  });
});
