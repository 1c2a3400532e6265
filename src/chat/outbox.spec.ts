import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { isConversationPayload, type IndexedHostMessage, type TabPayload } from '../protocol/webview';
import { Outbox, STREAM_POST_GAP_MS } from './outbox';
import { Transcript } from './transcript';

const T = 'tab-a',
  U = 'tab-b',
  M = 'msg-1';
const chunk = (tabId: string, text: string): TabPayload => ({
  type: 'agent-update',
  tabId,
  messageId: M,
  update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } as SessionUpdate,
});
const textOf = (m: IndexedHostMessage): string =>
  m.type === 'agent-update' && m.update.sessionUpdate === 'agent_message_chunk' && m.update.content.type === 'text'
    ? m.update.content.text
    : '';

/**
 * `turns`: flush by hand (`endTurn`, which runs every scheduled flush whatever its delay) instead
 * of at once. `delays` records each schedule's delay; `clock.now` is the outbox's time.
 */
function setup(limits?: { maxEntries: number; maxChars: number }, turns = false) {
  const posted: IndexedHostMessage[] = [];
  const transcript = new Transcript();
  const waiting: (() => void)[] = [];
  const delays: number[] = [];
  const clock = { now: 0 };
  const outbox = new Outbox(
    (m) => posted.push(m),
    (t) => transcript.snapshot(t),
    limits,
    {
      schedule: (flush, delayMs) => {
        delays.push(delayMs);
        if (turns) waiting.push(flush);
        else flush();
      },
      now: () => clock.now,
    },
  );
  const endTurn = () => waiting.splice(0).forEach((f) => f());
  const push = (p: TabPayload) => {
    if (isConversationPayload(p)) transcript.record(p);
    outbox.push(p);
  };
  transcript.open(T, 'Chat');
  transcript.open(U, 'Chat 2');
  return { posted, outbox, push, transcript, endTurn, delays, clock };
}

