// The Sparkle component against a fake chain context: the paths the ElizACP process tests cannot
// reach — an embodiment that fails or hangs, session/close and $/cancel_request of held prompts,
// load/resume (server injected, no embodiment), which updates get marked and for how long.
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sparkleMarkOf } from '../../../src/protocol/symposium-ext';
import type { ComponentContext, Direction, IncomingNotification, IncomingRequest, RequestOptions } from '../../chain/component';
import type { RpcOutcome } from '../../jsonrpc/message';
import { createLogger } from '../../log';
import { Sparkle } from './component';

interface Sent {
  direction: Direction;
  method: string;
  params: unknown;
  options?: RequestOptions;
  settle(outcome: RpcOutcome): void;
}

function fakeContext() {
  const sent: Sent[] = [];
  const notified: { direction: Direction; method: string; params: unknown }[] = [];
  const injected: string[] = [];
  const cx: ComponentContext = {
    name: 'sparkle',
    log: createLogger('off'),
    info: { clientCapabilities: {}, agentCapabilities: {} },
    request: (direction, method, params, options) =>
      new Promise((resolve, reject) => {
        sent.push({
          direction,
          method,
          params,
          options,
          settle: (o) => {
            options?.onResponse?.(o);
            if ('result' in o) resolve(o.result);
            else reject(new Error(o.error.message));
          },
        });
      }),
    notify: (direction, method, params) => void notified.push({ direction, method, params }),
    injectMcpServers: async (p, servers) => {
      injected.push(String((p as { sessionId?: string }).sessionId ?? 'new'));
      return { params: { ...p, mcpServers: servers.map((s) => s.name) }, bind: () => undefined, close: async () => undefined };
    },
  };
  return { cx, sent, notified, injected };
}

interface Fake {
  request: IncomingRequest;
  forwarded: unknown[];
  answer: { result?: unknown; error?: { code: number } };
  abort: AbortController;
  map?: (o: RpcOutcome) => RpcOutcome;
}
function incoming(method: string, params: unknown): Fake {
  const abort = new AbortController();
  const f: Fake = { forwarded: [], answer: {}, abort, request: undefined as never };
  f.request = {
    method,
    params,
    direction: 'toAgent',
    signal: abort.signal,
    forward: (p) => void f.forwarded.push(p ?? params),
    forwardThen: (p, map) => {
      f.forwarded.push(p ?? params);
      f.map = map;
    },
    respond: (result) => {
      f.answer = { result };
    },
    fail: (error) => {
      f.answer = { error };
    },
  };
  return f;
}
function notification(direction: Direction, method: string, params: unknown): { n: IncomingNotification; out: unknown[] } {
  const out: unknown[] = [];
  return { out, n: { method, params, direction, forward: (p) => void out.push(p ?? params) } };
}

