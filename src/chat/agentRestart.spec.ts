// Which tabs a restart affects: the tab's own and every tab on the same agent process (the same
// configuration); a tab without a configuration (its session never started) only itself.
import * as assert from 'node:assert/strict';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import { tabsSharingProcess } from './agentRestart';
import { newChatTab, type ChatTab } from './chatTab';

const config = (folder: string, agent = 'ElizACP'): AgentConfiguration => ({
  agent: { name: agent, command: 'node', args: ['eliza.js'], env: {} },
  components: null,
  workspaceFolder: folder,
});
const tab = (id: string, c?: AgentConfiguration): ChatTab => ({ ...newChatTab(id, 'Chat'), ...(c ? { config: c } : {}) });

describe('tabsSharingProcess', () => {
  const a1 = tab('a1', config('/ws/a'));
  const a2 = tab('a2', config('/ws/a'));
  const b = tab('b', config('/ws/b'));
  const other = tab('other', config('/ws/a', 'Claude Code'));
  const none = tab('none');
  const all = [a1, a2, b, other, none];

  it('picks every tab with an equal configuration, in tab order', () => {
    assert.deepEqual(
      tabsSharingProcess(all, a2).map((t) => t.tabId),
      ['a1', 'a2'],
    );
  });

  it('a different folder or agent is a different process', () => {
    assert.deepEqual(
      tabsSharingProcess(all, b).map((t) => t.tabId),
      ['b'],
    );
    assert.deepEqual(
      tabsSharingProcess(all, other).map((t) => t.tabId),
      ['other'],
    );
  });

  it('a tab without a configuration restarts only itself', () => {
    assert.deepEqual(
      tabsSharingProcess(all, none).map((t) => t.tabId),
      ['none'],
    );
  });
});
