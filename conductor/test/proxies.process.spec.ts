// External proxies in the chain: the conductor (real process) runs the SDK-written proxy fixtures
// (conductor/test/fixtures/proxies/, real processes) between built-in components, in front of
// ElizACP, in both wire dialects (`proxy/*` and `_proxy/*`). Checked like the in-process chain:
// order, losslessness, cancellation, MCP over ACP bridged to the agent, and a proxy crash (the
// conductor stays up and refuses what needs the proxy with its exit reason).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  SYMPOSIUM_META_KEY,
  AGENT_EXITED_METHOD,
  COMPONENT_EXITED_METHOD,
  type ComponentExitedParams,
} from '../../src/protocol/symposium-ext';
import { rawConductor, rssOf } from './rawClient';
import { CONDUCTOR_JS, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, waitFor, type Harness } from './harness';

const FIXTURES = resolve(__dirname, '../../out/fixtures/proxies');
type Dialect = 'proxy' | '_proxy';

function rewriter(name: string, dialect: Dialect, ...replace: string[]): string {
  const args = [resolve(FIXTURES, 'promptRewriter.js'), '--dialect', dialect, '--name', name, ...replace.flatMap((r) => ['--replace', r])];
  return JSON.stringify({ name, command: process.execPath, args });
}

function injector(dialect: Dialect): string {
  return JSON.stringify({
    name: `mcp-injector`,
    command: process.execPath,
    args: [resolve(FIXTURES, 'mcpInjector.js'), '--dialect', dialect],
  });
}

function conductorWith(proxies: string[], components: string[], agent = elizaCommand(), traceDir?: string): string[] {
  return [
    process.execPath,
    CONDUCTOR_JS,
    '--log',
    'debug',
    ...(traceDir ? ['--trace-dir', traceDir] : []),
    ...proxies.flatMap((p) => ['--proxy', p]),
    '--components',
    components.join(','),
    '--',
    ...agent,
  ];
}

/** Live processes whose command line contains `marker` (Linux /proc; zombies count as gone). */
function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z' && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const metaOf = (init: { agentCapabilities?: { _meta?: Record<string, unknown> | null } }): { components: string[] } =>
  init.agentCapabilities!._meta![SYMPOSIUM_META_KEY] as { components: string[] };

