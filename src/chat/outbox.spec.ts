import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { isConversationPayload, type IndexedHostMessage, type TabPayload } from '../protocol/webview';
import { Outbox } from './outbox';
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

function setup(limits?: { maxEntries: number; maxChars: number }) {
  const posted: IndexedHostMessage[] = [];
  const transcript = new Transcript();
  const outbox = new Outbox(
    (m) => posted.push(m),
    (t) => transcript.snapshot(t),
    limits,
  );
  const push = (p: TabPayload) => {
    if (isConversationPayload(p)) transcript.record(p);
    outbox.push(p);
  };
  transcript.open(T, 'Chat');
  transcript.open(U, 'Chat 2');
  return { posted, outbox, push, transcript };
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
});
