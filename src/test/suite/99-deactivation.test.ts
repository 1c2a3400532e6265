// Runs last: it stops the extension's agent processes for good.
import * as assert from 'node:assert/strict';
import { cmd, groupMembers, groupsUnder, newTab, openChat } from '../helpers';

suite('deactivation', () => {
  test('stops every conductor and agent process (cancel, terminate, kill): no orphans', async () => {
    await openChat();
    const tabId = await newTab();
    void cmd('sendPrompt', tabId, 'tell me a long story');
    const procs = await cmd<{ pid: number }[]>('getAgentProcesses');
    // Each conductor's group and the group it started its agent in.
    const groups = procs.flatMap((p) => groupsUnder(p.pid));
    assert.ok(groups.length >= 2 * procs.length && groups.every((g) => groupMembers(g).length >= 1));
    await cmd('deactivate');
    for (const g of groups) assert.deepEqual(groupMembers(g), [], `process group ${g} is gone`);
  });
});
