// Unit tests of the chain router's pure logic, with in-memory peers (no processes).
import * as assert from 'node:assert/strict';
import { Chain, type ExternalPeer } from '../chain/chain';
import type { Component, ComponentContext, IncomingNotification, IncomingRequest } from '../chain/component';
import type { RpcMessage } from '../jsonrpc/message';
import { createLogger } from '../log';

function peer(name: string): ExternalPeer & { sent: RpcMessage[] } {
  const sent: RpcMessage[] = [];
  return { name, sent, send: (m) => void sent.push(m) };
}

function build(components: Component[]) {
  const editor = peer('editor');
  const agent = peer('agent');
  const trace: string[] = [];
  const chain = new Chain(components, {
    log: createLogger('off'),
    editor,
    agent,
    trace: (from, to, _message, via) => void trace.push(via?.length ? `${from}>${to} via ${via.join(',')}` : `${from}>${to}`),
    contextFor: (component, c) =>
      ({
        name: component.name,
        log: createLogger('off'),
        info: { clientCapabilities: {}, agentCapabilities: undefined },
        request: (d, m, p, o) => c.request(component, d, m, p, o),
        notify: (d, m, p) => c.notify(component, d, m, p),
        injectMcpServers: () => Promise.reject(new Error('not in unit tests')),
      }) satisfies ComponentContext,
  });
  return { chain, editor, agent, trace };
}

const plain = (name: string): Component => ({ name });

