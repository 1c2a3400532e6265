// In the real host: ElizACP calls the `ide` MCP tools (the conductor's ide-operations
// component), the component asks the extension `_symposium/ide/*`, and the extension answers from
// VS Code's TypeScript language features on test-fixtures/workspace/ts-project. Positions are asserted
// exactly (1-based, columns in characters: main.ts line 4 has two emoji before `Parser`, line 8
// two tabs) and compared with what VS Code's own Go to Definition / Find All References return.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { utf16ToColumn } from '../../protocol/ideOperations';
import { mismatches, toolReplyJson, TYPESCRIPT_EXPECTATIONS } from '../ideExpectations';
import { answerText, cmd, newTab, openChat, rendered, sleep, toolCards, waitFor, waitForIdle } from '../helpers';

const root = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const tsFile = (name: string): string => path.join(root(), 'ts-project/src', name);
const rel = (name: string): string => `ts-project/src/${name}`;

interface Loc {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  name?: string;
  kind?: string;
  snippet?: string;
  containerName?: string;
}
interface ListResult {
  total: number;
  results: Loc[];
  notes?: string[];
}
const brief = (l: Loc): string => `${l.file}:${l.line}:${l.column}-${l.endLine}:${l.endColumn}`;

/** What VS Code's own command answers, converted the way the issue defines (1-based, characters). */
function fromVsCode(found: (vscode.Location | vscode.LocationLink)[]): string[] {
  return found
    .map((d) => {
      const uri = 'targetUri' in d ? d.targetUri : d.uri;
      const range = 'targetUri' in d ? (d.targetSelectionRange ?? d.targetRange) : d.range;
      const lines = fs.readFileSync(uri.fsPath, 'utf8').split('\n');
      const file = path.relative(root(), uri.fsPath).split(path.sep).join('/');
      const loc = {
        file,
        line: range.start.line + 1,
        column: utf16ToColumn(lines[range.start.line]!, range.start.character),
        endLine: range.end.line + 1,
        endColumn: utf16ToColumn(lines[range.end.line]!, range.end.character),
      };
      return loc;
    })
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column))
    .map(brief);
}

