import * as assert from 'node:assert/strict';
import { STORY } from '../../../conductor/eliza/demos';
import type { OutboxStats } from '../../chat/outbox';
import { answerText, captureLog, cmd, extension, newTab, openChat, rendered, viewState, waitFor, waitForIdle } from '../helpers';

suite('hidden webview', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('hiding the view mid-stream and showing it again: every chunk arrives exactly once', async () => {
    const log = captureLog(await extension().activate());
    try {
      const tabId = await newTab();
      await cmd('startCapturingResponses', tabId);
      const messageId = await cmd<string>('sendPrompt', tabId, 'tell me a long story');
      await waitFor('the story to start', async () => (await cmd<string>('getResponse', tabId)).length > 0);
      await cmd('hideView');
      await waitFor('the view to be hidden', async () => !(await viewState()).visible && !(await viewState()).live);
      // Several chunks stream while hidden, so the buffer below has several to coalesce.
      const chunksIn = (text: string): number => STORY.filter((_, k) => STORY.slice(0, k + 1).join('').length <= text.length).length;
      const chunksWhileHidden = chunksIn(await cmd<string>('getResponse', tabId));
      await waitFor(
        'the agent to keep streaming while hidden',
        async () => chunksIn(await cmd<string>('getResponse', tabId)) >= chunksWhileHidden + 3,
      );
      // Streamed chunks were coalesced in the buffer rather than queued one by one.
      const stats = await cmd<OutboxStats>('getOutboxStats');
      assert.equal(stats.tabs[tabId]?.buffered, 1, 'one buffered message holds every chunk streamed while hidden');
      await cmd('showView');
      await waitFor('the webview to be ready again', async () => (await viewState()).live);
      await waitForIdle(tabId);
      assert.equal(await cmd('stopCapturingResponses', tabId), STORY.join(''));
      // What the webview shows: the whole story, no chunk lost and none repeated.
      assert.equal(answerText((await rendered(tabId))!, messageId), STORY.join(''));
      // The page was rebuilt from its saved state (same tabs, lastSeenIndex restored), not reset.
      const ready = log.events.filter((e) => e.category === 'webview' && e.message === 'ready').pop()?.data as
        { lastSeenIndex: Record<string, number>; openTabs: string[] } | undefined;
      assert.ok(ready, 'the webview announced itself again after being shown');
      assert.ok(ready.openTabs.includes(tabId));
      assert.ok((ready.lastSeenIndex[tabId] ?? 0) > 0, 'it remembered what it had already seen');
    } finally {
      log.dispose();
    }
  });

  test('messages sent while hidden are replayed in order when the view is shown', async () => {
    const tabId = await newTab();
    await cmd('hideView');
    await waitFor('the view to be hidden', async () => !(await viewState()).live);
    const first = await cmd<string>('sendPrompt', tabId, 'I need help');
    const second = await cmd<string>('sendPrompt', tabId, 'My computer hates me');
    await waitForIdle(tabId);
    await cmd('showView');
    await waitFor('the webview to be ready again', async () => (await viewState()).live);
    const items = (await rendered(tabId))!;
    const order = items.map((i) => i.messageId);
    assert.ok(order.indexOf(`${first}:prompt`) < order.indexOf(`${second}:prompt`));
    assert.ok(order.indexOf(`${first}:0`) < order.indexOf(`${second}:prompt`));
  });
});
