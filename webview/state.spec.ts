import * as assert from 'node:assert/strict';
import type { ChatItem, ChatItemType } from '@aws/mynah-ui';
import type { Conversation } from '../src/protocol/conversation';
import { liveMynahTabs, persistedState, restoreState, SeenIndex } from './state';
import { TabIdMap } from './tabIds';

const SESSION = 'session-1';
const valid = {
  v: 2,
  sessionId: SESSION,
  tabs: { m: { isSelected: true, store: { tabTitle: 'Chat' } } },
  tabIds: { m: 't' },
  lastSeenIndex: { t: 3 },
  drafts: { t: 'hi' },
  conversations: { t: { blocks: [] } },
};

describe('webview state', () => {
  it('restores saved state only for the same activation session', () => {
    assert.deepEqual(restoreState(valid, SESSION), valid);
    assert.equal(restoreState({ ...valid, sessionId: 'previous-activation' }, SESSION), undefined);
    assert.equal(restoreState(undefined, SESSION), undefined);
    assert.equal(restoreState({ sessionId: SESSION }, SESSION), undefined, 'old shapes start clean');
    assert.equal(restoreState({ ...valid, drafts: null }, SESSION), undefined);
  });

  it('drops, without failing, state saved in the previous shape or damaged', () => {
    // v1 also saved every tab's chat items (the transcript twice).
    const v1 = { ...valid, v: 1, tabs: { m: { store: { chatItems: [{ type: 'prompt', body: 'hi' }] } } } };
    assert.equal(restoreState(v1, SESSION), undefined);
    assert.equal(restoreState({ ...valid, conversations: { t: { blocks: 'x' } } }, SESSION), undefined);
    assert.equal(restoreState({ ...valid, conversations: { t: null } }, SESSION), undefined);
    assert.equal(restoreState({ ...valid, tabs: { m: 'x' } }, SESSION), undefined);
    assert.equal(restoreState({ ...valid, lastSeenIndex: { t: '3' } }, SESSION), undefined);
    assert.equal(restoreState({ ...valid, tabIds: { m: 1 } }, SESSION), undefined);
  });

  it('saves the transcript once: as conversations, not again as mynah chat items', () => {
    const conversation: Conversation = {
      blocks: [{ kind: 'turn', messageId: 'x', prompt: 'hi', updates: [], status: 'done', permissions: [] }],
    };
    const chatItems: ChatItem[] = [{ type: 'prompt' as ChatItemType, messageId: 'x:prompt', body: 'hi' }];
    const mynahTabs = {
      m: { isSelected: true, store: { tabTitle: 'Chat 1', chatItems, promptInputText: 'draft', contextCommands: [{ commands: [] }] } },
      unmapped: { store: { tabTitle: 'not ours' } },
    };
    const state = persistedState(
      SESSION,
      { lastSeenIndex: { t: 4 }, drafts: { t: 'draft' }, conversations: { t: conversation } },
      mynahTabs,
      { m: 't' },
    );
    assert.deepEqual(state, {
      v: 2,
      sessionId: SESSION,
      tabs: { m: { isSelected: true, store: { tabTitle: 'Chat 1' } } },
      tabIds: { m: 't' },
      lastSeenIndex: { t: 4 },
      drafts: { t: 'draft' },
      conversations: { t: conversation },
    });
    assert.equal(JSON.stringify(state).split('"hi"').length - 1, 1, 'the prompt text is in the saved state once');
    assert.deepEqual(restoreState(JSON.parse(JSON.stringify(state)), SESSION), state);
  });

  it("reads mynah-ui's tabs from their live stores (no copy of the chat items), and saving leaves those stores alone", () => {
    const chatItems: ChatItem[] = [{ type: 'answer' as ChatItemType, messageId: 'a', body: 'a long answer' }];
    const stores: Record<string, { tabTitle: string; chatItems: ChatItem[] }> = {
      m1: { tabTitle: 'Chat 1', chatItems },
      m2: { tabTitle: 'Chat 2', chatItems: [] },
    };
    const mynah = {
      getSelectedTabId: () => 'm2',
      getTabData: (mid: string) => (stores[mid] ? { getStore: () => stores[mid] } : undefined),
    };
    const tabs = liveMynahTabs(mynah, ['m1', 'm2', 'gone']);
    assert.equal(tabs.m1?.store, stores.m1, 'the store itself, not a copy');
    assert.deepEqual(Object.fromEntries(Object.entries(tabs).map(([mid, t]) => [mid, t.isSelected])), { m1: false, m2: true, gone: false });
    assert.deepEqual(tabs.gone?.store, {}, 'a tab mynah-ui no longer has: an empty store');
    const state = persistedState(SESSION, { lastSeenIndex: {}, drafts: {}, conversations: {} }, tabs, { m1: 't1', m2: 't2' });
    assert.deepEqual(state.tabs.m1, { isSelected: false, store: { tabTitle: 'Chat 1' } });
    assert.equal(stores.m1?.chatItems, chatItems, 'the live store keeps its chat items');
  });

  it('applies each index once per tab and ignores anything at or below lastSeenIndex', () => {
    const seen = new SeenIndex({ a: 2 });
    assert.equal(seen.accept('a', 1), false);
    assert.equal(seen.accept('a', 2), false);
    assert.equal(seen.accept('a', 3), true);
    assert.equal(seen.accept('a', 3), false);
    assert.equal(seen.accept('b', 1), true, 'tabs are independent');
    assert.equal(seen.accept('a', 7), true, 'gaps are fine (coalesced messages skip indices)');
    assert.deepEqual(seen.toJSON(), { a: 7, b: 1 });
  });

  it('keeps mynah tab ids and protocol tab ids in step', () => {
    const ids = new TabIdMap({ m1: 't1' });
    ids.set('m2', 't2');
    assert.equal(ids.tabId('m2'), 't2');
    assert.equal(ids.mynahId('t1'), 'm1');
    assert.equal(ids.deleteMynah('m1'), 't1');
    assert.equal(ids.mynahId('t1'), undefined);
    assert.deepEqual(ids.toJSON(), { m2: 't2' });
  });
});
