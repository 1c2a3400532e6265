// Checkpoints in the real host (docs/checkpoints.md): ElizACP changes files on disk by itself, by
// a command it runs and through the editor's fs/write; at the end of each such turn the tab shows
// "N files changed"; Revert (one file), Keep, Revert all (an unsaved editor named and left alone),
// a file's diff (before the turn ↔ now) and Review changes (every file in one view).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RenderedItem } from '../../protocol/webview';
import { captureLog, cmd, newTab, openChat, rendered, waitFor, waitForIdle } from '../helpers';

const root = (): string => fs.realpathSync(vscode.workspace.workspaceFolders![0]!.uri.fsPath);
const dir = (): string => path.join(root(), 'ckpt-host');
const file = (rel: string): string => path.join(dir(), rel);
const agents = (value: unknown): Thenable<void> =>
  vscode.workspace.getConfiguration('symposium').update('agents', value, vscode.ConfigurationTarget.Global);

/** Sends a prompt, waits for the turn, and returns the turn's "files changed" card once it is shown. */
async function turnWithCard(tabId: string, text: string): Promise<{ messageId: string; card: () => Promise<RenderedItem | undefined> }> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitForIdle(tabId);
  const card = async (): Promise<RenderedItem | undefined> =>
    (await rendered(tabId))?.find((i) => i.messageId === `notice:changes-${messageId}`);
  try {
    await waitFor(`the files-changed card of "${text}"`, async () => !!(await card()));
  } catch (e) {
    // What the checkpoints said on the way is the clue.
    throw new Error(`${String(e)}; checkpoint log: ${JSON.stringify(log?.events.filter((x) => x.category === 'checkpoints'))}`);
  }
  return { messageId, card };
}

let log: ReturnType<typeof captureLog> | undefined;

const action = (tabId: string, messageId: string, act: string, rel?: string): Thenable<unknown> =>
  cmd('postFromWebview', {
    type: 'checkpoint-action',
    tabId,
    messageId,
    action: act,
    ...(rel ? { folder: root(), path: `ckpt-host/${rel}` } : {}),
  });

