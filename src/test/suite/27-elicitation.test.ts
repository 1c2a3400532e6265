// The agent asks the user for input (ACP elicitation/create), in the real host with ElizACP: a
// form card whose answer is checked against the schema before it is sent (a missing required field
// is refused with a notice and the card stays), Decline, a pending form that survives hiding and
// re-creating the webview; a URL card that opens only on a click and closes on
// elicitation/complete; and what cannot be shown (a schema field of type object, a javascript: URL)
// answered with an error the agent reads, never a hang.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RenderedItem } from '../../protocol/webview';
import { answerText, cmd, extension, newTab as openTab, openChat, rendered, viewState, waitFor, waitForIdle } from '../helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('symposium');
/** The tabs this suite opened, closed at its end (the webview holds a limited number of tabs). */
const opened: string[] = [];
const newTab = async (): Promise<string> => {
  const tabId = await openTab();
  opened.push(tabId);
  return tabId;
};

const askCards = (items: RenderedItem[], messageId: string): RenderedItem[] =>
  items.filter((i) => i.messageId.startsWith(`${messageId}:ask:`));

async function askAndWait(tabId: string, text: string): Promise<{ messageId: string; requestId: string }> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitFor('the card', async () => askCards((await rendered(tabId)) ?? [], messageId).length === 1, 30_000);
  const card = askCards((await rendered(tabId))!, messageId)[0]!;
  return { messageId, requestId: card.messageId.slice(`${messageId}:ask:`.length) };
}
const answer = (tabId: string, requestId: string, action: string, values?: Record<string, string>): Thenable<unknown> =>
  cmd('postFromWebview', { type: 'elicitation-answer', tabId, requestId, action, ...(values ? { values } : {}) });

async function ask(tabId: string, text: string): Promise<string> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitForIdle(tabId);
  return answerText((await rendered(tabId))!, messageId);
}

suite('elicitation', () => {
  // An agent of its own, so what earlier suites left running or configured does not matter.
  suiteSetup(async () => {
    await openChat();
    const args = [`${extension().extensionPath}/out/conductor.js`, 'eliza', '--deterministic'];
    await config().update(
      'agents',
      { 'Eliza forms': { command: process.execPath, args, env: { ELECTRON_RUN_AS_NODE: '1' } } },
      vscode.ConfigurationTarget.Global,
    );
    await config().update('currentAgent', 'Eliza forms', vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    for (const tabId of opened.splice(0)) await cmd('closeTab', tabId);
    await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    await config().update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a form card: checked against the schema before it is sent, kept across hide/show, submitted; Decline', async function () {
    // Three turns and a webview re-created: more than the default 30 s on a loaded machine.
    this.timeout(90_000);
    const tabId = await newTab();
    const { messageId, requestId } = await askAndWait(tabId, 'ask me a form');
    const card = askCards((await rendered(tabId))!, messageId)[0]!;
    assert.match(card.header ?? '', /Project details/);
    assert.match(card.body, /Tell me about your project/);
    assert.deepEqual(card.buttons, ['Submit', 'Decline', 'Cancel']);
    // A required field left empty: refused, and the card still waits.
    await answer(tabId, requestId, 'accept', { name: '', language: 'ts' });
    await waitFor('the refusal', async () => (await rendered(tabId))!.some((i) => /Not sent: Project name: this is required/.test(i.body)));
    await cmd('hideView');
    await waitFor('the view to be hidden', async () => !(await viewState()).live);
    await cmd('showView');
    await waitFor('the webview to be ready again', async () => (await viewState()).live);
    assert.deepEqual(
      askCards((await rendered(tabId))!, messageId)[0]?.buttons,
      ['Submit', 'Decline', 'Cancel'],
      'still waiting after re-creation',
    );
    await answer(tabId, requestId, 'accept', {
      name: 'symposium',
      language: 'rust',
      size: '4',
      budget: '',
      tests: 'true',
      'targets#0': 'true',
      'targets#2': 'true',
    });
    await waitForIdle(tabId);
    const items = (await rendered(tabId))!;
    assert.equal(
      answerText(items, messageId),
      'Form answer: accept {"name":"symposium","language":"rust","size":4,"tests":true,"targets":["linux","windows"]}',
    );
    assert.equal(askCards(items, messageId)[0]?.status, 'Submitted');

    const declined = await askAndWait(tabId, 'ask me a form');
    await answer(tabId, declined.requestId, 'decline');
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, declined.messageId), 'Form answer: decline');
  });

  test('a URL card opens only on a click and closes on elicitation/complete; what cannot be shown is an error, never a hang', async () => {
    const tabId = await newTab();
    const { messageId, requestId } = await askAndWait(tabId, 'ask me to open a url https://example.com/sign-in');
    const card = askCards((await rendered(tabId))!, messageId)[0]!;
    assert.match(card.body, /https:\/\/example\.com\/sign-in/);
    assert.match(card.body, /Site: \*\*example\.com\*\*/);
    assert.deepEqual(card.buttons, ['Open example.com', 'Decline', 'Cancel']);
    assert.equal(await cmd('hasActivePrompt', tabId), true, 'nothing was opened: the agent still waits');
    await answer(tabId, requestId, 'open');
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, messageId), 'URL answer: accept');
    await waitFor('the card to close', async () => askCards((await rendered(tabId))!, messageId)[0]?.status === 'Done');

    assert.match(
      await ask(tabId, 'ask me to open a url javascript:alert(1)'),
      /^URL error: .*Symposium cannot show this elicitation: the URL is not an http\(s\) address/,
    );
    assert.match(
      await ask(tabId, 'ask me a raw form {"type":"object","properties":{"where":{"type":"object"}}}'),
      /^Form error: .*the field "where" has a type this client cannot show/,
    );
    assert.ok(
      (await rendered(tabId))!.some((i) => /The agent asked for input the chat cannot show/.test(i.body)),
      'the tab says so too',
    );
  });
});