describe('chain router', () => {
  it('forwards a request with per-hop ids and returns the response with the original id and extra fields', () => {
    const { chain, editor, agent, trace } = build([plain('a'), plain('b')]);
    chain.fromEditor({
      jsonrpc: '2.0',
      id: 'req-1',
      method: 'x/y',
      params: { _meta: { k: 1 }, deep: { unknown: true } },
      extraTopLevel: 5,
    });
    assert.equal(agent.sent.length, 1);
    const forwarded = agent.sent[0]!;
    assert.deepEqual(
      { ...forwarded, id: 0 },
      { jsonrpc: '2.0', id: 0, method: 'x/y', params: { _meta: { k: 1 }, deep: { unknown: true } }, extraTopLevel: 5 },
    );
    chain.fromAgent({ jsonrpc: '2.0', id: (forwarded as { id: number }).id, result: { ok: 1, _meta: { z: 2 } } });
    assert.deepEqual(editor.sent, [{ jsonrpc: '2.0', id: 'req-1', result: { ok: 1, _meta: { z: 2 } } }]);
    assert.deepEqual(trace.slice(0, 3), ['editor>a', 'a>b', 'b>agent']);
  });

  it('keeps agent→editor order: updates before the response stay before it', () => {
    const { chain, editor, agent } = build([plain('a'), plain('b'), plain('c')]);
    chain.fromEditor({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: {} });
    const id = (agent.sent[0] as { id: number }).id;
    for (let i = 0; i < 5; i++) chain.fromAgent({ jsonrpc: '2.0', method: 'session/update', params: { i } });
    chain.fromAgent({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
    assert.deepEqual(
      editor.sent.map((m) => ('method' in m ? (m.params as { i: number }).i : 'response')),
      [0, 1, 2, 3, 4, 'response'],
    );
  });

  it('routes requests from the agent to the editor and answers back with the agent id', () => {
    const { chain, editor, agent } = build([plain('a')]);
    chain.fromAgent({ jsonrpc: '2.0', id: 77, method: 'session/request_permission', params: { p: 1 } });
    const up = editor.sent[0] as { id: number };
    chain.fromEditor({ jsonrpc: '2.0', id: up.id, result: { outcome: { outcome: 'cancelled' } } });
    assert.deepEqual(agent.sent, [{ jsonrpc: '2.0', id: 77, result: { outcome: { outcome: 'cancelled' } } }]);
  });

  it('translates $/cancel_request to the forwarded id at every hop', () => {
    const { chain, agent } = build([plain('a'), plain('b')]);
    chain.fromEditor({ jsonrpc: '2.0', id: 'e1', method: 'session/prompt', params: {} });
    const forwardedId = (agent.sent[0] as { id: number }).id;
    chain.fromEditor({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'e1' } });
    assert.deepEqual(agent.sent[1], { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: forwardedId } });
  });

  it('aborts the signal of a request a component is answering itself', async () => {
    let seen: IncomingRequest | undefined;
    const answering: Component = { name: 'answering', onRequest: (r) => void (seen = r) };
    const { chain, editor } = build([answering]);
    chain.fromEditor({ jsonrpc: '2.0', id: 5, method: 'slow', params: {} });
    chain.fromEditor({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 5 } });
    assert.equal(seen?.signal.aborted, true);
    seen!.fail({ code: -32800, message: 'cancelled' });
    assert.deepEqual(editor.sent, [{ jsonrpc: '2.0', id: 5, error: { code: -32800, message: 'cancelled' } }]);
  });

  it('fires the abort event of a signal a handler is already listening to (signals are made when first read)', () => {
    let aborted = 0;
    const listening: Component = {
      name: 'listening',
      onRequest: (r) => r.signal.addEventListener('abort', () => void aborted++),
    };
    const { chain } = build([listening]);
    chain.fromEditor({ jsonrpc: '2.0', id: 6, method: 'slow', params: {} });
    assert.equal(aborted, 0);
    chain.fromEditor({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 6 } });
    assert.equal(aborted, 1);
  });

  it('lets a component transform params, map responses, answer, and drop notifications', () => {
    const rewriting: Component = {
      name: 'rewriting',
      onRequest: (r) => {
        if (r.method === 'answer/here') return r.respond({ local: true });
        r.forwardThen({ ...(r.params as object), added: 1 }, (o) => ('result' in o ? { result: { wrapped: o.result } } : o));
      },
      onNotification: (n: IncomingNotification) => {
        if (n.method !== 'drop/me') n.forward();
      },
    };
    const { chain, editor, agent } = build([rewriting]);
    chain.fromEditor({ jsonrpc: '2.0', id: 1, method: 'answer/here' });
    chain.fromEditor({ jsonrpc: '2.0', id: 2, method: 'go', params: { a: 0 } });
    chain.fromEditor({ jsonrpc: '2.0', method: 'drop/me' });
    chain.fromEditor({ jsonrpc: '2.0', method: 'keep/me' });
    assert.deepEqual((agent.sent[0] as { params: unknown }).params, { a: 0, added: 1 });
    assert.deepEqual(
      agent.sent.map((m) => (m as { method: string }).method),
      ['go', 'keep/me'],
    );
    chain.fromAgent({ jsonrpc: '2.0', id: (agent.sent[0] as { id: number }).id, result: 7 });
    assert.deepEqual(editor.sent, [
      { jsonrpc: '2.0', id: 1, result: { local: true } },
      { jsonrpc: '2.0', id: 2, result: { wrapped: 7 } },
    ]);
  });

  it('calls a notification handler only for what its component wants; the others are passed by in one hop, in order', () => {
    const seen: string[] = [];
    const picky: Component = {
      name: 'picky',
      wantsNotification: (method, direction) => direction === 'toAgent' && method === 'session/cancel',
      onNotification: (n) => {
        seen.push(`${n.direction} ${n.method}`);
        n.forward({ ...(n.params as object), seenBy: 'picky' });
      },
    };
    const { chain, editor, agent, trace } = build([plain('a'), picky, plain('c')]);
    chain.fromAgent({ jsonrpc: '2.0', method: 'session/update', params: { i: 1 } });
    chain.fromEditor({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } });
    chain.fromAgent({ jsonrpc: '2.0', method: 'session/update', params: { i: 2 } });
    assert.deepEqual(seen, ['toAgent session/cancel']);
    assert.deepEqual(
      editor.sent.map((m) => (m as { params: unknown }).params),
      [{ i: 1 }, { i: 2 }],
    );
    assert.deepEqual(agent.sent, [{ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's', seenBy: 'picky' } }]);
    // Passed by in one hop each, traced as one line naming the components passed (every hop, written once).
    assert.deepEqual(trace, ['agent>editor via c,picky,a', 'editor>picky via a', 'picky>agent via c', 'agent>editor via c,picky,a']);
  });

  it('answers a request whose handler throws with an internal error instead of hanging', () => {
    const broken: Component = {
      name: 'broken',
      onRequest: () => {
        throw new Error('boom');
      },
    };
    const { chain, editor } = build([broken]);
    chain.fromEditor({ jsonrpc: '2.0', id: 9, method: 'any' });
    assert.equal((editor.sent[0] as { error: { code: number; message: string } }).error.code, -32603);
    assert.match((editor.sent[0] as { error: { message: string } }).error.message, /broken: boom/);
  });

  it('routes a component-originated request and its response only to that component', async () => {
    const origin: Component = { name: 'origin' };
    const { chain, editor, agent } = build([plain('up'), origin, plain('down')]);
    const pending = chain.request(origin, 'toAgent', 'session/new', { cwd: '/' });
    const sent = agent.sent[0] as { id: number; method: string };
    assert.equal(sent.method, 'session/new');
    chain.fromAgent({ jsonrpc: '2.0', id: sent.id, result: { sessionId: 's1' } });
    assert.deepEqual(await pending, { sessionId: 's1' });
    assert.equal(editor.sent.length, 0);
  });

  it('fails every request waiting on the agent at once', () => {
    const { chain, editor } = build([plain('a')]);
    chain.fromEditor({ jsonrpc: '2.0', id: 1, method: 'session/prompt' });
    chain.fromEditor({ jsonrpc: '2.0', id: 2, method: 'session/prompt' });
    chain.failRequestsToAgent({ code: -32099, message: 'gone' });
    assert.deepEqual(
      editor.sent.map((m) => (m as { id: number }).id),
      [1, 2],
    );
  });
});

