// Tool calls and permissions in the real host: tool-call cards and the permission flow (approve, deny, bypass,
// auto-approval by kind, cancel and close while pending, pending across hide/show), with the
// decision log. ElizACP's `request permission` hook sends a tool_call, asks, replies with the
// outcome and completes or fails the tool call.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PendingPermission, DecisionRecord } from '../../permissions/permissionBroker';
import { answerText, cmd, newTab, openChat, permissionCards, rendered, toolCards, viewState, waitFor, waitForIdle } from '../helpers';

const pending = (tabId: string): Thenable<PendingPermission[]> => cmd('getPendingPermissions', tabId);
const decisions = (): Thenable<DecisionRecord[]> => cmd('getPermissionDecisions');
const answer = (tabId: string, requestId: string, choice: { optionId: string } | { bypass: true }): Thenable<unknown> =>
  cmd('postFromWebview', { type: 'permission-answer', tabId, requestId, ...choice });

async function askAndWait(tabId: string, prompt: string): Promise<{ messageId: string; request: PendingPermission }> {
  const messageId = await cmd<string>('sendPrompt', tabId, prompt);
  await waitFor('the permission request', async () => (await pending(tabId)).length === 1);
  const request = (await pending(tabId))[0]!;
  return { messageId, request };
}

async function resetAgents(): Promise<void> {
  await vscode.workspace.getConfiguration('symposium').update('agents', undefined, vscode.ConfigurationTarget.Global);
}

