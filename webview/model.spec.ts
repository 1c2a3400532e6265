import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ContextRef, HostToWebview } from '../src/protocol/webview';
import type { Turn } from '../src/protocol/conversation';
import { WebviewModel } from './model';

const T = 'tab-1';
const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const turns = (m: WebviewModel, tabId = T): Turn[] => m.conversation(tabId).blocks.filter((b): b is Turn => b.kind === 'turn');
const file: ContextRef = { kind: 'file', uri: 'file:///w/a.ts', name: 'a.ts' };

describe('webview model', () => {
  it('applies each host message once per index; a replay changes nothing', () => {
    const m = new WebviewModel();
    m.addTab(T);
    const stream: HostToWebview[] = [
      { type: 'prompt-started', tabId: T, index: 1, messageId: 'm', text: 'hi' },
      { type: 'agent-update', tabId: T, index: 2, messageId: 'm', update: chunk('Hel') },
      { type: 'agent-update', tabId: T, index: 3, messageId: 'm', update: chunk('lo') },
    ];
    assert.deepEqual(
      stream.map((x) => m.receive(x)),
      [
        { kind: 'changed', tabId: T, blockIds: ['m'] },
        { kind: 'changed', tabId: T, blockIds: ['m'] },
        { kind: 'changed', tabId: T, blockIds: ['m'] },
      ],
    );
    assert.deepEqual(
      stream.map((x) => m.receive(x).kind),
      ['none', 'none', 'none'],
    );
    assert.deepEqual(turns(m)[0]?.updates, [chunk('Hello')]);
    assert.deepEqual(m.lastSeenIndex(), { [T]: 3 });
  });

  it('opens a tab the host announces, once', () => {
    const m = new WebviewModel();
    assert.deepEqual(m.receive({ type: 'open-tab', tabId: T, index: 1, title: 'Chat' }), { kind: 'open-tab', tabId: T, title: 'Chat' });
    assert.ok(m.hasTab(T));
    assert.deepEqual(m.receive({ type: 'open-tab', tabId: T, index: 2, title: 'Chat' }), { kind: 'changed', tabId: T, blockIds: [] });
    assert.equal(m.receive({ type: 'open-tab', tabId: T, index: 2, title: 'Chat' }).kind, 'none');
  });

  it("a resync replaces the tab's conversation (opening the tab if needed)", () => {
    const m = new WebviewModel();
    m.addTab(T);
    m.receive({ type: 'prompt-started', tabId: T, index: 1, messageId: 'old', text: 'lost' });
    const change = m.receive({
      type: 'resync',
      tabId: T,
      index: 9,
      title: 'Chat',
      entries: [
        { type: 'prompt-started', messageId: 'm', text: 'hi' },
        { type: 'agent-update', messageId: 'm', update: chunk('Hello') },
      ],
    });
    assert.deepEqual(change, { kind: 'rebuilt', tabId: T, title: 'Chat' });
    assert.deepEqual(
      turns(m).map((t) => t.messageId),
      ['m'],
    );
    assert.equal(m.receive({ type: 'resync', tabId: 'other', index: 1, title: 'Lost tab', entries: [] }).kind, 'rebuilt');
    assert.ok(m.hasTab('other'));
    // A tab re-added by the view keeps its rebuilt conversation.
    m.addTab(T);
    assert.equal(turns(m).length, 1);
  });

  it('closing a tab forgets its conversation, draft and seen index; late messages for it leave nothing', () => {
    const m = new WebviewModel();
    m.addTab(T);
    m.addTab('kept');
    m.receive({ type: 'session-ready', tabId: T, index: 4, agentName: 'ElizACP', cwd: '/w' });
    m.receive({ type: 'session-ready', tabId: 'kept', index: 2, agentName: 'ElizACP', cwd: '/w' });
    m.setDraft(T, 'unsent');
    m.closeTab(T);
    assert.deepEqual(m.lastSeenIndex(), { kept: 2 });
    assert.equal(m.receive({ type: 'agent-update', tabId: T, index: 5, update: chunk('late') }).kind, 'none');
    assert.equal(
      m.receive({ type: 'query-rendered', tabId: T, index: 6, requestId: 'r' }).kind,
      'query-rendered',
      'a test query is still answered',
    );
    assert.deepEqual(m.toState(), { lastSeenIndex: { kept: 2 }, drafts: {}, conversations: { kept: m.conversation('kept') } });
  });

  it('a sent prompt is not drawn until the host echoes it; it uses up the draft and the attachments', () => {
    const m = new WebviewModel();
    m.addTab(T);
    m.receive({ type: 'attach-context', tabId: T, index: 1, item: file });
    m.setDraft(T, 'what is in a.ts');
    assert.deepEqual(m.promptContext(T, []), [file]);
    m.promptSent(T);
    assert.deepEqual(turns(m), [], 'the webview does not draw its own prompt');
    assert.equal(m.draft(T), '');
    assert.deepEqual(m.promptContext(T, []), []);
    m.receive({ type: 'prompt-started', tabId: T, index: 2, messageId: 'm', text: 'what is in a.ts', attachments: ['a.ts'] });
    assert.deepEqual(
      turns(m).map((t) => [t.prompt, t.attachments]),
      [['what is in a.ts', ['a.ts']]],
    );
  });

  it('a prompt the host queued behind a running answer shows below that answer', () => {
    const m = new WebviewModel();
    m.addTab(T);
    // The host's order: the second prompt's echo comes once the first answer has ended.
    m.receive({ type: 'prompt-started', tabId: T, index: 1, messageId: 'first', text: 'tell me a story' });
    m.receive({ type: 'agent-update', tabId: T, index: 2, messageId: 'first', update: chunk('Once upon a time') });
    m.receive({ type: 'prompt-ended', tabId: T, index: 3, messageId: 'first', stopReason: 'end_turn' });
    m.receive({ type: 'prompt-started', tabId: T, index: 4, messageId: 'second', text: 'and then?' });
    assert.deepEqual(
      turns(m).map((t) => [t.messageId, t.status]),
      [
        ['first', 'done'],
        ['second', 'running'],
      ],
    );
  });

  it('restores the open tabs from saved state, dropping indices and drafts of other tabs', () => {
    const m = new WebviewModel({
      lastSeenIndex: { [T]: 7, gone: 3 },
      drafts: { [T]: 'draft', gone: 'x' },
      conversations: { [T]: { blocks: [] } },
    });
    assert.deepEqual(m.tabIds(), [T]);
    assert.deepEqual(m.lastSeenIndex(), { [T]: 7 });
    assert.equal(m.draft(T), 'draft');
    assert.equal(m.receive({ type: 'session-ready', tabId: T, index: 7, agentName: 'a', cwd: '/' }).kind, 'none', 'already saved');
  });

  it("keeps the @ menu for every tab, outside any tab's sequence", () => {
    const m = new WebviewModel();
    assert.deepEqual(m.receive({ type: 'context-items', items: [file] }), { kind: 'context-items' });
    assert.deepEqual(m.contextItems, [file]);
    assert.deepEqual(m.lastSeenIndex(), {});
  });
});

