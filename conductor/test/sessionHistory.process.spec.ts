// Continuing old sessions through the conductor, against ElizACP's `--resume`, `--load-session`
// and `--state-dir`: session/resume and session/load pass the chain (the components' MCP servers
// are injected again), session/list passes through, load replays the stored updates in order, and
// a restarted ElizACP with the same state folder still finds the session.
import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { parseElizaArgs } from '../eliza/main';
import { conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';

const start = async (flags: string[]): Promise<{ h: Harness; init: acp.InitializeResponse }> => {
  const h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand(flags) }));
  return { h, init: await initialize(h) };
};
const ofSession = (h: Harness, sessionId: string): acp.SessionUpdate[] =>
  h.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update);

describe('ElizACP session history through the conductor (process)', function () {
  this.timeout(60_000);
  const open: Harness[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });

  it('parses --load-session, --resume and --state-dir', () => {
    assert.deepEqual(parseElizaArgs(['--load-session', '--resume', '--state-dir', '/tmp/x']), {
      deterministic: false,
      httpMcp: true,
      legacyModels: false,
      loadSession: true,
      resume: true,
      stateDir: '/tmp/x',
    });
    assert.throws(() => parseElizaArgs(['--state-dir']), /needs a folder/);
  });

  it('without the flags: no loadSession, no resume, and the methods are refused', async () => {
    const { h, init } = await start([]);
    open.push(h);
    assert.equal(init.agentCapabilities?.loadSession, false);
    assert.equal(init.agentCapabilities?.sessionCapabilities?.resume, undefined);
    const sessionId = await newSession(h, tempDir());
    await assert.rejects(h.conn.agent.request('session/resume', { sessionId, cwd: tempDir(), mcpServers: [] }), { code: -32601 });
  });

  it('--resume: the same session continues after a restart (state dir), with no replay and its MCP servers again', async () => {
    const state = tempDir('eliza-state-');
    const cwd = tempDir();
    const first = await start(['--resume', '--state-dir', state]);
    open.push(first.h);
    assert.deepEqual(first.init.agentCapabilities?.sessionCapabilities?.resume, {});
    const sessionId = await newSession(first.h, cwd);
    assert.equal((await prompt(first.h, sessionId, 'session info')).text, `Session ${sessionId}, prompt 1.`);
    await first.h.close();
    open.pop();

    const second = await start(['--resume', '--state-dir', state]);
    open.push(second.h);
    const listed = await second.h.conn.agent.request('session/list', { cwd });
    assert.deepEqual(
      listed.sessions.map((s) => [s.sessionId, s.title]),
      [[sessionId, 'session info']],
    );
    await second.h.conn.agent.request('session/resume', { sessionId, cwd, mcpServers: [] });
    const replayed = ofSession(second.h, sessionId).filter((u) => u.sessionUpdate !== 'available_commands_update');
    assert.deepEqual(replayed, [], 'resume replays nothing');
    assert.equal((await prompt(second.h, sessionId, 'session info')).text, `Session ${sessionId}, prompt 2.`);
    // The conductor injected the component's MCP server into the resumed session.
    const info = await prompt(second.h, sessionId, 'use tool symposium::symposium_info with {}');
    assert.match(info.text, new RegExp(sessionId));
  });

  it('--load-session: load replays the prompts and replies in order, then the session continues', async () => {
    const state = tempDir('eliza-state-');
    const cwd = tempDir();
    const first = await start(['--load-session', '--state-dir', state]);
    open.push(first.h);
    assert.equal(first.init.agentCapabilities?.loadSession, true);
    const sessionId = await newSession(first.h, cwd);
    const a = await prompt(first.h, sessionId, 'I feel tired');
    const b = await prompt(first.h, sessionId, 'My mother cooks');
    await first.h.close();
    open.pop();

    const second = await start(['--load-session', '--state-dir', state]);
    open.push(second.h);
    await second.h.conn.agent.request('session/load', { sessionId, cwd, mcpServers: [] });
    const replay = ofSession(second.h, sessionId).filter(
      (u) => u.sessionUpdate === 'user_message_chunk' || u.sessionUpdate === 'agent_message_chunk',
    );
    const text = (u: acp.SessionUpdate): string =>
      (u.sessionUpdate === 'user_message_chunk' || u.sessionUpdate === 'agent_message_chunk') && u.content.type === 'text'
        ? u.content.text
        : '';
    const users = replay.filter((u) => u.sessionUpdate === 'user_message_chunk').map(text);
    assert.deepEqual(users, ['I feel tired', 'My mother cooks']);
    const firstUser = replay.findIndex((u) => u.sessionUpdate === 'user_message_chunk');
    const secondUser = replay.findIndex((u, i) => i > firstUser && u.sessionUpdate === 'user_message_chunk');
    assert.equal(
      replay
        .slice(firstUser + 1, secondUser)
        .map(text)
        .join(''),
      a.text,
    );
    assert.equal(
      replay
        .slice(secondUser + 1)
        .map(text)
        .join(''),
      b.text,
    );
    second.h.takeText(sessionId);
    assert.equal((await prompt(second.h, sessionId, 'session info')).text, `Session ${sessionId}, prompt 3.`);
    // The conductor injected the component's MCP server into the loaded session too.
    assert.match((await prompt(second.h, sessionId, 'use tool symposium::symposium_info with {}')).text, new RegExp(sessionId));
  });

  it('an unknown session is not found (never a fresh one in its place)', async () => {
    const { h } = await start(['--resume', '--load-session']);
    open.push(h);
    const cwd = tempDir();
    await assert.rejects(
      h.conn.agent.request('session/resume', { sessionId: 'no-such-session', cwd, mcpServers: [] }),
      (e: { code?: number }) => [-32002, -32603].includes(e.code ?? 0),
    );
    await assert.rejects(h.conn.agent.request('session/load', { sessionId: 'no-such-session', cwd, mcpServers: [] }));
  });
});
