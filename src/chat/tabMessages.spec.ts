// The host → tab message channel: only open tabs get messages, each with the next per-tab index;
// the conversation is recorded for resyncs; the `@` menu is re-sent to every webview that loads.
import * as assert from 'node:assert/strict';
import { silentLog } from '../log/logEvent';
import type { HostToWebview, TabPayload } from '../protocol/webview';
import { TabMessages } from './tabMessages';

const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const started = (tabId: string, messageId: string): TabPayload => ({ type: 'prompt-started', tabId, messageId, text: 'hi' });

describe('TabMessages', () => {
  it('drops messages for tabs that are not open; indexes the others per tab', async () => {
    const m = new TabMessages(silentLog);
    const posted: HostToWebview[] = [];
    const sent: TabPayload[] = [];
    m.onDidSend((p) => sent.push(p));
    m.setPost((x) => posted.push(x));
    m.webviewReady({}, []);
    m.send(started(T1, 'a'));
    m.openTab(T1, 'Chat');
    m.openTab(T2, 'Chat');
    m.send(started(T1, 'b'));
    m.send(started(T2, 'c'));
    m.send(started(T1, 'd'));
    await m.whenPosted(); // live messages leave at the end of the turn they were sent in
    assert.deepEqual(
      posted.map((p) => ('index' in p ? [p.tabId, p.index] : p.type)),
      [
        [T1, 1],
        [T2, 1],
        [T1, 2],
      ],
    );
    assert.deepEqual(
      sent.map((p) => ('messageId' in p ? p.messageId : '')),
      ['b', 'c', 'd'],
    );
    m.closeTab(T1);
    assert.equal(m.isOpen(T1), false);
    m.send(started(T1, 'e'));
    assert.equal(posted.length, 3, 'nothing after close');
  });

  it('buffers while the webview is away, resyncs a tab the webview lost from the recorded conversation, re-sends the @ menu', () => {
    const m = new TabMessages(silentLog);
    const posted: HostToWebview[] = [];
    m.setPost((x) => posted.push(x));
    m.openTab(T1, 'Chat');
    m.broadcastContext([{ kind: 'file', uri: 'file:///ws/a.ts', name: 'a.ts' }]);
    m.webviewUnavailable('hidden');
    m.send(started(T1, 'a'));
    assert.deepEqual(
      posted.map((p) => p.type),
      ['context-items'],
      'buffered',
    );
    m.webviewReady({}, []); // a fresh webview without the tab
    assert.deepEqual(
      posted.slice(1).map((p) => p.type),
      ['resync', 'context-items'],
    );
    const resync = posted[1] as Extract<HostToWebview, { type: 'resync' }>;
    assert.deepEqual(
      resync.entries.map((e) => e.type),
      ['prompt-started'],
    );
    assert.equal(m.stats().live, true);
  });

  it('a resync carries the prompts waiting then (not recorded as conversation); once none wait, none', () => {
    const m = new TabMessages(silentLog);
    const posted: HostToWebview[] = [];
    m.setPost((x) => posted.push(x));
    m.openTab(T1, 'Chat');
    m.webviewUnavailable('hidden');
    m.send(started(T1, 'a'));
    m.send({ type: 'prompt-queue', tabId: T1, waiting: [{ messageId: 'b', text: 'next' }] });
    m.webviewReady({}, []); // a fresh webview without the tab: resync
    const first = posted.find((p) => p.type === 'resync') as Extract<HostToWebview, { type: 'resync' }>;
    assert.deepEqual(first.queued, [{ messageId: 'b', text: 'next' }]);
    assert.deepEqual(
      first.entries.map((e) => e.type),
      ['prompt-started'],
      'the queue is not part of the conversation',
    );
    m.send({ type: 'prompt-queue', tabId: T1, waiting: [] });
    posted.length = 0;
    m.webviewUnavailable('hidden');
    m.webviewReady({}, []);
    const second = posted.find((p) => p.type === 'resync') as Extract<HostToWebview, { type: 'resync' }>;
    assert.equal(second.queued, undefined);
  });
});