for (const dialect of ['proxy', '_proxy'] as const) {
  describe(`external proxies, ${dialect}/* dialect (real processes)`, function () {
    this.timeout(30000);
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('runs two proxies between built-in components, in order, rewriting the prompt and keeping everything else', async () => {
      const marker = `marker-${randomUUID()}`;
      const traceDir = tempDir('symposium-proxy-trace-');
      h = startProcess(
        conductorWith(
          [rewriter('rewrite-a', dialect, 'ekko=echo'), rewriter('rewrite-b', dialect, `${marker}=meta`)],
          ['passthrough', 'rewrite-a', 'symposium-info', 'rewrite-b', 'passthrough'],
          elizaCommand(),
          traceDir,
        ),
      );
      const init = await initialize(h);
      assert.equal(init.agentInfo?.name, 'elizacp');
      assert.deepEqual(metaOf(init).components, ['passthrough', 'rewrite-a', 'symposium-info', 'rewrite-b', 'passthrough', 'mcp-over-acp']);
      assert.match(h.stderr(), new RegExp(`initialized \\(dialect ${dialect}/initialize\\)`));
      const sessionId = await newSession(h, tempDir());
      const keep = { nested: [1, 'two', { three: null }], unicode: 'héllo ✓' };
      const r = await prompt(h, sessionId, 'ekko meta', { keep });
      assert.equal(r.stopReason, 'end_turn');
      // The text reached ElizACP rewritten ("echo meta"); _meta kept, each proxy's mark in chain order.
      assert.deepEqual(JSON.parse(r.text), { keep, rewrittenBy: ['rewrite-a', 'rewrite-b'] });
      // An unknown request, its params exactly as sent.
      const odd = { a: [1, { b: 'c' }], _meta: { x: 1 }, emptyObj: {}, nul: null };
      assert.deepEqual(await h.conn.agent.request('_eliza/echo', odd), { echoed: odd });
      assert.equal(processesWith(marker).length, 2, 'the conductor and its proxy run (the marker is in both command lines)');
      await h.close();
      await waitFor(() => processesWith(marker).length === 0, 3000, 'no proxy process left after the conductor ended');
      // The proxies' own wire is in the trace too, as its own hop.
      const trace = readdirSync(traceDir)
        .map((f) => readFileSync(join(traceDir, f), 'utf8'))
        .join('');
      const hops = trace
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { from: string; to: string; message: { method?: string; params?: { method?: string } } });
      assert.ok(hops.some((l) => l.from === 'rewrite-a' && l.to === 'rewrite-a (process)' && l.message.method === `${dialect}/initialize`));
      assert.ok(
        hops.some(
          (l) =>
            l.from === 'rewrite-b (process)' &&
            l.to === 'rewrite-b' &&
            l.message.method === `${dialect}/successor` &&
            l.message.params?.method === 'session/prompt',
        ),
      );
    });

    it("carries the agent's requests to the editor and back through a proxy (permission, fs)", async () => {
      const asked: string[] = [];
      const permissions: string[] = [];
      h = startProcess(conductorWith([rewriter('rewrite-a', dialect)], ['rewrite-a', 'symposium-info']), {
        readTextFile: async (p) => (asked.push(p.path), { content: 'from the editor buffer' }),
        permission: async (p) => (permissions.push(p.toolCall.title ?? ''), { outcome: { outcome: 'selected', optionId: 'reject-once' } }),
      });
      await initialize(h, { fs: { readTextFile: true, writeTextFile: true } });
      const sessionId = await newSession(h, tempDir());
      assert.match((await prompt(h, sessionId, 'read file /anywhere/file.txt')).text, /from the editor buffer/);
      assert.deepEqual(asked, ['/anywhere/file.txt']);
      assert.equal(
        (await prompt(h, sessionId, 'request permission for rm -rf build kind execute')).text,
        'Permission outcome: selected reject-once',
      );
      assert.deepEqual(permissions, ['rm -rf build']);
    });

    it('skips garbage on a proxy stdout and answers its malformed envelope with an error; the session goes on', async () => {
      h = startProcess(conductorWith([rewriter('rewrite-a', dialect, 'ekko=echo')], ['rewrite-a']));
      await initialize(h);
      const sessionId = await newSession(h, tempDir());
      const r = await prompt(h, sessionId, 'ekko meta proxy garbage');
      assert.equal(r.stopReason, 'end_turn');
      assert.deepEqual(JSON.parse(r.text), { rewrittenBy: ['rewrite-a'] });
      await waitFor(
        () => /refused a line from the proxy/.test(h!.stderr()) && /params must be \{method, params\?\}/.test(h!.stderr()),
        3000,
        'the logs',
      );
      assert.equal((await prompt(h, sessionId, 'ekko meta')).stopReason, 'end_turn', 'the proxy still serves');
    });

    it('carries session/cancel through a proxy', async () => {
      h = startProcess(conductorWith([rewriter('rewrite-a', dialect)], ['rewrite-a']));
      await initialize(h);
      const sessionId = await newSession(h, tempDir());
      const running = h.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'tell me a long story' }] });
      await waitFor(() => h!.updates.some((u) => u.sessionId === sessionId), 5000, 'first chunk');
      const cancelledAt = Date.now();
      await h.conn.agent.notify('session/cancel', { sessionId });
      assert.equal((await running).stopReason, 'cancelled');
      assert.ok(Date.now() - cancelledAt < 1500, 'cancel took too long');
    });

    for (const transport of ['http', 'stdio'] as const) {
      it(`bridges the MCP server a proxy serves over ACP to the agent (${transport})`, async () => {
        const agent = elizaCommand(transport === 'stdio' ? ['--no-http-mcp'] : []);
        h = startProcess(conductorWith([injector(dialect)], ['mcp-injector', 'symposium-info'], agent));
        const init = await initialize(h);
        // Upstream of the bridge, the chain speaks MCP over ACP.
        assert.equal((init.agentCapabilities?.mcpCapabilities as { acp?: boolean } | undefined)?.acp, true);
        const sessionId = await newSession(h, tempDir());
        assert.equal(
          (await prompt(h, sessionId, 'list tools from proxy-tools')).text,
          'Tools from proxy-tools: reverse, count, ask_agent, ask_user',
        );
        assert.equal((await prompt(h, sessionId, 'use tool proxy-tools::reverse with {"text": "stressed"}')).text, 'desserts');
        assert.match(h.stderr(), /bridged MCP-over-ACP servers for the agent: proxy-tools/);
      });
    }

    it('a proxy that crashes fails the sessions it served with its exit reason; the conductor keeps answering, then ends cleanly', async () => {
      const marker = `marker-${randomUUID()}`;
      h = startProcess(
        conductorWith(
          [rewriter('rewrite-a', dialect), rewriter('rewrite-b', dialect, `${marker}=meta`)],
          ['rewrite-a', 'symposium-info', 'rewrite-b'],
        ),
      );
      await initialize(h);
      const sessionId = await newSession(h, tempDir());
      const other = await newSession(h, tempDir());
      // A long prompt in the other session, running when the proxy dies: it fails too, at once.
      const running = h.conn.agent.request('session/prompt', {
        sessionId: other,
        prompt: [{ type: 'text', text: 'tell me a long story' }],
      });
      await waitFor(() => h!.updates.some((u) => u.sessionId === other), 5000, 'first chunk of the other session');
      const started = Date.now();
      const failure = await h.conn.agent
        .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'please crash the proxy' }] })
        .then(
          () => assert.fail('the prompt should fail'),
          (e: { code: number; message: string }) => e,
        );
      assert.ok(Date.now() - started < 2000, 'the failure took too long');
      assert.equal(failure.code, -32099);
      assert.match(failure.message, /proxy "rewrite-a" exited with code 7/);
      assert.match(failure.message, /rewrite-a: crashing as asked/);
      const runningFailure = await running.then(
        () => assert.fail('the running prompt should fail'),
        (e: { message: string }) => e,
      );
      assert.match(runningFailure.message, /proxy "rewrite-a" exited with code 7/);
      const exited = await waitFor(() => h!.notifications.find((n) => n.method === COMPONENT_EXITED_METHOD), 3000, 'component_exited');
      const params = exited.params as ComponentExitedParams;
      assert.equal(params.component, 'rewrite-a');
      assert.equal(params.exitCode, 7);
      assert.match(params.stderrTail, /crashing as asked/);
      assert.ok(!h.notifications.some((n) => n.method === AGENT_EXITED_METHOD), 'the agent did not exit');
      // The conductor keeps running and answers: new prompts and sessions are refused with the same reason.
      for (const refused of [
        h.conn.agent.request('session/prompt', { sessionId: other, prompt: [{ type: 'text', text: 'hello' }] }),
        h.conn.agent.request('session/new', { cwd: tempDir(), mcpServers: [] }),
      ]) {
        const e = await refused.then(
          () => assert.fail('should be refused'),
          (err: { code: number; message: string }) => err,
        );
        assert.equal(e.code, -32099);
        assert.match(e.message, /proxy "rewrite-a" exited with code 7/);
      }
      const stillRunning = await Promise.race([h.exited.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 300))]);
      assert.ok(stillRunning, 'the conductor is still running');
      const agentPid = Number(/started agent: .* \(pid (\d+)\)/.exec(h.stderr())?.[1]);
      assert.ok(agentPid > 0 && processesWith('').includes(agentPid), 'the agent is running');
      assert.equal(processesWith(marker).length, 2, 'the conductor and the other proxy run');
      // Its own stdin closed: the conductor ends cleanly, and with it the agent and the other proxy.
      await h.close();
      assert.equal(await h.exited, 0);
      await waitFor(() => processesWith(marker).length === 0 && !processesWith('').includes(agentPid), 3000, 'no process left');
    });
  });
}

