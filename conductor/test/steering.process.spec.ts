// Steering a running turn through the conductor, against ElizACP `--steering`: the agent's
// advertisement (`_meta.steering.supported` beside agentCapabilities) reaches the editor, and
// `_session/steering` reaches the agent: taken into a running turn (`injected`, answered in that
// turn), left to the client when no turn runs (`promptRequired`). A rejection followed by the
// user's words reaches the same turn; without steering the words go before the next prompt's text.
import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { advertisesSteering, STEERING_METHOD, steeringOutcome, steeringParams } from '../../src/protocol/steering';
import { conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, waitFor, type Harness } from './harness';

const steer = async (h: Harness, sessionId: string, text: string): Promise<unknown> =>
  steeringOutcome(await h.conn.agent.request<unknown>(STEERING_METHOD, steeringParams(sessionId, text)));

describe('steering a running turn through the conductor (process)', function () {
  this.timeout(60_000);
  const open: Harness[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });

  const start = async (
    flags: string[],
    handlers: Parameters<typeof startProcess>[1] = {},
  ): Promise<{ h: Harness; init: acp.InitializeResponse }> => {
    const h = startProcess(conductorArgs({ components: ['symposium-info'], agent: elizaCommand(flags) }), handlers);
    open.push(h);
    return { h, init: await initialize(h) };
  };

  it("is advertised only by an agent that steers; the text joins the running turn, or stays the client's when none runs", async () => {
    const plain = await start([]);
    assert.equal(advertisesSteering(plain.init), false);
    const { h, init } = await start(['--steering']);
    assert.equal(advertisesSteering(init), true);
    const sessionId = await newSession(h, tempDir());
    assert.equal(await steer(h, sessionId, 'too late'), 'promptRequired');
    const story = prompt(h, sessionId, 'tell me a long story');
    await waitFor(
      () => h.updates.some((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk'),
      10_000,
      'the story',
    );
    assert.equal(await steer(h, sessionId, 'make it shorter'), 'injected');
    const { text, stopReason } = await story;
    assert.equal(stopReason, 'end_turn');
    assert.match(text, /You said while I was working: "make it shorter"\.$/);
    // A plain agent does not know the method: the editor gets an error, never a hang.
    const other = await newSession(plain.h, tempDir());
    await assert.rejects(plain.h.conn.agent.request(STEERING_METHOD, steeringParams(other, 'hello')), { code: -32601 });
  });

  it('the words steered while a permission request is open, then the rejection: the agent reads both in the same turn', async () => {
    let h!: Harness;
    let sessionId = '';
    const rejected = await start(['--steering'], {
      permission: async () => {
        // As the editor does: the words while the request is open, then the rejection.
        assert.equal(await steer(h, sessionId, 'use the test database instead'), 'injected');
        return { outcome: { outcome: 'selected', optionId: 'reject-once' } };
      },
    });
    h = rejected.h;
    sessionId = await newSession(h, tempDir());
    const { text } = await prompt(h, sessionId, 'request permission for drop the production table kind delete');
    assert.equal(text, 'Permission outcome: selected reject-once\n\nYou said while I was working: "use the test database instead".');
  });

  it("the previous prompt as the agent got it (how a client's note before the typed text is checked)", async () => {
    const { h } = await start([]);
    const sessionId = await newSession(h, tempDir());
    await h.conn.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'About the tool call I rejected ("x"): no' },
        { type: 'text', text: 'hello' },
      ],
    });
    await new Promise((r) => setImmediate(r));
    h.takeText(sessionId); // ELIZA's reply to that prompt
    assert.equal(
      (await prompt(h, sessionId, 'what was my previous prompt')).text,
      '["About the tool call I rejected (\\"x\\"): no","hello"]',
    );
  });
});
