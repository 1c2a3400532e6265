// Files in the real host: the agent's file reads and writes go through VS Code (ElizACP's
// `read file` / `write file` hooks → ACP fs/* → src/editor/files.ts): unsaved buffers, line
// ranges, new files with folders, open documents edited with undo, confinement, edit review.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answerText, cmd, newTab, openChat, rendered, waitFor, waitForIdle } from '../helpers';

const root = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
async function ask(tabId: string, text: string): Promise<string> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitForIdle(tabId);
  return answerText((await rendered(tabId))!, messageId);
}

suite("the agent's files go through the editor", () => {
  let tabId: string;
  suiteSetup(async () => {
    await openChat();
    tabId = await newTab();
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('symposium').update('reviewAgentEdits', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a read sees unsaved changes in an open editor, and honours line/limit', async () => {
    const file = path.join(root(), 'notes-unsaved.txt');
    fs.writeFileSync(file, 'line one\nline two\nline three\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'UNSAVED '));
    assert.equal(editor.document.isDirty, true);
    assert.match(await ask(tabId, 'read file notes-unsaved.txt'), /UNSAVED line one\nline two/);
    const part = await ask(tabId, 'read file notes-unsaved.txt lines 2 1');
    assert.match(part, /```\nline two\n```/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('a write creates a new file and its folders', async () => {
    const reply = await ask(tabId, 'write file made/by/agent.txt with hello from the agent');
    const file = path.join(root(), 'made/by/agent.txt');
    assert.equal(reply, `Wrote ${file}`);
    assert.equal(fs.readFileSync(file, 'utf8'), 'hello from the agent');
  });

  test('a write to an open document is an edit: saved, and undo restores the old text', async () => {
    const file = path.join(root(), 'open-doc.txt');
    fs.writeFileSync(file, 'original text');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    assert.equal(await ask(tabId, 'write file open-doc.txt with agent text'), `Wrote ${file}`);
    assert.equal(editor.document.getText(), 'agent text');
    assert.equal(editor.document.isDirty, false, 'saved');
    assert.equal(fs.readFileSync(file, 'utf8'), 'agent text');
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    await waitFor('undo', () => editor.document.getText() === 'original text');
  });

  test('paths outside the workspace are refused, naming the path and the rule', async () => {
    const outside = path.join(path.dirname(root()), 'outside-secret.txt');
    fs.writeFileSync(outside, 'secret');
    const reply = await ask(tabId, `read file ${outside}`);
    assert.match(reply, /^Error reading .*outside-secret\.txt: .*outside the folders this agent may use/);
    assert.match(reply, /symposium\.allowedFolders/);
    assert.doesNotMatch(reply, /secret$/);
    fs.symlinkSync(path.dirname(root()), path.join(root(), 'escape-link'));
    assert.match(await ask(tabId, 'write file escape-link/planted.txt with x'), /^Error writing .*outside the folders/);
    assert.equal(fs.existsSync(path.join(path.dirname(root()), 'planted.txt')), false);
  });

  test('edit review: a write waits in the diff view; Accept applies it, Reject leaves the file', async () => {
    await vscode.workspace.getConfiguration('symposium').update('reviewAgentEdits', true, vscode.ConfigurationTarget.Global);
    const file = path.join(root(), 'reviewed.txt');
    fs.writeFileSync(file, 'before');
    const accepted = await cmd<string>('sendPrompt', tabId, 'write file reviewed.txt with after');
    await waitFor('the review', async () => (await cmd<string[]>('getPendingReviews')).length === 1);
    type Ed = { kind: string; label: string; modified?: string };
    const diff = (await cmd<Ed[]>('getOpenEditors')).find((e) => e.kind === 'diff' && e.label.includes('reviewed.txt'));
    assert.ok(diff, 'the proposed edit is shown in a diff editor');
    assert.equal(await cmd('getDocumentText', diff.modified), 'after');
    assert.equal(fs.readFileSync(file, 'utf8'), 'before', 'nothing is written before the answer');
    await vscode.commands.executeCommand('symposium.acceptAgentEdit');
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, accepted), `Wrote ${file}`);
    assert.equal(fs.readFileSync(file, 'utf8'), 'after');

    const rejected = await cmd<string>('sendPrompt', tabId, 'write file reviewed.txt with rejected text');
    await waitFor('the review', async () => (await cmd<string[]>('getPendingReviews')).length === 1);
    await vscode.commands.executeCommand('symposium.rejectAgentEdit');
    await waitForIdle(tabId);
    assert.match(answerText((await rendered(tabId))!, rejected), /^Error writing .*reviewed\.txt: .*rejected the edit/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'after');
  });
});
