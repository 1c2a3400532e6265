// ACP's newer stable messages through the conductor, against ElizACP's hooks: `usage_update`
// (context use and cost) reaches the editor as the agent sent it, a boolean config option
// (`SessionConfigBoolean`) is offered and set with `type: "boolean"`, and `logout` (advertised as
// `agentCapabilities.auth.logout`) reaches the agent and signs it out.
import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';

const start = async (flags: string[] = []): Promise<{ h: Harness; init: acp.InitializeResponse }> => {
  const h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand(flags) }));
  return { h, init: await initialize(h) };
};
const updatesOf = (h: Harness, sessionId: string, kind: string): acp.SessionUpdate[] =>
  h.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === kind).map((u) => u.update);

describe('stable-schema messages through the conductor (process)', function () {
  this.timeout(60_000);
  const open: Harness[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });

  it('usage_update: the context use and the cost reach the editor unchanged', async () => {
    const { h } = await start();
    open.push(h);
    const sessionId = await newSession(h, tempDir());
    await prompt(h, sessionId, 'report usage 150000 of 200000 costing 0.42 USD');
    await prompt(h, sessionId, 'report usage 1000 of 200000');
    const usage = updatesOf(h, sessionId, 'usage_update').map((u) => {
      const { sessionUpdate: _s, _meta: _m, ...rest } = u as Extract<acp.SessionUpdate, { sessionUpdate: 'usage_update' }>;
      return rest;
    });
    assert.deepEqual(usage, [
      { used: 150000, size: 200000, cost: { amount: 0.42, currency: 'USD' } },
      { used: 1000, size: 200000 },
    ]);
  });

  it('a boolean config option: offered by the agent to a client that takes them, set with type "boolean", and the agent has it', async () => {
    const old = await start();
    open.push(old.h);
    const before = await newSession(old.h, tempDir());
    assert.match((await prompt(old.h, before, 'offer a toggle')).text, /does not take boolean config options/);
    const h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand() }));
    open.push(h);
    await initialize(h, { session: { configOptions: { boolean: {} } } });
    const sessionId = await newSession(h, tempDir());
    await prompt(h, sessionId, 'offer a toggle');
    const offered = updatesOf(h, sessionId, 'config_option_update').at(-1) as Extract<
      acp.SessionUpdate,
      { sessionUpdate: 'config_option_update' }
    >;
    assert.deepEqual(
      offered.configOptions.find((o) => o.id === 'brief'),
      {
        type: 'boolean',
        id: 'brief',
        name: 'Brief replies',
        description: 'A toggle, so clients can show and set a boolean option.',
        currentValue: false,
      },
    );
    const set = await h.conn.agent.request('session/set_config_option', { sessionId, configId: 'brief', type: 'boolean', value: true });
    assert.equal(set.configOptions.find((o) => o.id === 'brief')?.currentValue, true);
    assert.equal((await prompt(h, sessionId, 'what mode')).text, 'Mode: ask. Model: eliza-classic. Brief replies: on.');
    // A value id for a boolean option is refused, as the schema's two shapes differ.
    await assert.rejects(h.conn.agent.request('session/set_config_option', { sessionId, configId: 'brief', value: 'on' }), {
      code: -32602,
    });
  });

  it('logout: advertised where sign-in is offered, passes the conductor, and signs the agent out', async () => {
    const authFile = `${tempDir()}/token`;
    const { h, init } = await start(['--offer-auth', '--auth-file', authFile]);
    open.push(h);
    assert.deepEqual(init.agentCapabilities?.auth?.logout, {});
    await h.conn.agent.request('authenticate', { methodId: 'eliza-login' });
    const sessionId = await newSession(h, tempDir());
    assert.equal((await prompt(h, sessionId, 'sign-in status')).text, 'Signed in with eliza-login.');
    await h.conn.agent.request('logout', {});
    assert.equal((await prompt(h, sessionId, 'sign-in status')).text, 'Not signed in.');

    const plain = await start();
    open.push(plain.h);
    assert.equal(plain.init.agentCapabilities?.auth?.logout, undefined, 'no sign-in, no sign-out');
    await assert.rejects(plain.h.conn.agent.request('logout', {}), { code: -32601 });
  });

  it('a malformed usage_update (negative) passes the conductor to the editor, whose SDK refuses it; the session goes on', async () => {
    const { h } = await start();
    open.push(h);
    const sessionId = await newSession(h, tempDir());
    assert.match((await prompt(h, sessionId, 'report raw usage {"used": -5, "size": 100}')).text, /Reported raw usage/);
    assert.deepEqual(updatesOf(h, sessionId, 'usage_update'), [], 'the SDK drops it');
    assert.match((await prompt(h, sessionId, 'report usage 1 of 2')).text, /Reported usage/);
    assert.equal(updatesOf(h, sessionId, 'usage_update').length, 1);
  });
});
