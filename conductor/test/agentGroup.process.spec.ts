// The agent runs in its own process group, and the conductor ends that group (SIGTERM, then
// SIGKILL) on every way out: the editor closes stdin, the conductor is told to stop, the agent
// exits by itself. The hostile agent leaves two grandchildren: one ignores SIGTERM, one holds the
// agent's stdout open. Real processes; Linux /proc for the group's members.
import * as assert from 'node:assert/strict';
import { groupMembers } from '../../src/test/processGroup';
import { waitFor } from './harness';
import { alive, initSession, promptParams, startRaw, type RawClient } from './rawClient';

const ways: [string, (c: RawClient, sessionId: string) => void][] = [
  ['the editor closes stdin', (c) => c.child.stdin.end()],
  ['the conductor receives SIGTERM', (c) => c.child.kill('SIGTERM')],
  [
    'the agent exits by itself',
    (c, sessionId) => c.send({ jsonrpc: '2.0', id: 'exit', method: 'session/prompt', params: promptParams(sessionId, 'exit 3') }),
  ],
];

describe('the agent process group (real processes)', function () {
  this.timeout(20_000);
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  for (const [way, trigger] of ways) {
    it(`${way}: nothing of the agent's group survives the conductor`, async () => {
      const c = startRaw();
      let grandchildren: number[] = [];
      try {
        const { sessionId, agentPid } = await initSession(c);
        const spawned = await c.request('spawn', 'session/prompt', promptParams(sessionId, 'spawn'));
        grandchildren = (spawned.result as { _meta: { grandchildren: number[] } })._meta.grandchildren;
        const groupBefore = groupMembers(agentPid).sort();
        const started = Date.now();
        trigger(c, sessionId);
        const exit = await Promise.race([c.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 8000))]);
        assert.notEqual(exit, 'hung', `the conductor exited; its stderr:\n${c.stderr().slice(-2000)}`);
        await waitFor(() => grandchildren.every((p) => !alive(p)) || undefined, 2000, 'the grandchildren to be gone').catch(
          () => undefined,
        );
        assert.deepEqual(grandchildren.filter(alive), [], 'no grandchild survives');
        // (tsx may have its esbuild service in there too, when its cache was cold.)
        assert.deepEqual(
          [agentPid, ...grandchildren].filter((p) => !groupBefore.includes(p)),
          [],
          `the agent led its own process group, with its children: ${groupBefore.join(' ')}`,
        );
        assert.deepEqual(groupMembers(agentPid), [], "the agent's process group is gone");
        process.stderr.write(`      [${way}] conductor exited after ${Date.now() - started} ms\n`);
      } finally {
        c.kill();
        for (const pid of grandchildren)
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            /* gone */
          }
      }
    });
  }
});