suite('tool calls and permissions', () => {
  suiteSetup(async () => {
    await openChat();
    await resetAgents();
  });
  suiteTeardown(resetAgents);

  test("a tool call is one card updated in place; its diff opens in VS Code's diff view", async () => {
    const tabId = await newTab();
    const messageId = await cmd<string>('sendPrompt', tabId, 'demo tool call');
    await waitForIdle(tabId);
    const items = (await rendered(tabId))!;
    const cards = toolCards(items, messageId);
    assert.equal(cards.length, 1, 'one card for the tool call and its two updates');
    const card = cards[0]!;
    assert.match(card.header ?? '', /eliza-demo\.ts/);
    assert.equal(card.status, 'Completed');
    assert.deepEqual(card.buttons, ['Open diff: eliza-demo.ts']);
    assert.match(card.details ?? '', /```diff[\s\S]*\n-.*\n\+.*hello, world/);
    assert.match(answerText(items, messageId), /^I pretended to edit/);
    // Open diff, as the card's button does.
    const toolCallId = card.messageId.slice(`${messageId}:tool:`.length);
    const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'src/eliza-demo.ts');
    await cmd('postFromWebview', { type: 'open-diff', tabId, toolCallId, path: file });
    type Ed = { kind: string; label: string; original?: string; modified?: string };
    await waitFor('the diff editor', async () =>
      (await cmd<Ed[]>('getOpenEditors')).some((e) => e.kind === 'diff' && e.label.includes('eliza-demo.ts')),
    );
    const diff = (await cmd<Ed[]>('getOpenEditors')).find((e) => e.kind === 'diff' && e.label.includes('eliza-demo.ts'))!;
    assert.match(diff.original!, /^symposium-diff:/);
    assert.match(await cmd<string>('getDocumentText', diff.modified), /hello, world/);
    assert.doesNotMatch(await cmd<string>('getDocumentText', diff.original), /hello, world/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a partial tool_call_update keeps the title; locations open the file at the line', async () => {
    const tabId = await newTab();
    const messageId = await cmd<string>('sendPrompt', tabId, 'demo read tool');
    await waitForIdle(tabId);
    const card = toolCards((await rendered(tabId))!, messageId)[0]!;
    assert.match(card.header ?? '', /Read .*README\.md/);
    assert.equal(card.status, 'Completed');
    assert.match(card.details ?? '', /# Title/);
    const readme = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'README.md');
    assert.deepEqual(card.files, [readme]);
    await cmd('postFromWebview', { type: 'open-location', tabId, path: readme, line: 1 });
    await waitFor('README.md to open', () => vscode.window.activeTextEditor?.document.uri.fsPath === readme);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test("approve: the card shows the agent's options, then the decision; the tool call completes", async () => {
    const tabId = await newTab();
    const { messageId, request } = await askAndWait(tabId, 'request permission for deploy the app');
    assert.equal(request.title, 'deploy the app');
    await waitFor('the approval card', async () => permissionCards((await rendered(tabId))!, messageId).length === 1);
    const card = permissionCards((await rendered(tabId))!, messageId)[0]!;
    assert.deepEqual(card.buttons, ['Allow once', 'Allow always', 'Reject once', 'Reject always', 'Bypass Permissions']);
    assert.match(card.header ?? '', /Permission needed: deploy the app/);
    assert.match(card.body, /\*\*Edit\*\* requested/);
    assert.equal(await cmd('hasActivePrompt', tabId), true, 'the agent waits for the answer');
    await answer(tabId, request.requestId, { optionId: 'allow-once' });
    await waitForIdle(tabId);
    const items = (await rendered(tabId))!;
    assert.equal(answerText(items, messageId), 'Permission outcome: selected allow-once');
    const decided = permissionCards(items, messageId)[0]!;
    assert.equal(decided.status, 'Allowed');
    assert.equal(decided.buttons, undefined, 'no buttons once decided');
    assert.match(decided.body, /Allowed: Allow once, by you/);
    assert.equal(toolCards(items, messageId)[0]?.status, 'Completed');
    const last = (await decisions()).at(-1)!;
    assert.equal(last.tool, 'deploy the app');
    assert.equal(last.agent, 'ElizACP');
    assert.deepEqual(last.decision, {
      outcome: 'selected',
      optionId: 'allow-once',
      optionName: 'Allow once',
      optionKind: 'allow_once',
      by: 'user',
    });
    await vscode.commands.executeCommand('symposium.showPermissionDecisions');
  });

  test('deny: the tool call fails', async () => {
    const tabId = await newTab();
    const { messageId, request } = await askAndWait(tabId, 'request permission');
    await answer(tabId, request.requestId, { optionId: 'reject-once' });
    await waitForIdle(tabId);
    const items = (await rendered(tabId))!;
    assert.equal(answerText(items, messageId), 'Permission outcome: selected reject-once');
    assert.equal(permissionCards(items, messageId)[0]?.status, 'Rejected');
    assert.equal(toolCards(items, messageId)[0]?.status, 'Failed');
  });

  test('Bypass Permissions approves, writes bypassPermissions for the agent, and the next request is approved at once', async () => {
    const tabId = await newTab();
    const { request } = await askAndWait(tabId, 'request permission');
    await answer(tabId, request.requestId, { bypass: true });
    await waitForIdle(tabId);
    await waitFor(
      'the setting',
      () =>
        vscode.workspace.getConfiguration('symposium').get<Record<string, { bypassPermissions?: boolean }>>('agents')?.ElizACP
          ?.bypassPermissions === true,
    );
    const second = await cmd<string>('sendPrompt', tabId, 'request permission for the second edit');
    await waitForIdle(tabId);
    const items = (await rendered(tabId))!;
    assert.equal(answerText(items, second), 'Permission outcome: selected allow-once');
    assert.match(permissionCards(items, second)[0]?.body ?? '', /automatically \(Bypass Permissions\)/);
    const d = (await decisions()).at(-1)!.decision;
    assert.ok(d.outcome === 'selected' && d.by === 'bypass');
    await resetAgents();
  });

  test('auto-approval by tool kind: reads pass, edits still ask', async () => {
    await vscode.workspace
      .getConfiguration('symposium')
      .update('agents', { ElizACP: { autoApprove: ['read'] } }, vscode.ConfigurationTarget.Global);
    try {
      const tabId = await newTab();
      const read = await cmd<string>('sendPrompt', tabId, 'request permission for look around kind read');
      await waitForIdle(tabId);
      assert.equal(answerText((await rendered(tabId))!, read), 'Permission outcome: selected allow-once');
      const d = (await decisions()).at(-1)!.decision;
      assert.ok(d.outcome === 'selected' && d.by === 'auto-approve');
      const { request } = await askAndWait(tabId, 'request permission for an edit');
      assert.equal(request.kind, 'edit');
      await answer(tabId, request.requestId, { optionId: 'reject-once' });
      await waitForIdle(tabId);
    } finally {
      await resetAgents();
    }
  });

  test('Stop while an approval is pending answers it cancelled; the turn stops', async () => {
    const tabId = await newTab();
    const { messageId } = await askAndWait(tabId, 'request permission');
    await cmd('cancel', tabId);
    await waitForIdle(tabId);
    assert.deepEqual(await pending(tabId), []);
    const d = (await decisions()).at(-1)!.decision;
    assert.deepEqual(d, { outcome: 'cancelled', reason: 'the prompt was cancelled' });
    const items = (await rendered(tabId))!;
    assert.equal(permissionCards(items, messageId)[0]?.status, 'Cancelled');
    assert.ok(items.some((i) => i.messageId === `${messageId}:end` && i.body === '_Stopped._'));
  });

  test('closing the tab answers its pending approval cancelled', async () => {
    const tabId = await newTab();
    await askAndWait(tabId, 'request permission');
    await cmd('closeTab', tabId);
    await waitFor('the request to be answered', async () =>
      (await cmd<PendingPermission[]>('getPendingPermissions')).every((p) => p.tabId !== tabId),
    );
    assert.deepEqual((await decisions()).at(-1)!.decision, { outcome: 'cancelled', reason: 'the tab was closed' });
  });

  test('a pending approval survives hiding and re-creating the webview, and can be answered after', async () => {
    const tabId = await newTab();
    const { messageId, request } = await askAndWait(tabId, 'request permission for survive');
    await waitFor('the approval card', async () => permissionCards((await rendered(tabId))!, messageId).length === 1);
    await cmd('hideView');
    await waitFor('the view to be hidden', async () => !(await viewState()).live);
    await cmd('showView');
    await waitFor('the webview to be ready again', async () => (await viewState()).live);
    const card = permissionCards((await rendered(tabId))!, messageId)[0];
    assert.deepEqual(card?.buttons?.[0], 'Allow once', 'the restored card still offers its buttons');
    assert.equal((await pending(tabId)).length, 1);
    await answer(tabId, request.requestId, { optionId: 'allow-always' });
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, messageId), 'Permission outcome: selected allow-always');
  });
});