describe('chain router: requests pass by components that do not want them', () => {
  const picky = (name: string, wanted: string, seen: string[]): Component => ({
    name,
    wantsRequest: (method) => method === wanted,
    onRequest: (r) => {
      seen.push(`${name} ${r.method}`);
      r.forward();
    },
  });

  it('skips them in one hop each way, traced as one line naming them, and still reaches those that want it', () => {
    const seen: string[] = [];
    const { chain, editor, agent, trace } = build([plain('edge-e'), picky('a', 'x/a', seen), picky('b', 'x/b', seen), plain('edge-a')]);
    chain.fromEditor({ jsonrpc: '2.0', id: 'r1', method: 'x/b', params: { n: 1 } });
    assert.deepEqual(seen, ['b x/b']);
    const sent = agent.sent[0] as { id: number; params: unknown };
    assert.deepEqual(sent.params, { n: 1 });
    chain.fromAgent({ jsonrpc: '2.0', id: sent.id, result: { ok: true } });
    assert.deepEqual(editor.sent, [{ jsonrpc: '2.0', id: 'r1', result: { ok: true } }]);
    assert.deepEqual(trace, [
      'editor>edge-e',
      'edge-e>b via a',
      'b>edge-a',
      'edge-a>agent',
      'agent>edge-a',
      'edge-a>b',
      'b>edge-e via a',
      'edge-e>editor',
    ]);
  });

  it('the edges take every request, so ids toward the editor and the agent stay theirs', () => {
    const seen: string[] = [];
    const { chain, editor, agent, trace } = build([plain('edge-e'), picky('a', 'none', seen), plain('edge-a')]);
    chain.fromAgent({ jsonrpc: '2.0', id: 41, method: 'session/request_permission', params: {} });
    const up = editor.sent[0] as { id: number };
    chain.fromEditor({ jsonrpc: '2.0', id: up.id, result: { outcome: { outcome: 'cancelled' } } });
    assert.deepEqual(agent.sent, [{ jsonrpc: '2.0', id: 41, result: { outcome: { outcome: 'cancelled' } } }]);
    assert.deepEqual(seen, []);
    assert.deepEqual(trace.slice(0, 3), ['agent>edge-a', 'edge-a>edge-e via a', 'edge-e>editor']);
  });

  it('a cancel follows the request past the components it skipped, with the id it had there', () => {
    const { chain, agent } = build([plain('edge-e'), picky('a', 'none', []), picky('b', 'none', []), plain('edge-a')]);
    chain.fromEditor({ jsonrpc: '2.0', id: 'e1', method: 'session/prompt', params: {} });
    const forwardedId = (agent.sent[0] as { id: number }).id;
    chain.fromEditor({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'e1' } });
    assert.deepEqual(agent.sent[1], { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: forwardedId } });
  });

  it('keeps apart equal ids from two senders at one receiver (a skipped component originating its own request)', async () => {
    const origin: Component = { name: 'origin', wantsRequest: () => false, onRequest: (r) => r.forward() };
    let held: IncomingRequest[] = [];
    const receiver: Component = { name: 'receiver', onRequest: (r) => void held.push(r) };
    const { chain, editor } = build([plain('edge-e'), origin, receiver, plain('edge-a')]);
    // The editor edge's request id 1 passes `origin` by; `origin` then sends its own id 1.
    chain.fromEditor({ jsonrpc: '2.0', id: 'from-editor', method: 'x/y', params: {} });
    const own = chain.request(origin, 'toAgent', 'x/own', {});
    assert.deepEqual(
      held.map((r) => r.method),
      ['x/y', 'x/own'],
    );
    const [fromEditor, fromOrigin] = held;
    held = [];
    // The editor's cancel reaches its own request, not the other sender's with the same id.
    chain.fromEditor({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: 'from-editor' } });
    assert.deepEqual([fromEditor!.signal.aborted, fromOrigin!.signal.aborted], [true, false]);
    fromOrigin!.respond({ to: 'origin' });
    fromEditor!.respond({ to: 'editor' });
    assert.deepEqual(await own, { to: 'origin' });
    assert.deepEqual(editor.sent, [{ jsonrpc: '2.0', id: 'from-editor', result: { to: 'editor' } }]);
  });

  it('a component-originated request cancelled by its signal sends the cancel where the request went', () => {
    const origin: Component = { name: 'origin' };
    const { chain, agent } = build([plain('edge-e'), origin, picky('skipped', 'none', []), plain('edge-a')]);
    const abort = new AbortController();
    const pending = chain.request(origin, 'toAgent', 'x/slow', {}, { signal: abort.signal });
    pending.catch(() => undefined);
    const sentId = (agent.sent[0] as { id: number }).id;
    abort.abort();
    assert.deepEqual(agent.sent[1], { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: sentId } });
  });
});
