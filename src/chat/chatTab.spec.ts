import * as assert from 'node:assert/strict';
import type { AgentConfiguration } from '../agents/agentConfiguration';
import type { PastState } from '../history/reopen';
import { modeToKeep, newChatTab } from './chatTab';

describe("chatTab: the mode a tab's next session is put in", () => {
  const config = (name: string) => ({ agent: { name } }) as AgentConfiguration;
  const modes = { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }] };
  const past = (agentName: string, mode?: string): PastState => ({
    readOnly: false,
    conversation: {
      meta: { id: 'c', title: 't', agentName, folder: '/w', createdAt: '', lastActivity: '', turns: 1, ...(mode ? { mode } : {}) },
      entries: [],
    },
  });

  it("a new session of the same agent: the tab's current mode; of another agent: none", () => {
    const tab = { ...newChatTab('t', 'Chat'), config: config('Qwen Code'), controls: { modes } };
    assert.equal(modeToKeep(tab, 'Qwen Code'), 'default');
    assert.equal(modeToKeep(tab, 'Codex'), undefined);
  });

  it('a past conversation continued anew: its stored mode, for the agent it was with; a fresh tab: none', () => {
    assert.equal(modeToKeep({ ...newChatTab('t', 'Chat'), past: past('Qwen Code', 'plan') }, 'Qwen Code'), 'plan');
    assert.equal(modeToKeep({ ...newChatTab('t', 'Chat'), past: past('Qwen Code', 'plan') }, 'Codex'), undefined);
    assert.equal(modeToKeep(newChatTab('t', 'Chat'), 'Qwen Code'), undefined);
  });
});