const until = async (check: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), what);
};
const prompt = (sessionId: string, text: string): Fake => incoming('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });

async function started(options: ConstructorParameters<typeof Sparkle>[0] = {}) {
  const home = join(mkdtempSync(join(tmpdir(), 'sparkle-component-')), '.sparkle');
  const sparkle = new Sparkle({ homeDir: home, ...options });
  const f = fakeContext();
  const newSession = incoming('session/new', { cwd: mkdtempSync(join(tmpdir(), 'sparkle-ws-')), mcpServers: [] });
  sparkle.onRequest(newSession.request, f.cx);
  await until(() => newSession.map !== undefined, 'session/new forwarded with the server');
  assert.deepEqual((newSession.forwarded[0] as { mcpServers: string[] }).mcpServers, ['sparkle']);
  newSession.map!({ result: { sessionId: 's1' } });
  return { sparkle, ...f };
}

describe('Sparkle component (fake chain)', () => {
  it('an embodiment that ends badly still releases the held prompts, in order, after a marked note', async () => {
    const { sparkle, cx, sent, notified } = await started();
    const [a, b] = [prompt('s1', 'first'), prompt('s1', 'second')];
    sparkle.onRequest(a.request, cx);
    sparkle.onRequest(b.request, cx);
    await until(() => sent.length === 1, 'the embodiment prompt');
    assert.equal(sparkleMarkOf(sent[0]!.params), 'embodiment');
    assert.deepEqual([a.forwarded, b.forwarded], [[], []], 'held');
    sent[0]!.settle({ result: { stopReason: 'refusal' } });
    assert.equal(notified.length, 1);
    assert.match(JSON.stringify(notified[0]!.params), /Sparkle embodiment did not complete: the turn ended with \\"refusal\\"/);
    assert.equal(sparkleMarkOf((notified[0]!.params as { update: unknown }).update), 'embodiment');
    assert.equal(a.forwarded.length + b.forwarded.length, 2, 'both released');
    const later = prompt('s1', 'third');
    sparkle.onRequest(later.request, cx);
    assert.equal(later.forwarded.length, 1, 'the gate is open');
    await sparkle.dispose();
  });

  it('a hung embodiment is cancelled after the timeout', async () => {
    const { sparkle, notified, sent } = await started({ embodimentTimeoutMs: 50 });
    await until(() => notified.some((n) => n.method === 'session/cancel'), 'session/cancel sent to the agent');
    assert.deepEqual(
      notified.find((n) => n.method === 'session/cancel'),
      { direction: 'toAgent', method: 'session/cancel', params: { sessionId: 's1' } },
    );
    sent[0]!.settle({ result: { stopReason: 'cancelled' } });
    await sparkle.dispose();
  });

  it('session/close answers held prompts cancelled; $/cancel_request fails just that one', async () => {
    const { sparkle, cx, sent } = await started();
    const [a, b] = [prompt('s1', 'a'), prompt('s1', 'b')];
    sparkle.onRequest(a.request, cx);
    sparkle.onRequest(b.request, cx);
    a.abort.abort();
    assert.equal(a.answer.error?.code, -32800);
    const close = incoming('session/close', { sessionId: 's1' });
    sparkle.onRequest(close.request, cx);
    assert.deepEqual(b.answer, { result: { stopReason: 'cancelled' } });
    assert.equal(close.forwarded.length, 1);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(sent.length, 0, 'a session closed before its embodiment was ready is not embodied');
    assert.deepEqual([a.forwarded, b.forwarded], [[], []], 'neither reached the agent');
    await sparkle.dispose();
  });

  it('marks turn updates only while the embodiment runs; session-level updates stay unmarked', async () => {
    const { sparkle, cx, sent } = await started();
    await until(() => sent.length === 1, 'embodiment sent');
    const chunk = notification('toClient', 'session/update', {
      sessionId: 's1',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } },
    });
    const commands = notification('toClient', 'session/update', {
      sessionId: 's1',
      update: { sessionUpdate: 'available_commands_update', availableCommands: [] },
    });
    const other = notification('toClient', 'session/update', {
      sessionId: 's2',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'y' } },
    });
    for (const x of [chunk, commands, other]) sparkle.onNotification(x.n, cx);
    assert.equal(sparkleMarkOf((chunk.out[0] as { update: unknown }).update), 'embodiment');
    assert.equal(sparkleMarkOf(chunk.out[0]), 'embodiment');
    assert.equal(sparkleMarkOf((commands.out[0] as { update: unknown }).update), undefined);
    assert.equal(sparkleMarkOf((other.out[0] as { update: unknown }).update), undefined);
    sent[0]!.settle({ result: { stopReason: 'end_turn' } });
    const after = notification('toClient', 'session/update', {
      sessionId: 's1',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'z' } },
    });
    sparkle.onNotification(after.n, cx);
    assert.equal(sparkleMarkOf((after.out[0] as { update: unknown }).update), undefined);
    await sparkle.dispose();
  });

  it('session/load and session/resume get the server but no embodiment; a research session gets neither', async () => {
    const sparkle = new Sparkle({ homeDir: join(mkdtempSync(join(tmpdir(), 'sparkle-component-')), '.sparkle') });
    const { cx, sent, injected } = fakeContext();
    for (const method of ['session/load', 'session/resume']) {
      const r = incoming(method, { sessionId: 'old', cwd: '/w', mcpServers: [] });
      sparkle.onRequest(r.request, cx);
      await until(() => r.map !== undefined, `${method} forwarded`);
      r.map!({ result: {} });
    }
    const research = incoming('session/new', { cwd: '/w', mcpServers: [], _meta: { symposium: { research: { crate: 'serde' } } } });
    sparkle.onRequest(research.request, cx);
    assert.deepEqual(research.forwarded, [research.request.params], 'forwarded untouched');
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(injected, ['old', 'old']);
    assert.equal(sent.length, 0, 'no embodiment prompt');
    await sparkle.dispose();
  });
});