describe('external proxies that cannot run', function () {
  this.timeout(30000);

  it('a proxy that cannot be started fails initialize with the reason, and the conductor ends', async () => {
    const h = startProcess(conductorWith(['/nonexistent/no-such-proxy --acp'], ['no-such-proxy']));
    try {
      const failure = await initialize(h).then(
        () => assert.fail('initialize should fail'),
        (e: { message: string }) => e,
      );
      assert.match(failure.message, /proxy "no-such-proxy" could not be started: spawn \/nonexistent\/no-such-proxy ENOENT/);
      assert.equal(await h.exited, 1);
    } finally {
      await h.close();
    }
  });

  it('an ordinary agent used as a proxy (no proxy protocol) fails initialize, saying so', async () => {
    const h = startProcess(
      conductorWith([JSON.stringify({ name: 'not-a-proxy', command: process.execPath, args: [CONDUCTOR_JS, 'eliza'] })], ['not-a-proxy']),
    );
    try {
      const failure = await initialize(h).then(
        () => assert.fail('initialize should fail'),
        (e: { code: number; message: string }) => e,
      );
      assert.match(
        failure.message,
        /proxy "not-a-proxy" does not speak the ACP proxy protocol \(neither proxy\/initialize nor _proxy\/initialize\)/,
      );
    } finally {
      await h.close();
    }
  });
});

