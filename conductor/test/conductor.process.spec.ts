// The conductor as a real process in front of ElizACP (also a real process), driven over real
// pipes by the ACP SDK's client: the path the extension uses.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { respond } from '../eliza/engine';
import { SYMPOSIUM_META_KEY, AGENT_EXITED_METHOD } from '../../src/protocol/symposium-ext';
import { conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, waitFor, type Harness } from './harness';
import { DEFAULT_COMPONENTS } from '../components/registry';

describe('conductor in front of ElizACP (real processes)', function () {
  this.timeout(20000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('initializes, advertises the chain, and streams the exact deterministic reply', async () => {
    h = startProcess(conductorArgs());
    const init = await initialize(h, { fs: { readTextFile: true, writeTextFile: true } });
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentInfo?.name, 'elizacp');
    const meta = (init.agentCapabilities?._meta as Record<string, { components: string[]; skipped: { name: string }[] }>)[
      SYMPOSIUM_META_KEY
    ]!;
    assert.deepEqual(
      meta.components,
      DEFAULT_COMPONENTS.filter((c) => c !== 'fs-adapter'),
    );
    assert.deepEqual(
      meta.skipped.map((s) => s.name),
      ['fs-adapter'],
    );
    const sessionId = await newSession(h, tempDir());
    const input = 'I am worried about my failing tests';
    const chunkCountBefore = h.updates.length;
    const r = await prompt(h, sessionId, input);
    assert.equal(r.stopReason, 'end_turn');
    assert.equal(r.text, respond(input, { deterministic: true }));
    const chunks = h.updates.slice(chunkCountBefore).filter((u) => u.update.sessionUpdate === 'agent_message_chunk');
    assert.ok(chunks.length >= 3, `expected several chunks, got ${chunks.length}`);
  });

  it('cancels a long streamed reply with session/cancel', async () => {
    h = startProcess(conductorArgs());
    await initialize(h);
    const sessionId = await newSession(h, tempDir());
    const running = h.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'tell me a long story' }] });
    await waitFor(() => h!.updates.some((u) => u.sessionId === sessionId), 5000, 'first chunk');
    const cancelledAt = Date.now();
    await h.conn.agent.notify('session/cancel', { sessionId });
    const r = await running;
    assert.equal(r.stopReason, 'cancelled');
    assert.ok(Date.now() - cancelledAt < 1500, 'cancel took too long');
  });

  it('carries $/cancel_request through to the agent', async () => {
    h = startProcess(conductorArgs({ components: ['passthrough', 'symposium-info'] }));
    await initialize(h);
    const sessionId = await newSession(h, tempDir());
    const abort = new AbortController();
    const running = h.conn.agent.request(
      'session/prompt',
      { sessionId, prompt: [{ type: 'text', text: 'tell me a long story' }] },
      { cancellationSignal: abort.signal },
    );
    await waitFor(() => h!.updates.some((u) => u.sessionId === sessionId), 5000, 'first chunk');
    const started = Date.now();
    abort.abort();
    const outcome = await running.then(
      (r) => r.stopReason,
      (e: { code?: number }) => e.code,
    );
    assert.ok(outcome === 'cancelled' || outcome === -32800, `unexpected outcome ${String(outcome)}`);
    // The agent really stopped: no more chunks arrive after it settled.
    const count = h.updates.length;
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(h.updates.length, count);
    assert.ok(Date.now() - started < 2000);
  });

  it('passes unknown _-methods, notifications and _meta through unchanged', async () => {
    h = startProcess(conductorArgs({ components: ['passthrough', 'passthrough', 'symposium-info'] }));
    await initialize(h);
    const params = { a: 1, nested: { unstableField: [1, { x: null }] }, _meta: { 'vendor.example/key': { deep: true } } };
    const echoed = await h.conn.agent.request('_eliza/echo', params);
    assert.deepEqual(echoed, { echoed: params });
    await h.conn.agent.notify('_eliza/ping', { n: 42, _meta: { m: 'x' } });
    const pong = await waitFor(() => h!.notifications.find((n) => n.method === '_eliza/pong'), 3000, '_eliza/pong');
    assert.deepEqual(pong.params, { n: 42, _meta: { m: 'x' } });
    const sessionId = await newSession(h, tempDir());
    const meta = { traceparent: '00-abc-def-01', 'symposium.test': { list: [1, 2, 3] } };
    const r = await prompt(h, sessionId, 'echo meta', meta);
    assert.deepEqual(JSON.parse(r.text), meta);
  });

  for (const mode of ['http', 'stdio'] as const) {
    it(`injects the symposium MCP server over ${mode} and the agent lists and calls its tools`, async () => {
      const traceDir = tempDir('symposium-trace-');
      h = startProcess(conductorArgs({ traceDir, agent: elizaCommand(mode === 'stdio' ? ['--no-http-mcp'] : []) }));
      await initialize(h);
      const sessionId = await newSession(h, tempDir());
      const listed = await prompt(h, sessionId, 'list tools from symposium');
      assert.match(listed.text, /symposium_info/);
      assert.match(listed.text, /echo/);
      const called = await prompt(h, sessionId, 'use tool symposium::echo with {"text":"hello over mcp"}');
      assert.match(called.text, /hello over mcp/);
      const info = await prompt(h, sessionId, 'use tool symposium::symposium_info with {}');
      assert.match(info.text, new RegExp(sessionId));
      // The agent saw exactly the declaration we expect for its capabilities.
      await h.close();
      const file = readdirSync(traceDir).find((f) => f.endsWith('.jsonl'))!;
      const lines = readFileSync(join(traceDir, file), 'utf8')
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              from: string;
              to: string;
              message: { method?: string; params?: { mcpServers?: Record<string, unknown>[] } };
            },
        );
      const toAgent = lines.find((l) => l.to === 'agent' && l.message.method === 'session/new')!;
      const decl = toAgent.message.params!.mcpServers![0]!;
      if (mode === 'http') {
        assert.equal(decl.type, 'http');
        assert.match(String(decl.url), /^http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{32}$/);
        assert.deepEqual(decl.headers, [{ name: 'Authorization', value: 'Bearer [redacted]' }]); // the trace masks the token
      } else {
        assert.equal(decl.type, undefined);
        assert.ok((decl.args as string[]).includes('mcp-bridge'));
        assert.match(JSON.stringify(decl.env), /SYMPOSIUM_MCP_TOKEN/);
      }
      assert.ok(
        lines.some((l) => l.from === 'editor' && l.to === 'editor-edge'),
        'trace records the editor hop',
      );
    });
  }

  it('refuses MCP requests without the bearer token', async () => {
    const traceDir = tempDir('symposium-trace-');
    h = startProcess(conductorArgs({ traceDir }));
    await initialize(h);
    await newSession(h, tempDir());
    await waitFor(() => readdirSync(traceDir).length > 0, 2000, 'trace file');
    const file = join(traceDir, readdirSync(traceDir)[0]!);
    const line = await waitFor(
      () =>
        readFileSync(file, 'utf8')
          .split('\n')
          .find((l) => l.includes('"to":"agent"') && l.includes('session/new')),
      3000,
      'session/new in trace',
    );
    const url = String((JSON.parse(line) as { message: { params: { mcpServers: { url: string }[] } } }).message.params.mcpServers[0]!.url);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    assert.equal(res.status, 401);
  });

  it('fails the pending prompt within a second when the agent crashes, with the exit code and stderr tail', async () => {
    h = startProcess(conductorArgs());
    await initialize(h);
    const sessionId = await newSession(h, tempDir());
    const started = Date.now();
    const err = await h.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'crash with code 7' }] }).then(
      () => assert.fail('prompt should fail'),
      (e: { code: number; message: string }) => e,
    );
    assert.ok(Date.now() - started < 1000, 'error took too long');
    assert.equal(err.code, -32099);
    assert.match(err.message, /code 7/);
    assert.match(err.message, /crashing as asked/);
    const exited = await waitFor(() => h!.notifications.find((n) => n.method === AGENT_EXITED_METHOD), 2000, 'agent_exited');
    assert.equal((exited.params as { exitCode: number }).exitCode, 7);
    assert.equal(await h.exited, 1, 'the conductor ends with its agent');
  });

  it('skips garbage on the agent stdout, logs it, and the session goes on', async () => {
    h = startProcess(conductorArgs());
    await initialize(h);
    const sessionId = await newSession(h, tempDir());
    const first = await prompt(h, sessionId, 'print garbage');
    assert.equal(first.stopReason, 'end_turn');
    const second = await prompt(h, sessionId, 'hello there');
    assert.equal(second.text, respond('hello there', { deterministic: true }));
    assert.match(h.stderr(), /skipped a line on the agent's stdout that is not JSON-RPC/);
  });

  it('serves fs/* inside the session folder when the editor lacks the capability, and refuses outside', async () => {
    h = startProcess(conductorArgs());
    const init = await initialize(h, {});
    const meta = (init.agentCapabilities?._meta as Record<string, { components: string[] }>)[SYMPOSIUM_META_KEY]!;
    assert.ok(meta.components.includes('fs-adapter'));
    const cwd = tempDir();
    writeFileSync(join(cwd, 'notes.txt'), 'line one\nline two\nline three\n');
    const sessionId = await newSession(h, cwd);
    const read = await prompt(h, sessionId, `read file ${join(cwd, 'notes.txt')}`);
    assert.match(read.text, /line two/);
    const wrote = await prompt(h, sessionId, `write file ${join(cwd, 'sub/new.txt')} with fresh content`);
    assert.match(wrote.text, /Wrote/);
    assert.equal(readFileSync(join(cwd, 'sub/new.txt'), 'utf8'), 'fresh content');
    const outside = await prompt(h, sessionId, 'read file /etc/hostname');
    assert.match(outside.text, /outside the session's working directory/);
  });

  it('leaves fs/* to the editor when it offers the capability', async () => {
    const asked: string[] = [];
    h = startProcess(conductorArgs(), { readTextFile: async (p) => (asked.push(p.path), { content: 'from the editor buffer' }) });
    await initialize(h, { fs: { readTextFile: true, writeTextFile: true } });
    const sessionId = await newSession(h, tempDir());
    const r = await prompt(h, sessionId, 'read file /anywhere/file.txt');
    assert.match(r.text, /from the editor buffer/);
    assert.deepEqual(asked, ['/anywhere/file.txt']);
  });
});
