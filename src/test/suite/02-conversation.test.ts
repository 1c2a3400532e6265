import * as assert from 'node:assert/strict';
import { STORY } from '../../../conductor/eliza/demos';
import { answerText, captureLog, cmd, expectedReply, extension, newTab, openChat, rendered, tabs, waitFor, waitForIdle } from '../helpers';

suite('conversation', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('a prompt gets the exact deterministic ElizACP reply, streamed into the webview', async () => {
    const tabId = await newTab();
    const prompt = 'I feel a little anxious about my code';
    await cmd('startCapturingResponses', tabId);
    const messageId = await cmd<string>('sendPrompt', tabId, prompt);
    assert.equal(await cmd('hasActivePrompt', tabId), true);
    await waitForIdle(tabId);
    assert.equal(await cmd('hasActivePrompt', tabId), false);
    assert.equal(await cmd('stopCapturingResponses', tabId), expectedReply(prompt));
    const items = (await rendered(tabId))!;
    assert.ok(
      items.some((i) => i.type === 'prompt' && i.messageId === `${messageId}:prompt`),
      'the prompt is shown',
    );
    assert.equal(answerText(items, messageId), expectedReply(prompt));
  });

  test('two tabs have separate sessions in one shared agent process and stream concurrently', async () => {
    const [a, b] = [await newTab(), await newTab()];
    const info = (await tabs()).filter((t) => t.tabId === a || t.tabId === b);
    assert.equal(info.length, 2);
    assert.notEqual(info[0]!.sessionId, info[1]!.sessionId);
    const processes = await cmd<unknown[]>('getAgentProcesses');
    assert.equal(processes.length, 1, 'equal configurations share one conductor');
    await cmd('startCapturingResponses', a);
    await cmd('startCapturingResponses', b);
    const story = await cmd<string>('sendPrompt', a, 'tell me a long story');
    await waitFor('the story to start', async () => (await cmd<string>('getResponse', a)).length > 0);
    const hello = await cmd<string>('sendPrompt', b, 'Hello there');
    await waitForIdle(b);
    assert.equal(await cmd('hasActivePrompt', a), true, 'tab B answered while tab A was still streaming');
    await waitForIdle(a);
    assert.equal(await cmd('getResponse', a), STORY.join(''));
    assert.equal(await cmd('getResponse', b), expectedReply('Hello there'));
    assert.equal(answerText((await rendered(a))!, story), STORY.join(''));
    assert.equal(answerText((await rendered(b))!, hello), expectedReply('Hello there'));
  });

  test('prompts within a session run one after the other', async () => {
    const tabId = await newTab();
    await cmd('startCapturingResponses', tabId);
    await cmd('sendPrompt', tabId, 'stream 20 chunks');
    await cmd('sendPrompt', tabId, 'I am happy');
    await waitForIdle(tabId);
    const text = await cmd<string>('getResponse', tabId);
    assert.ok(text.endsWith(expectedReply('I am happy')), 'the second reply follows the first, not interleaved');
    assert.ok(text.length > expectedReply('I am happy').length);
  });

  test('Stop cancels a streaming reply', async () => {
    const log = captureLog(await extension().activate());
    try {
      const tabId = await newTab();
      await cmd('startCapturingResponses', tabId);
      const messageId = await cmd<string>('sendPrompt', tabId, 'tell me a long story');
      await waitFor('some of the story', async () => (await cmd<string>('getResponse', tabId)).length > 20);
      await cmd('postFromWebview', { type: 'cancel', tabId });
      await waitForIdle(tabId);
      const text = await cmd<string>('getResponse', tabId);
      assert.ok(text.length < STORY.join('').length, 'stopped part-way');
      const ended = log.events.find(
        (e) => e.category === 'prompt' && e.message === 'ended' && (e.data as { messageId?: string }).messageId === messageId,
      );
      assert.equal((ended?.data as { stopReason?: string }).stopReason, 'cancelled');
      const items = (await rendered(tabId))!;
      assert.ok(items.some((i) => i.messageId === `${messageId}:end` && /Stopped/.test(i.body)));
    } finally {
      log.dispose();
    }
  });

  test('closing a tab ends its session', async () => {
    const log = captureLog(await extension().activate());
    try {
      const tabId = await newTab();
      const sessionId = (await tabs()).find((t) => t.tabId === tabId)!.sessionId;
      await cmd('postFromWebview', { type: 'close-tab', tabId });
      assert.equal(
        (await tabs()).some((t) => t.tabId === tabId),
        false,
      );
      const closed = log.events.find((e) => e.category === 'session' && e.message === 'tab closed');
      assert.equal((closed?.data as { sessionId?: string }).sessionId, sessionId);
    } finally {
      log.dispose();
    }
  });
});
