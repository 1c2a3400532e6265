// @-mention context in the real host. The `@` menu lists workspace files, open
// editors, folders, symbols (VS Code's symbol providers) and the selection; chosen items reach the
// agent as content blocks (ElizACP advertises embeddedContext, so embedded `resource`s; folders as
// `resource_link`s) — ElizACP's `what did i attach` lists what it got. "Discuss in Symposium"
// opens a tab with the selection attached.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ContextRef } from '../../protocol/webview';
import { answerText, cmd, newTab, openChat, rendered, renderedTabStore, waitFor, waitForIdle } from '../helpers';

const root = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const uriOf = (rel: string): string => vscode.Uri.file(path.join(root(), rel)).toString();

async function askWith(tabId: string, text: string, context: ContextRef[]): Promise<string> {
  const messageId = await cmd<string>('sendPrompt', tabId, text, context);
  await waitForIdle(tabId);
  const items = (await rendered(tabId))!;
  return answerText(items, messageId) || (items.find((i) => i.messageId === `${messageId}:end`)?.body ?? '');
}

suite('context from the workspace', () => {
  suiteSetup(async () => {
    await openChat();
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the @ menu lists files (open editors first), folders, symbols of open editors and the selection', async () => {
    const tabId = await newTab();
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root(), 'src/greeter.ts')));
    editor.selection = new vscode.Selection(4, 0, 6, 3);
    let refs: ContextRef[] = [];
    await waitFor(
      'symbols from the TypeScript symbol provider',
      async () => {
        refs = await cmd<ContextRef[]>('listContext');
        return refs.some((r) => r.kind === 'symbol' && r.name === 'Greeter.greet');
      },
      60_000,
    );
    assert.ok(refs.find((r) => r.kind === 'file' && r.name === 'src/greeter.ts')?.open, 'the open editor is marked');
    assert.ok(refs.some((r) => r.kind === 'file' && r.name === 'hello.txt'));
    assert.ok(refs.some((r) => r.kind === 'folder' && r.name === 'src/'));
    assert.deepEqual(refs.find((r) => r.kind === 'selection')?.range, { startLine: 5, endLine: 7 });
    const groups = ['selection', 'open editors', 'file', 'folder', 'symbol', 'image'];
    // The menu follows the workspace as it changes (debounced), so wait for the symbols to arrive.
    await waitFor(
      `the tab's @ menu to offer ${groups.join(', ')}`,
      async () => JSON.stringify((await renderedTabStore(tabId))?.contextGroups) === JSON.stringify(groups),
    );
    assert.ok(
      refs.some((r) => r.kind === 'image' && r.name === 'pixel.png'),
      'workspace images can be attached',
    );
    // A file created outside VS Code (say, by an agent's command) joins the menu.
    fs.writeFileSync(path.join(root(), 'created-outside.txt'), 'new');
    await waitFor('the new file in the @ menu', async () =>
      (await cmd<ContextRef[]>('listContext')).some((r) => r.kind === 'file' && r.name === 'created-outside.txt'),
    );
  });

  test('an @-mentioned file, selection and folder reach the agent as content blocks', async () => {
    const tabId = await newTab();
    const reply = await askWith(tabId, 'what did i attach', [
      { kind: 'file', uri: uriOf('hello.txt'), name: 'hello.txt' },
      { kind: 'selection', uri: uriOf('src/greeter.ts'), name: 'greeter.ts:5-7', range: { startLine: 5, endLine: 7 } },
      { kind: 'folder', uri: uriOf('src'), name: 'src/' },
      { kind: 'image', uri: uriOf('pixel.png'), name: 'pixel.png' },
    ]);
    assert.equal(
      reply,
      [
        'You attached 4 items:',
        `- resource ${uriOf('hello.txt')}`,
        `- resource ${uriOf('src/greeter.ts')}#L5-L7`,
        `- resource_link ${uriOf('src')} (src/)`,
        `- image ${uriOf('pixel.png')}`,
      ].join('\n'),
    );
    // The agent sees the text, too: it can read embedded content without asking for the file.
    const items = (await rendered(tabId))!;
    assert.match(items.find((i) => i.type === 'prompt')?.body ?? '', /📎 `hello.txt` `greeter.ts:5-7` `src\/` `pixel.png`/);
  });

  test('context outside the workspace is refused', async () => {
    const tabId = await newTab();
    const reply = await askWith(tabId, 'what did i attach', [{ kind: 'file', uri: 'file:///etc/hostname', name: 'hostname' }]);
    assert.match(reply, /outside the folders this agent may use/);
  });

  test('Discuss in Symposium opens a tab with the selection attached', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(root(), 'src/greeter.ts')));
    editor.selection = new vscode.Selection(9, 0, 11, 1);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      editor.document.uri,
      editor.selection,
    );
    assert.ok(
      actions.some((a) => a.title === 'Discuss in Symposium'),
      'offered as a code action on the selection',
    );
    const tabId = await vscode.commands.executeCommand<string>('symposium.discussSelection');
    await waitFor('the attachment in the new tab', async () => ((await renderedTabStore(tabId))?.attached ?? []).length === 1);
    assert.deepEqual((await renderedTabStore(tabId))!.attached, ['greeter.ts:10-12']);
  });
});
