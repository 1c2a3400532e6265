// ACP's newer stable messages in the real host, driven by ElizACP's hooks: the context meter and
// cost (`usage_update`; what cannot be shown is ignored with a log line), and a boolean config
// option as a switch under the prompt that sets the agent's option with `type: "boolean"`.
import * as assert from 'node:assert/strict';
import type { LogEvent } from '../../log/logEvent';
import type { SessionControls } from '../../protocol/webview';
import { answerText, captureLog, cmd, newTab, openChat, rendered, renderedTabStore, waitFor, waitForIdle } from '../helpers';

async function ask(tabId: string, text: string): Promise<string> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitForIdle(tabId);
  return answerText((await rendered(tabId))!, messageId);
}

suite('stable-schema messages', () => {
  let log: { events: LogEvent[]; dispose(): void };
  suiteSetup(async () => {
    log = captureLog(await openChat());
  });
  suiteTeardown(() => log?.dispose());

  test('usage_update: a context meter by the prompt (warning past 80 %) with the cost; malformed figures are ignored with a log line', async () => {
    const tabId = await newTab();
    assert.equal((await renderedTabStore(tabId))?.meter, undefined, 'no meter before the agent reports usage');
    await ask(tabId, 'report usage 1000 of 200000');
    await waitFor('the meter', async () => (await renderedTabStore(tabId))?.meter?.text === 'Context 1k of 200k tokens (1 %)');
    assert.deepEqual((await renderedTabStore(tabId))?.meter, {
      status: 'default',
      value: 1,
      text: 'Context 1k of 200k tokens (1 %)',
      valueText: '1 %',
    });
    await ask(tabId, 'report usage 170000 of 200000 costing 0.42 USD');
    await waitFor('the warning', async () => (await renderedTabStore(tabId))?.meter?.status === 'warning');
    const warned = (await renderedTabStore(tabId))!;
    assert.deepEqual(warned.meter, {
      status: 'warning',
      value: 85,
      text: 'Context 170k of 200k tokens (85 %)',
      valueText: 'Cost 0.42 USD',
    });
    assert.match(warned.info, /context 170k of 200k tokens \(85 %\) · 0\.42 USD/);

    // A size of 0 passes the SDK but cannot be shown: the host drops it and says so in its log.
    await ask(tabId, 'report raw usage {"used": 5, "size": 0}');
    await waitFor('the log line', async () => log.events.some((e) => e.message === 'usage_update ignored'));
    // A negative count never reaches us (the SDK refuses it); the chat goes on either way.
    await ask(tabId, 'report raw usage {"used": -5, "size": 100}');
    assert.equal(await ask(tabId, 'what mode'), 'Mode: ask. Model: eliza-classic.');
    assert.deepEqual((await renderedTabStore(tabId))?.meter, warned.meter, 'the meter keeps the last good figures');
  });

  test('a boolean config option is a switch under the prompt; flipping it sets the option in the agent', async () => {
    const tabId = await newTab();
    await ask(tabId, 'offer a toggle');
    const toggle = async () => (await renderedTabStore(tabId))?.pickers.find((p) => p.id === 'config:brief');
    await waitFor('the switch', async () => (await toggle())?.value === 'false');
    assert.equal((await toggle())?.type, 'switch');
    await cmd('postFromWebview', { type: 'set-config-option', tabId, configId: 'brief', value: true });
    await waitFor('the option', async () => {
      const controls = await cmd<SessionControls | undefined>('getSessionControls', tabId);
      return controls?.configOptions?.some((o) => o.id === 'brief' && o.currentValue === true) ?? false;
    });
    assert.equal(await ask(tabId, 'what mode'), 'Mode: ask. Model: eliza-classic. Brief replies: on.');
    await waitFor('the switch to follow', async () => (await toggle())?.value === 'true');
  });
});
