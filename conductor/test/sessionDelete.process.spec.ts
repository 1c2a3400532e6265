// session/delete through the real conductor: the chain passes it to the agent untouched, the agent
// forgets the session (session/list no longer has it, and a restarted agent does not find it), an
// unknown id is answered -32002 with the id named, and an agent's refusal reaches the editor with
// its reason. Against ElizACP (`--resume --state-dir`, `--no-delete`, `--fail-delete`) and the
// pinned claude-agent-acp with the scripted model server.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { FAIL_DELETE_REASON } from '../eliza/agent';
import { parseElizaArgs } from '../eliza/main';
import { CONDUCTOR_JS, conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';
import { rawConductor } from './rawClient';
import { agentLaunch, agentsInstalled, WITH_REAL_AGENTS } from './realAgents/agents';
import { startScriptedModelServer } from './realAgents/server';

const start = async (flags: string[]): Promise<{ h: Harness; init: acp.InitializeResponse }> => {
  const h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand(flags) }));
  return { h, init: await initialize(h) };
};
const listed = async (h: Harness, cwd: string): Promise<string[]> =>
  (await h.conn.agent.request('session/list', { cwd })).sessions.map((s) => s.sessionId);

describe('session/delete through the conductor (process)', function () {
  this.timeout(120_000);
  const open: Harness[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });
  before(function () {
    if (!existsSync(CONDUCTOR_JS)) throw new Error('build first: node esbuild.mjs');
  });

  it('ElizACP offers delete with list; --no-delete withholds it and refuses the method', async () => {
    assert.equal(parseElizaArgs(['--no-delete']).noDelete, true);
    assert.equal(parseElizaArgs(['--fail-delete']).failDelete, true);
    const plain = await start([]);
    open.push(plain.h);
    assert.equal(plain.init.agentCapabilities?.sessionCapabilities?.delete, undefined, 'no list, no delete');
    const listing = await start(['--resume']);
    open.push(listing.h);
    assert.deepEqual(listing.init.agentCapabilities?.sessionCapabilities?.delete, {});
    const withheld = await start(['--resume', '--no-delete']);
    open.push(withheld.h);
    assert.equal(withheld.init.agentCapabilities?.sessionCapabilities?.delete, undefined);
    const sessionId = await newSession(withheld.h, tempDir());
    await assert.rejects(withheld.h.conn.agent.request('session/delete', { sessionId }), { code: -32601 });
  });

  it('ElizACP --resume --state-dir: a deleted session leaves the list, its file and a restarted agent', async () => {
    const state = tempDir('eliza-state-');
    const cwd = tempDir();
    const first = await start(['--resume', '--state-dir', state]);
    open.push(first.h);
    const doomed = await newSession(first.h, cwd);
    await prompt(first.h, doomed, 'I feel tired');
    const kept = await newSession(first.h, cwd);
    await prompt(first.h, kept, 'My mother cooks');
    assert.deepEqual(new Set(await listed(first.h, cwd)), new Set([doomed, kept]));

    assert.deepEqual(await first.h.conn.agent.request('session/delete', { sessionId: doomed }), {});
    assert.deepEqual(await listed(first.h, cwd), [kept]);
    assert.equal(existsSync(join(state, `${doomed}.json`)), false, 'the saved session is gone');
    await assert.rejects(prompt(first.h, doomed, 'Hello'), { code: -32002 }, 'the live session is gone too');
    await first.h.close();
    open.pop();

    const second = await start(['--resume', '--state-dir', state]);
    open.push(second.h);
    assert.deepEqual(await listed(second.h, cwd), [kept]);
    await assert.rejects(second.h.conn.agent.request('session/resume', { sessionId: doomed, cwd, mcpServers: [] }), { code: -32002 });
  });

  it('an unknown id is answered -32002 naming the id; a refusal carries the agent’s reason', async () => {
    const raw = rawConductor(conductorArgs({ components: ['symposium-info'], agent: elizaCommand(['--resume']) }));
    try {
      raw.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
      await raw.response(1);
      raw.send({ jsonrpc: '2.0', id: 2, method: 'session/delete', params: { sessionId: 'no-such-session' } });
      const unknown = (await raw.response(2)) as { error?: { code: number; message: string; data?: unknown } };
      assert.equal(unknown.error?.code, -32002);
      assert.match(unknown.error?.message ?? '', /no session no-such-session to delete/);
      assert.deepEqual(unknown.error?.data, { sessionId: 'no-such-session' });
    } finally {
      raw.child.kill();
      await raw.exited;
    }

    const failing = await start(['--resume', '--fail-delete']);
    open.push(failing.h);
    const cwd = tempDir();
    const sessionId = await newSession(failing.h, cwd);
    await assert.rejects(failing.h.conn.agent.request('session/delete', { sessionId }), (e: { code?: number; data?: unknown }) => {
      assert.equal(e.code, -32603);
      assert.deepEqual(e.data, { details: FAIL_DELETE_REASON });
      return true;
    });
    assert.deepEqual(await listed(failing.h, cwd), [sessionId], 'a refused delete keeps the session');
  });

  describe(WITH_REAL_AGENTS, () => {
    it('claude-agent-acp: a session with a turn is listed, deleted, and no longer listed', async function () {
      if (!agentsInstalled()) throw new Error('the pinned agents are missing: bash scripts/test-tools-install.sh');
      const ws = tempDir('symposium-ws-delete-real-');
      const model = await startScriptedModelServer([{ when: 'remember the heron', text: 'Noted: the heron.' }]);
      const launch = agentLaunch('claude-agent-acp', model.url);
      const h = startProcess(conductorArgs({ agent: launch.command, log: 'info' }), {}, launch.env);
      open.push(h);
      try {
        const init = await initialize(h);
        assert.deepEqual(init.agentCapabilities?.sessionCapabilities?.delete, {}, 'claude-agent-acp advertises session/delete');
        const sessionId = await newSession(h, ws);
        assert.match((await prompt(h, sessionId, 'please remember the heron')).text, /Noted: the heron\./);
        const other = await newSession(h, ws);
        await prompt(h, other, 'please remember the heron again');
        assert.ok((await listed(h, ws)).includes(sessionId), 'the session is listed after its turn');

        assert.deepEqual(await h.conn.agent.request('session/delete', { sessionId }), {});
        const after = await listed(h, ws);
        assert.ok(!after.includes(sessionId), `deleted, yet listed: ${JSON.stringify(after)}`);
        assert.ok(after.includes(other), 'the other session stays');
      } finally {
        await model.close();
      }
    });
  });
});