describe('Outbox', () => {
  it('buffers until webview-ready, then replays in order with growing per-tab indices', () => {
    const { posted, outbox, push } = setup();
    push({ type: 'prompt-started', tabId: T, messageId: M, text: 'hi' });
    push({ type: 'prompt-started', tabId: U, messageId: M, text: 'yo' });
    push({ type: 'prompt-ended', tabId: T, messageId: M, stopReason: 'end_turn' });
    assert.equal(posted.length, 0);
    outbox.ready({}, [T, U]);
    assert.deepEqual(
      posted.filter((m) => m.tabId === T).map((m) => [m.type, m.index]),
      [
        ['prompt-started', 1],
        ['prompt-ended', 2],
      ],
    );
    assert.deepEqual(
      posted.filter((m) => m.tabId === U).map((m) => m.index),
      [1],
    );
  });

  it('posts at once while live and replays only what the webview has not seen', () => {
    const { posted, outbox, push } = setup();
    outbox.ready({}, [T]);
    push(chunk(T, 'a'));
    push(chunk(T, 'b'));
    push(chunk(T, 'c'));
    assert.deepEqual(posted.map(textOf), ['a', 'b', 'c']);
    outbox.pause(); // webview re-created; it had saved index 1 only
    posted.length = 0;
    outbox.ready({ [T]: 1 }, [T]);
    assert.deepEqual(
      posted.map((m) => [textOf(m), m.index]),
      [
        ['b', 2],
        ['c', 3],
      ],
    );
  });

  it('forgets acknowledged messages', () => {
    const { posted, outbox, push } = setup();
    outbox.ready({}, [T]);
    push(chunk(T, 'a'));
    push(chunk(T, 'b'));
    outbox.ack({ [T]: 2 });
    assert.equal(outbox.stats().tabs[T]?.entries, 0);
    posted.length = 0;
    outbox.pause();
    outbox.ready({ [T]: 2 }, [T]);
    assert.equal(posted.length, 0);
  });

  it('coalesces streamed chunks while hidden, never into an already posted message', () => {
    const { posted, outbox, push } = setup();
    outbox.ready({}, [T]);
    push(chunk(T, 'a')); // posted, index 1
    outbox.pause();
    for (const c of ['b', 'c', 'd']) push(chunk(T, c));
    assert.equal(outbox.stats().tabs[T]?.entries, 2);
    posted.length = 0;
    outbox.ready({ [T]: 1 }, [T]);
    assert.deepEqual(
      posted.map((m) => [textOf(m), m.index]),
      [['bcd', 4]],
    );
  });

  it('past its size limit drops the buffer and resynchronizes the tab from the transcript', () => {
    const { posted, outbox, push } = setup({ maxEntries: 3, maxChars: 1_000_000 });
    outbox.ready({}, [T, U]);
    outbox.pause();
    for (let i = 0; i < 10; i++) {
      push({ type: 'prompt-started', tabId: T, messageId: `m${i}`, text: `q${i}` });
      push({ type: 'prompt-ended', tabId: T, messageId: `m${i}`, stopReason: 'end_turn' });
    }
    push({ type: 'prompt-started', tabId: U, messageId: M, text: 'other tab' });
    const stats = outbox.stats().tabs[T]!;
    assert.equal(stats.entries, 0);
    assert.equal(stats.resyncPending, true);
    outbox.ready({}, [T, U]);
    const forT = posted.filter((m) => m.tabId === T);
    assert.equal(forT.length, 1);
    const resync = forT[0]!;
    assert.equal(resync.type, 'resync');
    assert.equal(resync.index, 21, 'the resync comes after every dropped index');
    assert.equal(resync.type === 'resync' && resync.entries.length, 20);
    assert.deepEqual(
      posted.filter((m) => m.tabId === U).map((m) => m.type),
      ['prompt-started'],
    );
    // After the resync, normal delivery resumes.
    push({ type: 'prompt-started', tabId: T, messageId: 'late', text: 'x' });
    assert.equal(posted[posted.length - 1]!.index, 22);
  });

  it('a resync that was posted but not saved is repeated', () => {
    const { posted, outbox, push } = setup({ maxEntries: 2, maxChars: 1_000_000 });
    for (let i = 0; i < 5; i++) push({ type: 'prompt-started', tabId: T, messageId: `m${i}`, text: 'q' });
    outbox.ready({}, [T]);
    outbox.pause();
    posted.length = 0;
    outbox.ready({}, [T]); // webview died before saving the resync
    assert.deepEqual(
      posted.map((m) => m.type),
      ['resync'],
    );
  });

  it('while live, drops only the oldest unacknowledged copies and resyncs if the webview then needs them', () => {
    const { posted, outbox, push } = setup({ maxEntries: 2, maxChars: 1_000_000 });
    outbox.ready({}, [T]);
    for (let i = 0; i < 5; i++) push({ type: 'prompt-started', tabId: T, messageId: `m${i}`, text: 'q' });
    assert.equal(posted.length, 5);
    assert.equal(outbox.stats().tabs[T]?.entries, 2);
    outbox.pause();
    posted.length = 0;
    outbox.ready({ [T]: 5 }, [T]); // saved everything: nothing to do
    assert.equal(posted.length, 0);
    outbox.pause();
    outbox.ready({ [T]: 1 }, [T]); // lost 2..5, of which 2..3 were dropped here
    assert.deepEqual(
      posted.map((m) => m.type),
      ['resync'],
    );
  });

  it('a tab the webview does not have is re-opened by a resync', () => {
    const { posted, outbox, push } = setup();
    push({ type: 'open-tab', tabId: U, title: 'Chat 2' });
    push({ type: 'prompt-started', tabId: U, messageId: M, text: 'hi' });
    outbox.ready({}, [T]);
    assert.deepEqual(
      posted.map((m) => [m.type, m.tabId]),
      [['resync', U]],
    );
    assert.equal(posted[0]?.type === 'resync' && posted[0].title, 'Chat 2');
  });

  it('forgets closed tabs', () => {
    const { posted, outbox, push, transcript } = setup();
    push({ type: 'prompt-started', tabId: T, messageId: M, text: 'hi' });
    outbox.forget(T);
    transcript.forget(T);
    outbox.ready({}, []);
    assert.equal(posted.length, 0);
  });

  it('while live, posts at the end of the turn, one message per streamed item for a burst of chunks', () => {
    const { posted, outbox, push, endTurn } = setup(undefined, true);
    outbox.ready({}, [T, U]);
    push({ type: 'prompt-started', tabId: T, messageId: 'p', text: 'hi' });
    for (let i = 1; i <= 1000; i++) push(chunk(T, `c${i} `));
    push(chunk(U, 'other tab'));
    assert.equal(posted.length, 0, 'nothing leaves during the turn');
    endTurn();
    assert.deepEqual(
      posted.map((m) => [m.type, m.tabId, m.index]),
      [
        ['prompt-started', T, 1],
        ['agent-update', T, 1001],
        ['agent-update', U, 1],
      ],
    );
    assert.equal(textOf(posted[1]!), Array.from({ length: 1000 }, (_, i) => `c${i + 1} `).join(''));
    // The next turn's chunk is a message of its own: what was posted is never changed.
    push(chunk(T, 'late'));
    endTurn();
    assert.deepEqual([posted.length, textOf(posted[3]!), posted[3]!.index], [4, 'late', 1002]);
  });

  it(`while live, a stream's further chunks leave at most every ${STREAM_POST_GAP_MS} ms, merged; its first chunk and anything else leave at the end of the turn`, () => {
    const { posted, outbox, push, endTurn, delays, clock } = setup(undefined, true);
    outbox.ready({}, [T]);
    push({ type: 'prompt-started', tabId: T, messageId: 'p', text: 'hi' });
    endTurn();
    clock.now = 5;
    push(chunk(T, 'first '));
    assert.deepEqual(delays, [0, 0], 'the first chunk of an item is not held back');
    endTurn();
    clock.now = 15;
    push(chunk(T, 'a'));
    clock.now = 30;
    push(chunk(T, 'b'));
    assert.deepEqual(delays, [0, 0, STREAM_POST_GAP_MS - 10], 'one flush when the gap is over, not one per chunk');
    clock.now = 5 + STREAM_POST_GAP_MS; // the timer runs
    endTurn();
    assert.deepEqual(
      posted.map((m) => [m.type, textOf(m)]),
      [
        ['prompt-started', ''],
        ['agent-update', 'first '],
        ['agent-update', 'ab'],
      ],
    );
    // A chunk once the gap is over leaves at the end of the turn.
    clock.now += STREAM_POST_GAP_MS + 1;
    push(chunk(T, 'c'));
    assert.equal(delays.at(-1), 0);
    endTurn();
    // Within the gap, the turn's end (or a tool call) does not wait: it leaves at once, after the chunks before it.
    clock.now += 5;
    push(chunk(T, 'd'));
    push({ type: 'prompt-ended', tabId: T, messageId: 'p', stopReason: 'end_turn' });
    assert.deepEqual(delays.slice(-2), [STREAM_POST_GAP_MS - 5, 0]);
    endTurn();
    assert.deepEqual(
      posted.slice(3).map((m) => [m.type, textOf(m)]),
      [
        ['agent-update', 'c'],
        ['agent-update', 'd'],
        ['prompt-ended', ''],
      ],
    );
  });

  it('whenPosted resolves after the end-of-turn post, at once when nothing waits, and also when the webview went away meanwhile', async () => {
    const { posted, outbox, push, endTurn } = setup(undefined, true);
    await outbox.whenPosted();
    outbox.ready({}, [T]);
    push(chunk(T, 'a'));
    let told = false;
    const done = outbox.whenPosted().then(() => (told = true));
    await Promise.resolve();
    assert.equal(told, false, 'not before the post');
    endTurn();
    await done;
    assert.equal(posted.length, 1);
    push(chunk(T, 'b'));
    outbox.pause();
    const kept = outbox.whenPosted();
    endTurn();
    await kept; // nothing posted: kept for the next ready
    assert.equal(posted.length, 1);
  });

  it('a message waiting for the end of the turn is kept when the webview goes away, and replayed', () => {
    const { posted, outbox, push, endTurn } = setup(undefined, true);
    outbox.ready({}, [T]);
    push(chunk(T, 'a'));
    push(chunk(T, 'b'));
    outbox.pause();
    endTurn();
    assert.equal(posted.length, 0);
    push(chunk(T, 'c'));
    outbox.ready({}, [T]);
    assert.deepEqual(
      posted.map((m) => [textOf(m), m.index]),
      [['abc', 3]],
    );
  });

  it('while live, the size limit never drops a message that was not posted yet', () => {
    const { posted, outbox, push, endTurn } = setup({ maxEntries: 3, maxChars: 1_000_000 }, true);
    outbox.ready({}, [T]);
    for (let i = 1; i <= 10; i++) push({ type: 'prompt-started', tabId: T, messageId: `p${i}`, text: `${i}` });
    endTurn();
    assert.deepEqual(
      posted.map((m) => m.index),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.equal(outbox.stats().tabs[T]?.entries, 3, 'only the newest copies are kept once posted');
  });

  it('a closed tab loses what waited for the end of the turn; a resync is not followed by older messages', () => {
    const { posted, outbox, push, endTurn, transcript } = setup({ maxEntries: 2, maxChars: 1_000_000 }, true);
    outbox.ready({}, [T, U]);
    push(chunk(T, 'to a tab that closes'));
    push({ type: 'prompt-started', tabId: U, messageId: 'p1', text: '1' });
    outbox.forget(T);
    transcript.forget(T);
    outbox.pause(); // U's message waits; then U overflows while hidden
    for (let i = 2; i <= 4; i++) push({ type: 'prompt-started', tabId: U, messageId: `p${i}`, text: `${i}` });
    outbox.ready({}, [U]);
    endTurn();
    assert.deepEqual(
      posted.map((m) => [m.type, m.tabId]),
      [['resync', U]],
    );
  });
});
