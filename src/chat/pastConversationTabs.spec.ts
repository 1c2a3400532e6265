// A tab on a past conversation: shown read-only with its transcript (and marked "elsewhere" when
// another window owns it); prompts refused until it is continued; "Continue in a new session" makes
// it take prompts, forks a conversation another window owns, and the first prompt after it (only
// that one) carries the transcript. The agent side (resume / load) is tested with real processes in
// the host suite 19-history.
import * as assert from 'node:assert/strict';
import { silentLog } from '../log/logEvent';
import type { TabPayload } from '../protocol/webview';
import { READ_ONLY_PROMPT_ERROR, type PastConversation } from '../history/reopen';
import { newChatTab } from './chatTab';
import { EarlyUpdates } from './earlyUpdates';
import { PastConversationTabs, pastPromptRefusal, takePastTranscript } from './pastConversationTabs';

const TAB = '11111111-1111-4111-8111-111111111111';
const conversation: PastConversation = {
  meta: { id: 'c1', title: 'Old chat', agentName: 'ElizACP', folder: '/ws', createdAt: '', lastActivity: '', turns: 1 },
  entries: [{ type: 'prompt-started', messageId: 'm1', text: 'hello' }],
};

function setup(ownedHere: boolean) {
  const sent: TabPayload[] = [];
  const restored: string[] = [];
  const forked: string[] = [];
  const pastTabs = new PastConversationTabs({
    log: silentLog,
    messages: { send: (p) => sent.push(p), restore: (tabId, title) => restored.push(`${tabId} ${title}`) },
    history: { adopt: () => ownedHere, fork: (tabId) => forked.push(tabId), replaced: () => {} },
    configure: () => Promise.resolve(undefined),
    pool: { acquire: () => assert.fail('not asked in these tests') },
    early: new EarlyUpdates(),
  });
  const tab = newChatTab(TAB, conversation.meta.title);
  pastTabs.show(tab, conversation);
  return { pastTabs, tab, sent, restored, forked };
}

describe('PastConversationTabs', () => {
  it('shows the transcript read-only; prompts are refused', () => {
    const { tab, restored } = setup(true);
    assert.deepEqual(restored, [`${TAB} Old chat`]);
    assert.equal(tab.past?.readOnly, true);
    assert.equal(tab.past?.elsewhere, undefined);
    assert.equal(pastPromptRefusal(tab), READ_ONLY_PROMPT_ERROR);
    assert.deepEqual(takePastTranscript(tab, true), [], 'nothing pending before "Continue in a new session"');
  });

  it('"Continue in a new session": takes prompts; the transcript goes with the first prompt only', () => {
    const { pastTabs, tab, sent, forked } = setup(true);
    assert.equal(pastTabs.continueInNewSession(tab), true);
    assert.equal(pastPromptRefusal(tab), undefined);
    assert.deepEqual(forked, [], 'owned here: the same conversation goes on');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.type === 'tab-notice' && sent[0].level, 'info');
    const [first] = takePastTranscript(tab, true);
    assert.equal(first?.type, 'resource');
    assert.ok(first?.type === 'resource' && 'text' in first.resource && first.resource.text.includes('hello'));
    assert.deepEqual(takePastTranscript(tab, true), [], 'only once');
    assert.equal(pastTabs.continueInNewSession(tab), false, 'no longer read-only: nothing to start');
  });

  it('as text when the agent takes no embedded resources', () => {
    const { pastTabs, tab } = setup(true);
    pastTabs.continueInNewSession(tab);
    assert.equal(takePastTranscript(tab, false)[0]?.type, 'text');
  });

  it('open in another window: marked so, and continuing forks it', () => {
    const { pastTabs, tab, forked } = setup(false);
    assert.equal(tab.past?.elsewhere, true);
    assert.equal(pastTabs.continueInNewSession(tab), true);
    assert.deepEqual(forked, [TAB]);
  });

  it('a fresh tab is never refused and carries nothing', () => {
    const tab = newChatTab(TAB, 'Chat');
    assert.equal(pastPromptRefusal(tab), undefined);
    assert.deepEqual(takePastTranscript(tab, true), []);
  });
});
