// Input for a turn that is running, in the real host with ElizACP. A rejection can carry the
// user's words, which reach the agent right after the reject option — steered into the same turn
// when the agent takes that (`--steering`), else before the text of the next prompt — and the
// approval card says which; words never ride on an approval. A prompt sent while a turn runs is
// queued (the default); where the agent steers, the queued card also offers "Send now (steer)",
// which puts it into the running turn, shown there as the user's message.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PendingPermission } from '../../permissions/permissionBroker';
import {
  answerText,
  cmd,
  extension,
  newTab as openTab,
  openChat,
  permissionCards,
  rendered,
  renderedTabStore,
  waitFor,
  waitForIdle,
} from '../helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('symposium');
/** The tabs this suite opened, closed at its end (the webview holds a limited number of tabs). */
const opened: string[] = [];
const newTab = async (): Promise<string> => {
  const tabId = await openTab();
  opened.push(tabId);
  return tabId;
};
const pending = (tabId: string): Thenable<PendingPermission[]> => cmd('getPendingPermissions', tabId);

async function useEliza(flags: string[]): Promise<void> {
  const name = flags.length ? `Eliza ${flags.join(' ')}` : 'Eliza plain';
  await config().update(
    'agents',
    {
      [name]: {
        command: process.execPath,
        args: [`${extension().extensionPath}/out/conductor.js`, 'eliza', '--deterministic', ...flags],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
    },
    vscode.ConfigurationTarget.Global,
  );
  await config().update('currentAgent', name, vscode.ConfigurationTarget.Global);
}

async function ask(tabId: string, text: string): Promise<string> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitForIdle(tabId);
  return answerText((await rendered(tabId))!, messageId);
}

/** Asks for a permission and rejects it with `feedback`; returns the turn's answer and its card. */
async function rejectWithFeedback(tabId: string, feedback: string): Promise<{ answer: string; card: string }> {
  const messageId = await cmd<string>('sendPrompt', tabId, 'request permission for drop the production table kind delete');
  await waitFor('the permission request', async () => (await pending(tabId)).length === 1);
  const [request] = await pending(tabId);
  await cmd('postFromWebview', { type: 'permission-answer', tabId, requestId: request!.requestId, optionId: 'reject-once', feedback });
  await waitForIdle(tabId);
  await waitFor('the card to say where the words went', async () =>
    /feedback/.test(permissionCards((await rendered(tabId))!, messageId)[0]?.body ?? ''),
  );
  const items = (await rendered(tabId))!;
  return { answer: answerText(items, messageId), card: permissionCards(items, messageId)[0]!.body };
}

suite('steering and feedback', () => {
  suiteSetup(async () => {
    await openChat();
  });
  suiteTeardown(async () => {
    for (const tabId of opened.splice(0)) await cmd('closeTab', tabId);
    await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    await config().update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
  });

  test('reject with feedback, agent that steers: the words reach the same turn, and the card says so', async () => {
    await useEliza(['--steering']);
    const tabId = await newTab();
    const { answer, card } = await rejectWithFeedback(tabId, 'use the test database instead');
    assert.equal(answer, 'Permission outcome: selected reject-once\n\nYou said while I was working: "use the test database instead".');
    assert.match(card, /Rejected: Reject once, by you\. Your feedback went to the agent as your next message in this turn/);
  });

  test('reject with feedback, agent that does not steer: the words go before the next prompt, and the card says so; never with an approval', async () => {
    await useEliza([]);
    const tabId = await newTab();
    const { answer, card } = await rejectWithFeedback(tabId, 'use the test database instead');
    assert.equal(answer, 'Permission outcome: selected reject-once');
    assert.match(card, /does not take messages during a turn: your feedback goes before your next prompt/);
    await ask(tabId, 'hello');
    assert.equal(
      await ask(tabId, 'what was my previous prompt'),
      JSON.stringify(['About the tool call I rejected ("drop the production table"): use the test database instead', 'hello']),
    );
    // Words with an allow option are refused, and the request stays open for a real answer.
    const messageId = await cmd<string>('sendPrompt', tabId, 'request permission');
    await waitFor('the permission request', async () => (await pending(tabId)).length === 1);
    const [request] = await pending(tabId);
    await cmd('postFromWebview', {
      type: 'permission-answer',
      tabId,
      requestId: request!.requestId,
      optionId: 'allow-once',
      feedback: 'and more',
    });
    await waitFor('the refusal', async () => (await rendered(tabId))!.some((i) => /Feedback goes only with a rejection/.test(i.body)));
    assert.equal((await pending(tabId)).length, 1, 'still waiting for an answer');
    await cmd('postFromWebview', { type: 'permission-answer', tabId, requestId: request!.requestId, optionId: 'reject-once' });
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, messageId), 'Permission outcome: selected reject-once');
  });

  test('a prompt sent during a turn is queued; where the agent steers, "Send now (steer)" puts it into the running turn', async function () {
    this.timeout(60_000);
    const queuedButtons = async (tabId: string): Promise<string[]> => (await renderedTabStore(tabId))?.queuedButtons ?? [];
    // The running turn waits on an approval, so it lasts as long as the test needs (a streamed
    // story could end before a slow machine gets to the queued card).
    const waitingTurn = async (tabId: string): Promise<{ messageId: string; requestId: string }> => {
      const messageId = await cmd<string>('sendPrompt', tabId, 'request permission');
      await waitFor('the approval card', async () => (await pending(tabId)).length === 1);
      return { messageId, requestId: (await pending(tabId))[0]!.requestId };
    };
    // An agent that does not steer: queued, with Edit only.
    await useEliza([]);
    const plain = await newTab();
    await waitingTurn(plain);
    await cmd<string>('sendPrompt', plain, 'I feel tired');
    await waitFor('the queued card', async () => (await queuedButtons(plain)).length > 0);
    assert.deepEqual(await queuedButtons(plain), ['Edit']);
    await cmd('postFromWebview', { type: 'cancel', tabId: plain });
    await waitForIdle(plain);

    await useEliza(['--steering']);
    const tabId = await newTab();
    const turn = await waitingTurn(tabId);
    const running = turn.messageId;
    await cmd<string>('sendPrompt', tabId, 'make it shorter');
    await waitFor('the steer button', async () => (await queuedButtons(tabId)).includes('Send now (steer)'));
    assert.deepEqual(await queuedButtons(tabId), ['Edit', 'Send now (steer)']);
    await cmd('postFromWebview', { type: 'steer-queued', tabId });
    await waitFor('the queue to empty', async () => (await queuedButtons(tabId)).length === 0);
    await waitFor('the steered message in the running turn', async () =>
      (await rendered(tabId))!.some((i) => i.type === 'prompt' && i.messageId.startsWith(`${running}:`) && i.body === 'make it shorter'),
    );
    await cmd('postFromWebview', { type: 'permission-answer', tabId, requestId: turn.requestId, optionId: 'allow-once' });
    await waitForIdle(tabId);
    const items = (await rendered(tabId))!;
    const steered = items.filter(
      (i) => i.messageId.startsWith(`${running}:`) && i.type === 'prompt' && i.messageId !== `${running}:prompt`,
    );
    assert.deepEqual(
      steered.map((i) => i.body),
      ['make it shorter'],
      "shown in the running turn as the user's message",
    );
    assert.match(answerText(items, running), /You said while I was working: "make it shorter"\.$/);
    assert.equal(items.filter((i) => i.type === 'prompt').length, 2, 'no second turn: the prompt was not also queued');
  });
});