suite("IDE operations: the editor's code intelligence as agent tools", () => {
  let tabId: string;

  suiteSetup(async function () {
    this.timeout(150_000);
    await openChat();
    // The TypeScript server starts on the project once one of its files is open; wait until it answers.
    await vscode.window.showTextDocument(vscode.Uri.file(tsFile('main.ts')));
    await waitFor(
      'TypeScript to answer Go to Definition',
      async () => {
        const defs = await vscode.commands.executeCommand<unknown[]>(
          'vscode.executeDefinitionProvider',
          vscode.Uri.file(tsFile('main.ts')),
          new vscode.Position(3, 47),
        );
        return (defs?.length ?? 0) > 0;
      },
      120_000,
    );
    await waitFor(
      'TypeScript workspace symbols',
      async () => {
        const symbols = await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', 'Parser');
        return (symbols ?? []).some((s) => s.name === 'Parser');
      },
      60_000,
    );
    tabId = await newTab();
    // The tab's first turn may carry more than its own answer (components may greet the agent first).
    await cmd<string>('sendPrompt', tabId, 'list tools from symposium-ide');
    await waitForIdle(tabId, 60_000);
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function ask(text: string): Promise<{ reply: string; messageId: string }> {
    const messageId = await cmd<string>('sendPrompt', tabId, text);
    await waitForIdle(tabId, 60_000);
    return { reply: answerText((await rendered(tabId))!, messageId), messageId };
  }
  const tool = async (name: string, args: Record<string, unknown>): Promise<string> =>
    (await ask(`use tool symposium-ide::${name} with ${JSON.stringify(args)}`)).reply;
  const program = (p: string): Promise<string> => tool('ide_operation', { program: p });
  const list = async (reply: Promise<string>): Promise<ListResult> => toolReplyJson(await reply) as ListResult;

  test('the agent lists the ide tools', async () => {
    assert.equal(
      (await ask('list tools from symposium-ide')).reply,
      'Tools from symposium-ide: ide_operation, find_definitions, find_references, workspace_symbols, document_symbols, hover, diagnostics, search_text',
    );
  });

  test("findDefinitions gives the location Go to Definition shows; the card's file opens", async function () {
    this.timeout(60_000);
    const byName = await list(program('findDefinitions("Parser")'));
    assert.deepEqual(byName, {
      total: 1,
      results: [
        {
          file: rel('parser.ts'),
          line: 4,
          column: 14,
          endLine: 4,
          endColumn: 20,
          name: 'Parser',
          kind: 'class',
          snippet: 'export class Parser implements Tokenizer {',
        },
      ],
    });
    // From the use after two emoji on main.ts line 4 (UTF-16 47 = column 46), like F12 there.
    const atUse = await list(tool('find_definitions', { file: rel('main.ts'), line: 4, column: 46 }));
    const direct = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      vscode.Uri.file(tsFile('main.ts')),
      new vscode.Position(3, 47),
    );
    assert.deepEqual(atUse.results.map(brief), fromVsCode(direct));
    // At `new Parser(…)` TypeScript's Go to Definition offers the class and its constructor.
    assert.deepEqual(atUse.results.map(brief), [`${rel('parser.ts')}:4:14-4:20`, `${rel('parser.ts')}:5:3-5:51`]);

    const { reply, messageId } = await ask('find definition of Parser');
    assert.deepEqual((toolReplyJson(reply) as ListResult).results.map(brief), [`${rel('parser.ts')}:4:14-4:20`]);
    const card = toolCards((await rendered(tabId))!, messageId)[0]!;
    assert.match(card.header ?? '', /symposium-ide::find\\_definitions/);
    assert.equal(card.status, 'Completed');
    assert.deepEqual(card.files, [tsFile('parser.ts')]);
    await cmd('postFromWebview', { type: 'open-location', tabId, path: tsFile('parser.ts'), line: 4 });
    await waitFor(
      'parser.ts to open at line 4',
      () =>
        vscode.window.activeTextEditor?.document.uri.fsPath === tsFile('parser.ts') &&
        vscode.window.activeTextEditor.selection.active.line === 3,
    );
  });

  test('findReferences gives the locations Find All References shows (declaration included)', async function () {
    this.timeout(60_000);
    const expected = [
      `${rel('main.ts')}:2:10-2:16`,
      `${rel('main.ts')}:4:46-4:52`,
      `${rel('parser.ts')}:4:14-4:20`,
      `${rel('parser.ts')}:18:31-18:37`,
      `${rel('parser.ts')}:19:14-19:20`,
      `${rel('report.ts')}:2:10-2:16`,
      `${rel('report.ts')}:5:12-5:18`,
      `${rel('report.ts')}:5:25-5:31`,
    ];
    const composed = await list(program('findReferences(findDefinitions("Parser")[0])'));
    assert.deepEqual(composed.results.map(brief), expected);
    assert.equal(composed.total, 8);
    const direct = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      vscode.Uri.file(tsFile('parser.ts')),
      new vscode.Position(3, 13),
    );
    assert.deepEqual(fromVsCode(direct), expected);
    assert.deepEqual((await list(tool('find_references', { symbol: 'Parser' }))).results.map(brief), expected);
    assert.deepEqual((await list(tool('find_references', { file: rel('report.ts'), line: 5, column: 25 }))).results.map(brief), expected);
    // A use after two tabs (main.ts line 8): `second.parse` resolves to Parser.parse.
    const parse = await list(program('findReferences(findDefinitions("Parser.parse"))'));
    assert.deepEqual(parse.results.map(brief), [
      `${rel('main.ts')}:8:16-8:21`,
      `${rel('main.ts')}:8:38-8:43`,
      `${rel('parser.ts')}:11:3-11:8`,
      `${rel('report.ts')}:6:15-6:20`,
    ]);
  });

  test('hover, typeDefinition, implementations, symbols and documentSymbols', async function () {
    this.timeout(60_000);
    const hover = toolReplyJson(await tool('hover', { file: rel('main.ts'), line: 4, column: 46 })) as Loc & { contents: string };
    assert.equal(brief(hover), `${rel('main.ts')}:4:46-4:52`);
    assert.match(hover.contents, /new Parser\(strict: boolean\): Parser/);
    assert.match(
      (toolReplyJson(await program('hover(findDefinitions("makeParser")[0])')) as { contents: string }).contents,
      /function makeParser\(\): Parser/,
    );
    assert.deepEqual((await list(program(`typeDefinition("${rel('main.ts')}", 8, 10)`))).results.map(brief), [
      `${rel('parser.ts')}:4:14-4:20`,
    ]);
    const impl = await list(program('implementations(findDefinitions("Tokenizer"))'));
    const directImpl = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeImplementationProvider',
      vscode.Uri.file(tsFile('tokens.ts')),
      new vscode.Position(7, 17),
    );
    assert.deepEqual(impl.results.map(brief), fromVsCode(directImpl));
    assert.deepEqual(
      impl.results.map((l) => [l.file, l.line]),
      [[rel('parser.ts'), 4]],
    );
    const symbols = await list(program('symbols("Parser")'));
    assert.ok(
      symbols.results.some((s) => s.name === 'Parser' && s.kind === 'class' && brief(s) === `${rel('parser.ts')}:4:14-4:20`),
      JSON.stringify(symbols),
    );
    assert.ok(
      symbols.results.some((s) => s.name === 'makeParser' && s.kind === 'function' && brief(s) === `${rel('parser.ts')}:18:17-18:27`),
      JSON.stringify(symbols),
    );
    const outline = await list(tool('document_symbols', { file: rel('parser.ts') }));
    const find = (name: string): Loc | undefined => outline.results.find((s) => s.name === name);
    assert.deepEqual([brief(find('Parser')!), find('Parser')!.kind], [`${rel('parser.ts')}:4:14-4:20`, 'class']);
    assert.deepEqual(
      [brief(find('tokenize')!), find('tokenize')!.kind, find('tokenize')!.containerName],
      [`${rel('parser.ts')}:7:3-7:11`, 'method', 'Parser'],
    );
    assert.deepEqual([brief(find('parse')!), find('parse')!.containerName], [`${rel('parser.ts')}:11:3-11:8`, 'Parser']);
    assert.equal(brief(find('makeParser')!), `${rel('parser.ts')}:18:17-18:27`);
  });

  test('diagnostics: the type error in report.ts, 1-based, for the file and for the workspace', async function () {
    this.timeout(60_000);
    let result: ListResult | undefined;
    await waitFor(
      'the type error',
      async () => {
        result = await list(tool('diagnostics', { file: rel('report.ts') }));
        return result.total > 0;
      },
      45_000,
    );
    assert.equal(result!.total, 1);
    const [d] = result!.results as (Loc & { severity: string; message: string; source?: string; code?: string })[];
    assert.equal(brief(d!), `${rel('report.ts')}:9:14-9:19`);
    assert.deepEqual([d!.severity, d!.source, d!.code], ['error', 'ts', '2322']);
    assert.match(d!.message, /Type 'string' is not assignable to type 'number'/);
    const all = await list(program('diagnostics()'));
    assert.ok(
      all.results.some((x) => brief(x) === brief(d!)),
      JSON.stringify(all),
    );
  });

  test('search and lines: hits per line with character columns, extension filter, folders and files', async function () {
    this.timeout(60_000);
    const hits = await list(program('search("ts-project/src", "new Parser\\\\(", ".ts")'));
    assert.deepEqual(hits.results.map(brief), [
      `${rel('main.ts')}:4:42-4:53`,
      `${rel('parser.ts')}:19:10-19:21`,
      `${rel('report.ts')}:5:21-5:32`,
    ]);
    assert.equal(hits.results[0]!.snippet, "const banner = '🚀🚀 ready'; const first = new Parser(true);");
    assert.deepEqual((await list(program(`search("${rel('main.ts')}", "second\\.parse")`))).results.map(brief), [
      `${rel('main.ts')}:8:31-8:43`,
    ]);
    const py = await list(tool('search_text', { path: 'py-package', regex: 'TODO\\(', extension: 'py' }));
    assert.deepEqual(py.results.map(brief), ['py-package/geometry/report.py:10:31-10:36']);
    const lines = toolReplyJson(await program(`lines("${rel('main.ts')}", 7, 8)`)) as {
      file: string;
      line: number;
      endLine: number;
      content: string;
    };
    assert.deepEqual(lines, {
      file: rel('main.ts'),
      line: 7,
      endLine: 8,
      content: '\t\tconst second = makeParser();\n\t\treturn first.parse(input) + second.parse(input);',
    });
  });

  test("getSelection: the active editor's file, range (characters) and text", async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(tsFile('main.ts')));
    editor.selection = new vscode.Selection(3, 47, 3, 53);
    const sel = toolReplyJson(await program('getSelection()')) as Loc & { text: string };
    assert.deepEqual([brief(sel), sel.text], [`${rel('main.ts')}:4:46-4:52`, 'Parser']);
  });

  test('a name that exists nowhere: an empty list with a note, and indexing it says so', async () => {
    const none = await list(tool('find_definitions', { symbol: 'NoSuchSymbolAnywhere' }));
    assert.deepEqual(none, {
      total: 0,
      results: [],
      notes: ['no symbol named "NoSuchSymbolAnywhere" was found among the workspace symbols'],
    });
    assert.deepEqual(await list(tool('find_references', { symbol: 'NoSuchSymbolAnywhere' })), { ...none });
    const indexed = await program('findReferences(findDefinitions("NoSuchSymbolAnywhere")[0])');
    assert.match(indexed, /^Tool error: Error at column 56: index 0 is out of range: findDefinitions\("NoSuchSymbolAnywhere"\) is empty/);
  });

  test('a file outside the workspace is refused, naming the rule', async () => {
    const outside = path.join(path.dirname(root()), 'outside-ide.ts');
    fs.writeFileSync(outside, 'export const secret = 1;\n');
    const reply = await tool('hover', { file: outside, line: 1, column: 14 });
    assert.match(reply, /^Tool error: hover: .*outside-ide\.ts is outside the folders this agent may use.*symposium\.allowedFolders/s);
    assert.match(
      await program(`search("${path.dirname(root())}", "secret")`),
      /^Tool error: ide_operation: .* is outside the folders this agent may use/s,
    );
    assert.match(await program('documentSymbols("../outside-ide.ts")'), /is outside the folders this agent may use/);
  });

  test('bad programs get errors that say what to fix', async () => {
    assert.equal(
      await program('findDefinitions("Parser"'),
      `Tool error: Parse error at column 25: expected "," or ")" after an item of the arguments of findDefinitions, found the end of the program\n  findDefinitions("Parser"\n  ${' '.repeat(24)}^`,
    );
    assert.match(
      await program('findDefinitions(Parser)'),
      /^Tool error: Parse error at column 23: expected "\(" after Parser: .*quote it to pass it as text: "Parser"/,
    );
    assert.match(
      await program('goToDefinition("Parser")'),
      /^Tool error: Error at column 1: unknown function goToDefinition\. Known functions: findDefinitions, findReferences, typeDefinition, implementations, hover, symbols, documentSymbols, diagnostics, search, lines, getSelection/,
    );
    assert.match(
      await program(`hover("${rel('main.ts')}", "4", 46)`),
      /^Tool error: Error at column 1: hover: argument 2 \(line\) must be a whole number ≥ 1 \(1-based\), got the string "4"/,
    );
  });

  test('the shared table of IDE questions: the same answers the language-server fallback gives', async function () {
    this.timeout(120_000);
    // conductor/test/ideLsp.process.spec.ts asks typescript-language-server the same questions.
    for (const e of TYPESCRIPT_EXPECTATIONS) assert.deepEqual(mismatches(e, (await ask(e.prompt)).reply), [], e.title);
  });

  test("a slow answer from VS Code's language features: after 1 s the card says so, live, and ends completed", async function () {
    this.timeout(60_000);
    // A workspace-symbol provider that takes 3.5 s: VS Code's Go to Symbol in Workspace waits for every provider.
    const slow = vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: async () => {
        await sleep(3_500);
        return [];
      },
    });
    try {
      const messageId = await cmd<string>('sendPrompt', tabId, 'use tool symposium-ide::workspace_symbols with {"query": "Parser"}');
      const seen: string[] = [];
      let maxCards = 0;
      while (await cmd<boolean>('hasActivePrompt', tabId)) {
        const cards = toolCards((await rendered(tabId)) ?? [], messageId);
        maxCards = Math.max(maxCards, cards.length);
        const line = /⏳ (.*)/.exec((cards[0]?.body ?? '').replace(/\\/g, ''))?.[1];
        if (line && seen.at(-1) !== line) seen.push(line);
        await sleep(150);
      }
      await waitForIdle(tabId, 30_000);
      assert.ok(
        seen.some((l) => /^Waiting for the editor's language features… [1-4] s/.test(l)),
        `the card said it waits for VS Code: ${JSON.stringify(seen)}`,
      );
      assert.equal(maxCards, 1, 'progress updates the one card in place');
      const card = toolCards((await rendered(tabId))!, messageId)[0]!;
      assert.equal(card.status, 'Completed');
      assert.doesNotMatch(card.body, /⏳/, 'no progress line once completed');
    } finally {
      slow.dispose();
    }
  });
});
