// An agent's first IDE question in a window where no TypeScript file was opened yet: VS Code's
// TypeScript has not started, and its workspace symbols cover only loaded projects. Runs right
// after activation (file order), on test-fixtures/workspace/ts-fresh, a project no other suite opens: the
// definition and the references of its class, asked by name, must be found on the very first
// question, without a tab being opened.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { toolReplyJson } from '../ideExpectations';
import { answerText, cmd, newTab, openChat, rendered, waitForIdle } from '../helpers';

const root = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const project = (): string => path.join(root(), 'ts-fresh');

interface Loc {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}
const brief = (l: Loc): string => `${l.file}:${l.line}:${l.column}-${l.endLine}:${l.endColumn}`;
const inProject = (uri: vscode.Uri): boolean => uri.scheme === 'file' && uri.fsPath.startsWith(project() + path.sep);
const projectTabs = (): string[] =>
  vscode.window.tabGroups.all.flatMap((g) =>
    g.tabs.flatMap((t) => (t.input instanceof vscode.TabInputText && inProject(t.input.uri) ? [t.input.uri.fsPath] : [])),
  );

suite('IDE in a fresh window: the first question by name loads the TypeScript projects', () => {
  let tabId: string;

  suiteSetup(async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await openChat();
    tabId = await newTab();
    // The tab's first turn may carry more than its own answer (components may greet the agent first).
    await cmd<string>('sendPrompt', tabId, 'list tools from symposium-ide');
    await waitForIdle(tabId, 60_000);
  });

  async function tool(name: string, args: Record<string, unknown>): Promise<unknown> {
    const messageId = await cmd<string>('sendPrompt', tabId, `use tool symposium-ide::${name} with ${JSON.stringify(args)}`);
    await waitForIdle(tabId, 60_000);
    return toolReplyJson(answerText((await rendered(tabId))!, messageId));
  }

  test('find_definitions and find_references by name answer the right file on the very first question', async function () {
    this.timeout(90_000);
    // The window is fresh for this project: nothing of it open, in a tab or as a document.
    assert.deepEqual(
      vscode.window.visibleTextEditors.map((e) => e.document.uri.fsPath),
      [],
      'no editor is open',
    );
    assert.deepEqual(
      vscode.workspace.textDocuments.filter((d) => inProject(d.uri)).map((d) => d.uri.fsPath),
      [],
      'no file of the project was opened',
    );

    assert.deepEqual(await tool('find_definitions', { symbol: 'Ledger' }), {
      total: 1,
      results: [
        {
          file: 'ts-fresh/src/ledger.ts',
          line: 2,
          column: 14,
          endLine: 2,
          endColumn: 20,
          name: 'Ledger',
          kind: 'class',
          snippet: 'export class Ledger {',
        },
      ],
    });
    const references = (await tool('find_references', { symbol: 'Ledger' })) as { total: number; results: Loc[] };
    const composed = (await tool('ide_operation', { program: 'findReferences(findDefinitions("Ledger")[0])' })) as { results: Loc[] };
    assert.deepEqual(composed.results.map(brief), references.results.map(brief));
    assert.deepEqual(references.results.map(brief), [
      'ts-fresh/src/audit.ts:1:10-1:16',
      'ts-fresh/src/audit.ts:3:31-3:37',
      'ts-fresh/src/audit.ts:3:40-3:46',
      'ts-fresh/src/audit.ts:7:28-7:34',
      'ts-fresh/src/ledger.ts:2:14-2:20',
      'ts-fresh/src/ledger.ts:5:27-5:33',
    ]);
    // The project was loaded in the background: no tab was opened for it.
    assert.deepEqual(projectTabs(), []);
  });
});