suite('checkpoints: what a turn changed, reviewed and reverted', () => {
  let tabId: string;
  suiteSetup(async () => {
    fs.rmSync(dir(), { recursive: true, force: true });
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(file('edited.txt'), 'old line\nsame\n');
    fs.writeFileSync(file('doomed.txt'), 'doomed\n');
    fs.writeFileSync(file('unsaved.txt'), 'before\n');
    // Written well before the first prompt: a checkpoint counts what changed after its prompt started as the turn's.
    const past = new Date(Date.now() - 60_000);
    for (const f of ['edited.txt', 'doomed.txt', 'unsaved.txt']) fs.utimesSync(file(f), past, past);
    // An editor with unsaved changes must stay unsaved while the test looks.
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    log = captureLog(await openChat());
    tabId = await newTab();
  });
  teardown(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  suiteTeardown(async () => {
    log?.dispose();
    await agents(undefined);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir(), { recursive: true, force: true });
  });

  test('an edit on disk by the agent itself shows "1 file changed"; Revert puts the file back', async () => {
    // Once a turn's card is shown, the folder is known to the checkpoints: ElizACP edits within a
    // millisecond of the prompt, before git could read a file it never saw (a real model takes longer).
    await turnWithCard(tabId, 'save file ckpt-host/warm-up.txt with w');
    const { messageId, card } = await turnWithCard(tabId, 'edit file ckpt-host/edited.txt replacing "old line" with "new line"');
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), 'new line\nsame\n');
    let shown = (await card())!;
    assert.equal(shown.header, '1 file changed');
    assert.equal(shown.status, '+1 −1');
    assert.deepEqual(shown.files, ['ckpt-host/edited.txt']);
    assert.deepEqual(shown.buttons, ['Review changes', 'Revert all']);

    // The file's diff: the checkpoint's text on the left, the file on the right.
    await action(tabId, messageId, 'open', 'edited.txt');
    type Ed = { kind: string; label: string; original?: string; modified?: string };
    let diff: Ed | undefined;
    await waitFor('the diff editor', async () => {
      diff = (await cmd<Ed[]>('getOpenEditors')).find((e) => e.kind === 'diff' && e.label.includes('edited.txt'));
      return !!diff;
    });
    assert.match(diff!.original!, /^symposium-checkpoint:/);
    assert.equal(await cmd('getDocumentText', diff!.original), 'old line\nsame\n');
    assert.equal(vscode.Uri.parse(diff!.modified!).fsPath, file('edited.txt'));

    await action(tabId, messageId, 'revert', 'edited.txt');
    await waitFor('the revert', () => fs.readFileSync(file('edited.txt'), 'utf8') === 'old line\nsame\n');
    await waitFor('the card to say so', async () => /Reverted: `ckpt-host\/edited.txt`/.test((await card())?.body ?? ''));
    shown = (await card())!;
    assert.deepEqual(shown.buttons, ['Review changes'], 'nothing left to revert');
  });

  test('a command that adds, changes and deletes files: Keep one, Revert all the rest, an unsaved editor is named and left alone', async () => {
    await agents({ ElizACP: { bypassPermissions: true } });
    const script = [
      `require('fs').writeFileSync('ckpt-host/added.txt', 'added')`,
      `require('fs').rmSync('ckpt-host/doomed.txt')`,
      `require('fs').writeFileSync('ckpt-host/unsaved.txt', 'by the command')`,
      `require('fs').writeFileSync('ckpt-host/edited.txt', 'kept change')`,
    ].join(';');
    const { messageId, card } = await turnWithCard(tabId, `run command node -e "${script}"`);
    const shown = (await card())!;
    assert.equal(shown.header, '4 files changed');
    assert.deepEqual(shown.files, ['ckpt-host/added.txt', 'ckpt-host/doomed.txt', 'ckpt-host/edited.txt', 'ckpt-host/unsaved.txt']);

    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file('unsaved.txt')));
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'typing '));
    assert.ok(editor.document.isDirty);

    await action(tabId, messageId, 'keep', 'edited.txt');
    await waitFor('Keep', async () => /Kept: `ckpt-host\/edited.txt`/.test((await card())?.body ?? ''));
    await action(tabId, messageId, 'revert-all');
    await waitFor('Revert all', async () => /unsaved\.txt has unsaved changes: not reverted/.test((await card())?.body ?? ''));
    assert.ok(!fs.existsSync(file('added.txt')), 'an added file goes');
    assert.equal(fs.readFileSync(file('doomed.txt'), 'utf8'), 'doomed\n', 'a deleted file comes back');
    assert.equal(fs.readFileSync(file('edited.txt'), 'utf8'), 'kept change', 'kept');
    assert.equal(fs.readFileSync(file('unsaved.txt'), 'utf8'), 'by the command', 'left alone');
    assert.match((await card())!.body, /Reverted: `ckpt-host\/added.txt`, `ckpt-host\/doomed.txt`/);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test("a write through the editor's fs/write shows up too; Review changes opens every file in one view", async () => {
    const { messageId, card } = await turnWithCard(tabId, 'write file ckpt-host/through-editor.txt with hello');
    assert.deepEqual((await card())!.files, ['ckpt-host/through-editor.txt']);
    await action(tabId, messageId, 'review');
    await waitFor('the review view', async () =>
      (await cmd<{ label: string }[]>('getOpenEditors')).some((e) => e.label.startsWith('Changes of the turn')),
    );
  });

  test('a turn that changes nothing shows no card', async () => {
    const messageId = await cmd<string>('sendPrompt', tabId, 'hello there');
    await waitForIdle(tabId);
    // The end-of-turn work for this tab runs in order: the next card (if any) comes after this turn's.
    const next = await turnWithCard(tabId, 'save file ckpt-host/after.txt with x');
    assert.ok(next.messageId);
    const quiet = (await rendered(tabId))?.find((i) => i.messageId === `notice:changes-${messageId}`);
    assert.equal(quiet, undefined, JSON.stringify(quiet));
  });
});
