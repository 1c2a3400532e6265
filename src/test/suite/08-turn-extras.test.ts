// The rest of a prompt turn in the real host — plans, thoughts, slash commands, mode / config /
// model pickers reaching the agent (ElizACP's `what mode` reports what it has), stop reasons and
// failed prompts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { respond } from '../../../conductor/eliza/engine';
import { answerText, cmd, extension, newTab, openChat, rendered, renderedTabStore, waitFor, waitForIdle } from '../helpers';
import type { SessionControls } from '../../protocol/webview';

async function ask(tabId: string, text: string): Promise<{ messageId: string; answer: string }> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitForIdle(tabId);
  return { messageId, answer: answerText((await rendered(tabId))!, messageId) };
}
const controls = (tabId: string): Thenable<SessionControls | undefined> => cmd('getSessionControls', tabId);

suite('the rest of a turn', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('a plan is one checklist card updated in place', async () => {
    const tabId = await newTab();
    const { messageId, answer } = await ask(tabId, 'show plan');
    assert.equal(answer, 'All three steps of the plan are completed.');
    const plans = (await rendered(tabId))!.filter((i) => i.messageId === `${messageId}:plan`);
    assert.equal(plans.length, 1);
    assert.equal(plans[0]?.status, '3/3 done');
    assert.equal((plans[0]?.body.match(/☑/g) ?? []).length, 3);
  });

  test('thoughts are a collapsed Thinking section before the answer', async () => {
    const tabId = await newTab();
    const { messageId, answer } = await ask(tabId, 'think about my flaky tests');
    assert.equal(answer, respond('my flaky tests', { deterministic: true }));
    const thought = (await rendered(tabId))!.find((i) => i.messageId.startsWith(`${messageId}:`) && /Thinking/.test(i.header ?? ''));
    assert.ok(thought, 'a Thinking section');
    assert.ok((thought.details ?? '').length > 0, 'the thoughts are inside it');
  });

  test("slash commands from available_commands_update are in the tab's / menu; /plan runs the plan", async () => {
    const tabId = await newTab();
    await waitFor('the commands', async () => ((await renderedTabStore(tabId))?.commands.length ?? 0) > 0);
    assert.deepEqual((await renderedTabStore(tabId))!.commands, ['/help', '/story', '/plan']);
    const { messageId } = await ask(tabId, '/plan');
    assert.equal((await rendered(tabId))!.filter((i) => i.messageId === `${messageId}:plan`).length, 1);
  });

  test('mode and model pickers: a change reaches the agent and moves the picker', async () => {
    const tabId = await newTab();
    const store = (await renderedTabStore(tabId))!;
    assert.deepEqual(
      store.pickers.map((p) => [p.id, p.value]),
      [
        ['mode', 'ask'],
        ['config:model', 'eliza-classic'],
      ],
    );
    assert.deepEqual(store.pickers[0]?.options, ['ask', 'code', 'architect']);
    await cmd('postFromWebview', { type: 'set-mode', tabId, modeId: 'code' });
    await waitFor('the mode', async () => (await controls(tabId))?.modes?.currentModeId === 'code');
    await cmd('postFromWebview', { type: 'set-config-option', tabId, configId: 'model', value: 'eliza-verbose' });
    await waitFor('the model', async () => (await controls(tabId))?.configOptions?.[0]?.currentValue === 'eliza-verbose');
    assert.equal((await ask(tabId, 'what mode')).answer, 'Mode: code. Model: eliza-verbose.');
    await waitFor(
      'the pickers to follow',
      async () => JSON.stringify((await renderedTabStore(tabId))?.pickers.map((p) => p.value)) === '["code","eliza-verbose"]',
    );
  });

  test('a change the agent refuses leaves the picker and says why', async () => {
    const tabId = await newTab();
    await cmd('postFromWebview', { type: 'set-mode', tabId, modeId: 'no-such-mode' });
    await waitFor('the notice', async () => (await rendered(tabId))!.some((i) => /refused the change/.test(i.body)));
    assert.equal((await controls(tabId))?.modes?.currentModeId, 'ask');
    assert.equal((await renderedTabStore(tabId))?.pickers[0]?.value, 'ask');
  });

  test('the older session/set_model picker, for agents that send `models`', async () => {
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    await config.update(
      'agents',
      {
        'Eliza (legacy models)': {
          command: process.execPath,
          args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic', '--legacy-models'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    await config.update('currentAgent', 'Eliza (legacy models)', vscode.ConfigurationTarget.Global);
    try {
      const tabId = await newTab();
      assert.deepEqual(
        (await renderedTabStore(tabId))!.pickers.map((p) => [p.id, p.value]),
        [
          ['mode', 'ask'],
          ['model', 'eliza-classic'],
        ],
      );
      await cmd('postFromWebview', { type: 'set-model', tabId, modelId: 'eliza-verbose' });
      await waitFor('the model', async () => (await controls(tabId))?.models?.currentModelId === 'eliza-verbose');
      assert.equal((await ask(tabId, 'what mode')).answer, 'Mode: ask. Model: eliza-verbose.');
    } finally {
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('stop reasons other than a normal end are shown; a failed prompt shows its error', async () => {
    const tabId = await newTab();
    const refused = await ask(tabId, 'stop with refusal');
    const tokens = await ask(tabId, 'stop with max tokens');
    const failed = await ask(tabId, 'fail this prompt with the model is overloaded');
    const items = (await rendered(tabId))!;
    const end = (id: string) => items.find((i) => i.messageId === `${id}:end`);
    assert.equal(end(refused.messageId)?.body, '_The agent refused to continue._');
    assert.match(end(tokens.messageId)?.body ?? '', /token limit/);
    assert.match(end(failed.messageId)?.body ?? '', /^\*\*The prompt failed\.\*\* .*the model is overloaded/);
    assert.equal((await ask(tabId, 'Hello')).answer, respond('Hello', { deterministic: true }), 'the session works after a failed prompt');
  });
});
