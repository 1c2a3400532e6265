// The conductor against a hostile agent (and a careless editor), real processes on real pipes:
// deeply nested messages, an agent that ignores session/cancel, an agent that sends the
// conductor's own `_symposium/*` notifications, and an initialize the agent rejects before it
// accepts another.
import * as assert from 'node:assert/strict';
import { SYMPOSIUM_META_KEY, type SymposiumCapabilitiesMeta } from '../../src/protocol/symposium-ext';
import { waitFor } from './harness';
import { initSession, promptParams, startRaw, type RawClient } from './rawClient';

type Line = Record<string, unknown>;
const resultOf = <T>(l: Line): T => l.result as T;
const errorOf = (l: Line): { code: number; message: string } => l.error as { code: number; message: string };
const textOf = (l: Line): string | undefined =>
  (l.params as { update?: { content?: { text?: string } } } | undefined)?.update?.content?.text;

function depthOf(v: unknown): number {
  let d = 0;
  while (Array.isArray(v)) {
    v = v[0];
    d++;
  }
  return d;
}

const deepJson = (depth: number): string => '['.repeat(depth) + '1' + ']'.repeat(depth);

describe('conductor against a hostile agent (real processes)', function () {
  this.timeout(30_000);
  let c: RawClient | undefined;
  afterEach(() => {
    c?.kill();
    c = undefined;
  });

  // Without components' handlers in the way (symposium-info has no notification handler), a
  // deep notification goes straight to the editor's send; with them, through their handlers.
  for (const components of [['symposium-info'], undefined]) {
    it(`a message nested 6,000 levels deep costs that one message, not the conductor (components: ${components?.join(', ') ?? 'default'})`, async () => {
      c = startRaw({ components });
      const { sessionId } = await initSession(c);

      // From the agent: a deep notification (skipped), a deep request (answered -32600 with its
      // id), then a 900-deep notification, which is under the cap and arrives intact.
      const nest = await c.request('nest', 'session/prompt', promptParams(sessionId, 'nest 6000'));
      const { deepAnswer } = resultOf<{ _meta: { deepAnswer: Line } }>(nest)._meta;
      assert.equal(deepAnswer.id, 'deep-1');
      assert.equal(errorOf(deepAnswer).code, -32600);
      assert.match(errorOf(deepAnswer).message, /nested deeper than 1000/);
      const updates = c.lines.filter((l) => l.method === 'session/update');
      assert.deepEqual(updates.map(textOf), ['still here']);
      assert.equal(depthOf((updates[0]!.params as { _meta: unknown })._meta), 900);

      // From the editor: a deep request is answered -32600 with its id; a deep notification is skipped.
      c.send(
        `{"jsonrpc":"2.0","id":"deep-editor","method":"session/prompt","params":{"sessionId":"${sessionId}","prompt":${deepJson(6000)}}}`,
      );
      c.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"${sessionId}","x":${deepJson(6000)}}}`);
      const refused = await c.response('deep-editor');
      assert.equal(errorOf(refused).code, -32600);
      assert.match(errorOf(refused).message, /nested deeper than 1000/);

      // Under the cap, a response the chain re-serializes (its id is rewritten) arrives intact.
      const deepOk = await c.request('nest-response-900', 'session/prompt', promptParams(sessionId, 'nest-response 900'));
      assert.equal(depthOf(resultOf<{ _meta: unknown }>(deepOk)._meta), 900);

      // A deep response from the agent: the prompt fails with an error instead of hanging.
      const deepResponse = await c.request('nest-response', 'session/prompt', promptParams(sessionId, 'nest-response 6000'));
      assert.match(errorOf(deepResponse).message, /nested deeper than 1000/);

      // Still serving, and the conductor said why it skipped what it skipped.
      const after = await c.request('after', 'session/prompt', promptParams(sessionId, 'hello'));
      assert.equal(resultOf<{ stopReason: string }>(after).stopReason, 'end_turn');
      assert.equal(c.child.exitCode, null, 'the conductor is alive');
      assert.match(c.stderr(), /skipped a notification from the agent: message nested deeper than 1000 levels/);
      assert.match(c.stderr(), /skipped a notification from the editor: message nested deeper than 1000 levels/);
    });
  }

  it('answers a prompt "cancelled" itself when the agent ignores session/cancel past the grace period, and drops the late answer', async () => {
    c = startRaw({ env: { SYMPOSIUM_CANCEL_GRACE_MS: '300' } });
    const { sessionId } = await initSession(c);
    c.send({ jsonrpc: '2.0', id: 'p', method: 'session/prompt', params: promptParams(sessionId, 'ignore-cancel 1500') });
    await waitFor(() => c!.lines.some((l) => textOf(l) === 'working… '), 5000, 'the first chunk');
    const cancelledAt = Date.now();
    c.send({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId } });
    const answered = await c.response('p', 5000);
    const elapsed = Date.now() - cancelledAt;
    assert.deepEqual(answered.result, { stopReason: 'cancelled' });
    assert.ok(elapsed >= 250 && elapsed < 1200, `answered ${elapsed} ms after the cancel (grace 300 ms, agent answers at 1500 ms)`);
    // The agent's own answer comes at 1500 ms: the conductor drops it (and says so).
    await waitFor(() => /dropped the agent's late answer/.test(c!.stderr()), 5000, 'the late answer');
    assert.equal(c.lines.filter((l) => l.id === 'p').length, 1, 'exactly one response to the prompt');
    assert.match(c.stderr(), /did not answer .*session\/cancel.* within 300 ms/);
    const next = await c.request('p2', 'session/prompt', promptParams(sessionId, 'hello'));
    assert.equal(resultOf<{ stopReason: string }>(next).stopReason, 'end_turn', 'the session goes on');
  });

  for (const components of [['symposium-info'], undefined]) {
    it(`drops the _symposium/* notifications an agent sends; the editor never sees them (components: ${components?.join(', ') ?? 'default'})`, async () => {
      c = startRaw({ components });
      const { sessionId } = await initSession(c);
      for (let i = 0; i < 3; i++) {
        const answered = await c.request(`imp-${i}`, 'session/prompt', promptParams(sessionId, 'impersonate'));
        assert.equal(resultOf<{ stopReason: string }>(answered).stopReason, 'end_turn');
      }
      // The update the agent sent after them arrives, so they would have arrived before it.
      assert.deepEqual(c.lines.filter((l) => textOf(l) === 'after').length, 3);
      const ours = c.lines.filter((l) => typeof l.method === 'string' && l.method.startsWith('_symposium/'));
      assert.deepEqual(ours, [], 'no _symposium/* notification reached the editor');
      assert.equal(c.child.exitCode, null, 'the conductor is alive');
      // Logged once (at the first of nine), with what it was.
      const logged = c.stderr().match(/dropped _symposium\/\S+ from the agent/g) ?? [];
      assert.deepEqual(logged, ['dropped _symposium/agent_exited from the agent']);
      assert.match(c.stderr(), /_symposium\/\* notifications come from the conductor only \(1 dropped so far/);
    });
  }

  for (const [first, second, adapterPlaced] of [
    [{}, { fs: { readTextFile: true, writeTextFile: true } }, false],
    [{ fs: { readTextFile: true, writeTextFile: true } }, {}, true],
  ] as const) {
    it(`assembles the chain from the accepted initialize, not a rejected one (editor fs ${adapterPlaced ? 'missing' : 'present'} when accepted)`, async () => {
      c = startRaw();
      const rejected = await c.request('i1', 'initialize', { protocolVersion: 1, clientCapabilities: first, _meta: { hostile: 'reject' } });
      assert.equal(errorOf(rejected).code, -32000);
      const accepted = await c.request('i2', 'initialize', { protocolVersion: 1, clientCapabilities: second });
      const result = resultOf<{
        agentCapabilities: { _meta: Record<string, SymposiumCapabilitiesMeta> };
        _meta: { clientCapabilities: unknown };
      }>(accepted);
      const meta = result.agentCapabilities._meta[SYMPOSIUM_META_KEY]!;
      assert.equal(meta.components.includes('fs-adapter'), adapterPlaced, `components: ${meta.components.join(', ')}`);
      assert.equal(
        meta.skipped.some((s) => s.name === 'fs-adapter'),
        !adapterPlaced,
      );
      // What the agent was told: the adapter offers fs when it is placed; otherwise the editor's own.
      assert.deepEqual(result._meta.clientCapabilities, { fs: { readTextFile: true, writeTextFile: true } });
      const s = await c.request('new', 'session/new', { cwd: process.cwd(), mcpServers: [] });
      assert.ok(resultOf<{ sessionId: string }>(s).sessionId);
    });
  }
});
