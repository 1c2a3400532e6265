// The tabs a page starts with: one fresh tab, or the tabs an earlier page saved, drawn again from
// their conversations (chat items are not saved). Split from chatApp.ts, which wires them to mynah.
import type { MynahUITabStoreModel } from '@aws/mynah-ui';
import { emptyConversation } from '../src/protocol/conversation';
import { conversationToChatItems } from './mappers/chatItems';
import { tabStoreFor } from './mappers/tabStore';
import { forMynahSafe } from './mappers/untrusted';
import { WebviewModel } from './model';
import { TAB_DEFAULTS } from './mynahConfig';
import { forMynah } from './renderer';
import type { Host } from './host';
import { restoreState, type PersistedState } from './state';
import { newUuid, TabIdMap } from './tabIds';

/** What a page starts from: its tab IDs, its conversations, and the tabs for mynah-ui. */
export interface StartupTabs {
  ids: TabIdMap;
  model: WebviewModel;
  tabs: MynahUITabStoreModel;
}

export function freshTabs(): StartupTabs {
  const ids = new TabIdMap();
  const model = new WebviewModel();
  const tabId = newUuid();
  ids.set(tabId, tabId);
  model.addTab(tabId);
  return { ids, model, tabs: { [tabId]: { isSelected: true, store: { ...TAB_DEFAULTS, ...tabStoreFor(emptyConversation()) } } } };
}

/** The saved tabs (throws when saved state that passed the shape check cannot be drawn). */
export function restoredTabs(saved: PersistedState): StartupTabs {
  const ids = new TabIdMap(saved.tabIds);
  const conversations: PersistedState['conversations'] = {};
  for (const mid of Object.keys(saved.tabs)) {
    const tabId = ids.tabId(mid);
    if (tabId) conversations[tabId] = saved.conversations[tabId] ?? emptyConversation();
  }
  const model = new WebviewModel({ lastSeenIndex: saved.lastSeenIndex, drafts: saved.drafts, conversations });
  const tabs: MynahUITabStoreModel = {};
  for (const [mid, tab] of Object.entries(saved.tabs)) {
    const tabId = ids.tabId(mid);
    if (!tabId) continue;
    const conv = model.conversation(tabId);
    tabs[mid] = {
      ...tab,
      store: {
        ...tab.store,
        chatItems: conversationToChatItems(conv).map(forMynah),
        ...forMynahSafe(tabStoreFor(conv)),
        promptInputText: model.draft(tabId),
      },
    };
  }
  return { ids, model, tabs };
}

/**
 * What the page starts from: the tabs its host saved for this session, else one fresh tab. Saved
 * state that passed the shape check but cannot be drawn is dropped (logged): the page starts
 * clean, not broken.
 */
export function startupTabs(host: Pick<Host, 'getState' | 'setState' | 'log'>, sessionId: string): StartupTabs {
  const saved = restoreState(host.getState(), sessionId);
  if (!saved) host.setState(undefined);
  try {
    return saved ? restoredTabs(saved) : freshTabs();
  } catch (e) {
    host.log('error', `webview: could not restore the saved tabs: ${e instanceof Error ? e.message : String(e)}`);
    host.setState(undefined);
    return freshTabs();
  }
}
