// ElizACP --require-auth as a real process: session/new refused with -32000 until signed in, by
// `authenticate` (agent-handled), by the terminal login run (`--terminal-login` writes the auth
// file) or by ELIZACP_API_KEY in its environment; --offer-auth: the same methods, nothing refused.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCodes } from '../../src/protocol/errorCodes';
import { AGENT_METHOD_ID, ENV_METHOD_ID, TERMINAL_METHOD_ID } from './auth';
import { REPO_ROOT, STANDALONE, TSX_IMPORT, ElizaHarness } from './test-harness';

describe('ElizACP --require-auth', function () {
  this.timeout(30_000);
  const dir = mkdtempSync(join(tmpdir(), 'elizacp-auth-'));
  const authFile = join(dir, 'token');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('advertises its methods and refuses session/new until authenticate', async () => {
    const eliza = await ElizaHarness.start(['--deterministic', '--require-auth', '--auth-file', authFile]);
    try {
      const methods = eliza.initializeResponse.authMethods ?? [];
      // The harness's client has no auth.terminal capability, so no terminal method.
      assert.deepEqual(
        methods.map((m) => [m.id, (m as { type?: string }).type ?? 'agent']),
        [
          [AGENT_METHOD_ID, 'agent'],
          [ENV_METHOD_ID, 'env_var'],
        ],
      );
      await assert.rejects(eliza.agent.request('session/new', { cwd: dir, mcpServers: [] }), (e: { code?: number }) => {
        assert.equal(e.code, ErrorCodes.authRequired);
        return true;
      });
      await assert.rejects(eliza.agent.request('authenticate', { methodId: TERMINAL_METHOD_ID }), /not sent to authenticate/);
      await assert.rejects(eliza.agent.request('authenticate', { methodId: 'nope' }), /unknown auth method/);
      assert.deepEqual(await eliza.agent.request('authenticate', { methodId: AGENT_METHOD_ID }), {});
      const { sessionId } = await eliza.newSession(dir);
      assert.match((await eliza.prompt(sessionId, 'Hello!')).text, /How do you do/);
    } finally {
      await eliza.close();
    }
  });

  it('the terminal login run writes the auth file and exits 0; later processes are signed in', async () => {
    assert.equal(existsSync(authFile), false);
    const login = spawnSync(
      process.execPath,
      ['--import', TSX_IMPORT, STANDALONE, '--deterministic', '--require-auth', '--auth-file', authFile, '--terminal-login'],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    assert.equal(login.status, 0, login.stderr);
    assert.match(login.stdout, /Signed in/);
    assert.ok(existsSync(authFile));
    const eliza = await ElizaHarness.start(['--deterministic', '--require-auth', '--auth-file', authFile]);
    try {
      await eliza.newSession(dir);
    } finally {
      await eliza.close();
    }
  });

  it('--offer-auth advertises the same methods but refuses nothing; authenticate is recorded (sign-in status)', async () => {
    const eliza = await ElizaHarness.start(['--deterministic', '--offer-auth', '--auth-file', join(dir, 'never-written')]);
    try {
      const methods = eliza.initializeResponse.authMethods ?? [];
      assert.deepEqual(
        methods.map((m) => m.id),
        [AGENT_METHOD_ID, ENV_METHOD_ID],
      );
      const { sessionId } = await eliza.newSession(dir);
      assert.equal((await eliza.prompt(sessionId, 'sign-in status')).text, 'Not signed in.');
      assert.deepEqual(await eliza.agent.request('authenticate', { methodId: AGENT_METHOD_ID }), {});
      assert.equal((await eliza.prompt(sessionId, 'sign-in status')).text, `Signed in with ${AGENT_METHOD_ID}.`);
    } finally {
      await eliza.close();
    }
  });

  it('without --require-auth there are no methods and authenticate is a no-op', async () => {
    const eliza = await ElizaHarness.start(['--deterministic']);
    try {
      assert.deepEqual(eliza.initializeResponse.authMethods, []);
      await eliza.newSession(dir);
    } finally {
      await eliza.close();
    }
  });
});
