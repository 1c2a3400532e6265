import * as assert from 'node:assert/strict';
import type { ChatItem, MynahUI } from '@aws/mynah-ui';
import { ItemType } from './mappers/chatItems';
import { sameValue, TabRenderer } from './renderer';
import { ManualTimers } from './test/manualTimers';

describe('renderer: sameValue (is a card unchanged?)', () => {
  it('compares JSON-like values deeply, as JSON.stringify equality would', () => {
    const cases: [unknown, unknown][] = [
      [
        { a: 1, b: [1, { c: 'x' }] },
        { b: [1, { c: 'x' }], a: 1 },
      ],
      [{ a: 1, skip: undefined }, { a: 1 }],
      [{ body: 'long '.repeat(1000) }, { body: 'long '.repeat(1000) }],
      [{ a: [1, 2] }, { a: [2, 1] }],
      [{ a: [] }, { a: {} }],
      [{ a: null }, { a: {} }],
      [{ a: 1 }, { a: '1' }],
      [{ a: { b: 1 } }, { a: { b: 1, c: 2 } }],
      [
        [1, 2],
        [1, 2, 3],
      ],
    ];
    for (const [a, b] of cases)
      assert.equal(sameValue(a, b), JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)), JSON.stringify([a, b]));
  });
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  return v;
}

describe('renderer: a streaming card', () => {
  /** Records what mynah is asked to do (the unit here is the renderer's pacing, not mynah). */
  function recorder() {
    const calls: string[] = [];
    const mynah = {
      addChatItem: (_t: string, item: ChatItem) => calls.push(`add ${item.body} (${item.type})`),
      updateChatAnswerWithMessageId: (_t: string, _id: string, item: Partial<ChatItem>) => calls.push(`update ${item.body} (${item.type})`),
    } as unknown as MynahUI;
    const timers = new ManualTimers();
    return { calls, timers, renderer: new TabRenderer(mynah, 'mynah-tab', timers) };
  }
  const streaming = (body: string): ChatItem => ({ type: ItemType.ANSWER_STREAM, messageId: 'm', body });

  it('is redrawn at most every 100 ms with the latest body, and at once when the stream ends', () => {
    const { calls, timers, renderer } = recorder();
    renderer.render([streaming('a')]);
    renderer.render([streaming('ab')]); // first update: at once
    for (const body of ['abc', 'abcd', 'abcde']) renderer.render([streaming(body)]);
    assert.deepEqual(calls, ['add a (answer)', 'update ab (answer)'], 'later updates wait; mynah gets plain answers');
    assert.equal(timers.pending, 1, 'one redraw waits');
    assert.ok(timers.asked[0]! > 0 && timers.asked[0]! <= 100, `it waits out the 100 ms since the last drawing (${timers.asked[0]} ms)`);
    timers.runAll();
    assert.deepEqual(calls, ['add a (answer)', 'update ab (answer)', 'update abcde (answer)'], 'then only the latest is drawn');
    renderer.render([streaming('abcdef')]);
    renderer.render([{ type: ItemType.ANSWER, messageId: 'm', body: 'abcdefg' }]);
    assert.deepEqual(calls.slice(3), ['update abcdefg (answer)'], 'the end is drawn at once, with the final text, in one call');
    timers.runAll();
    assert.equal(calls.length, 4, 'nothing stale is drawn after the end');
    assert.deepEqual([renderer.items()[0]?.type, renderer.items()[0]?.body], ['answer', 'abcdefg']);
  });

  it('draws nothing after dispose (the tab was closed or the page is going away)', () => {
    const { calls, timers, renderer } = recorder();
    renderer.render([streaming('a')]);
    renderer.render([streaming('ab')]);
    renderer.render([streaming('abc')]); // waits for its turn
    renderer.dispose();
    timers.runAll();
    assert.deepEqual(calls, ['add a (answer)', 'update ab (answer)']);
  });
});