describe('WebviewModel: the prompt queue', () => {
  it("the host's prompt-queue is the tab's waiting list (empty: none); taken back, it is gone until the host sends another", () => {
    const m = new WebviewModel();
    m.addTab(T);
    m.receive({ type: 'prompt-queue', tabId: T, index: 1, waiting: [{ messageId: 'q1', text: 'later' }] });
    assert.deepEqual(m.conversation(T).queued, [{ messageId: 'q1', text: 'later' }]);
    m.takeBackQueued(T);
    assert.equal(m.conversation(T).queued, undefined);
    m.receive({ type: 'prompt-queue', tabId: T, index: 2, waiting: [{ messageId: 'q2', text: 'again' }] });
    m.receive({ type: 'prompt-queue', tabId: T, index: 2, waiting: [] }); // a replay of index 2: ignored
    assert.deepEqual(m.conversation(T).queued, [{ messageId: 'q2', text: 'again' }]);
    m.receive({ type: 'prompt-queue', tabId: T, index: 3, waiting: [] });
    assert.equal(m.conversation(T).queued, undefined);
  });

  it('a resync brings the waiting prompts back with the conversation; malformed entries are left out', () => {
    const m = new WebviewModel();
    m.addTab(T);
    m.receive({
      type: 'resync',
      tabId: T,
      index: 1,
      title: 'Chat',
      entries: [],
      queued: [{ messageId: 'q1', text: 'later' }, { messageId: 7, text: null } as never],
    });
    assert.deepEqual(m.conversation(T).queued, [{ messageId: 'q1', text: 'later' }]);
    m.receive({ type: 'resync', tabId: T, index: 2, title: 'Chat', entries: [] });
    assert.equal(m.conversation(T).queued, undefined);
  });

  it('a prompt taken back from the queue gets the attachments it was sent with back (once each)', () => {
    const m = new WebviewModel();
    m.addTab(T);
    const file: ContextRef = { kind: 'file', uri: 'file:///ws/a.ts', name: 'a.ts' };
    const other: ContextRef = { kind: 'file', uri: 'file:///ws/b.ts', name: 'b.ts' };
    m.promptSent(T, 'q1', [file]);
    m.promptSent(T, 'q2', [file, other]);
    m.promptSent(T, 'q3', []);
    m.receive({
      type: 'prompt-queue',
      tabId: T,
      index: 1,
      waiting: [
        { messageId: 'q1', text: 'one' },
        { messageId: 'q2', text: 'two' },
        { messageId: 'q3', text: 'three' },
      ],
    });
    m.takeBackQueued(T);
    assert.deepEqual(m.conversation(T).attached, [file, other]);
    assert.deepEqual(m.promptContext(T, []), [file, other], 'the next prompt carries them');
  });
});