describe('external proxies on raw pipes', function () {
  this.timeout(60000);

  it('never lets a prompt response overtake the updates streamed before it, through two proxies', async () => {
    const args = conductorWith(
      [rewriter('rewrite-a', 'proxy'), rewriter('rewrite-b', '_proxy')],
      ['rewrite-a', 'passthrough', 'rewrite-b', 'symposium-info'],
    );
    const { child, lines, send, response } = rawConductor(args);
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
      await response(1, 30000);
      send({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: tempDir(), mcpServers: [] } });
      const sessionId = ((await response(2, 30000)).result as { sessionId: string }).sessionId;
      const n = 2000;
      send({
        jsonrpc: '2.0',
        id: 3,
        method: 'session/prompt',
        params: { sessionId, prompt: [{ type: 'text', text: `stream ${n} chunks` }] },
      });
      await response(3, 30000);
      const responseIndex = lines.findIndex((l) => l.id === 3);
      const chunks = lines
        .map((l, i) => [l, i] as const)
        .filter(([l]) => l.method === 'session/update' && JSON.stringify(l).includes('"chunk '));
      assert.equal(chunks.length, n);
      assert.ok(
        chunks.every(([, i]) => i < responseIndex),
        'an update arrived after the prompt response',
      );
      const texts = chunks.map(([l]) => (l.params as { update: { content: { text: string } } }).update.content.text);
      assert.ok(
        texts.join('') === Array.from({ length: n }, (_, i) => `chunk ${i + 1} `).join(''),
        'chunks arrived out of order or altered',
      );
    } finally {
      child.kill();
    }
  });
  it('a proxy that stops reading holds the agent back (backpressure): the conductor does not buffer the stream, then everything arrives in order', async () => {
    const args = conductorWith([rewriter('stalling', 'proxy')], ['stalling']).map((a) =>
      a.replace('"--name"', '"--stall-ms","4000","--name"'),
    );
    const child = spawn(args[0]!, args.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    let chunks = 0;
    let inOrder = true;
    let lastChunkAt = 0;
    let buffer = '';
    let stderr = '';
    const responses = new Map<number, Record<string, unknown>>();
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (t: string) => {
      buffer += t;
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      for (const p of parts) {
        const l = JSON.parse(p) as Record<string, unknown>;
        const text = (l.params as { update?: { content?: { text?: string } } } | undefined)?.update?.content?.text;
        if (l.method === 'session/update' && text?.startsWith('chunk ')) {
          lastChunkAt = Date.now();
          if (responses.has(3) || text !== `chunk ${++chunks} `) inOrder = false;
        } else if (typeof l.id === 'number' && !('method' in l)) responses.set(l.id, l);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (t: string) => (stderr += t));
    const send = (m: unknown): void => void child.stdin.write(JSON.stringify(m) + '\n');
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
      await waitFor(() => responses.get(1), 10000, 'initialize');
      send({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: tempDir(), mcpServers: [] } });
      const sessionId = ((await waitFor(() => responses.get(2), 10000, 'session/new')).result as { sessionId: string }).sessionId;
      const n = 100000;
      await new Promise((r) => setTimeout(r, 500));
      // The window that matters: from when the stream stops reaching us (the proxy stopped reading)
      // until it resumes. Held back, the agent's output waits in the agent; not held, it would pile
      // up in the conductor for the proxy.
      let atStall: number | undefined;
      let peak = 0;
      const sampler = setInterval(() => {
        const stalled = chunks > 0 && chunks < n && Date.now() - lastChunkAt > 400;
        if (!stalled) return;
        const rss = rssOf(child.pid!);
        atStall ??= rss;
        peak = Math.max(peak, rss);
      }, 20);
      send({
        jsonrpc: '2.0',
        id: 3,
        method: 'session/prompt',
        params: { sessionId, prompt: [{ type: 'text', text: `stream ${n} chunks, and stall the proxy` }] },
      });
      await waitFor(() => responses.get(3), 60000, 'the prompt response');
      clearInterval(sampler);
      assert.equal(chunks, n, 'every chunk arrived');
      assert.ok(inOrder, 'in order, and before the answer');
      assert.match(stderr, /proxy stdin full: holding the other inputs/);
      assert.ok(atStall !== undefined, 'the stream stalled while the proxy did not read');
      const growth = peak - atStall;
      process.stderr.write(`      [proxy stall] conductor RSS growth ${(growth / 1024 / 1024).toFixed(1)} MB\n`);
      assert.ok(growth < 8 * 1024 * 1024, `the conductor grew by ${(growth / 1024 / 1024).toFixed(1)} MB while the proxy did not read`);
    } finally {
      child.kill();
    }
  });
});
