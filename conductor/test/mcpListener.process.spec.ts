// The conductor's injected MCP servers as a real process in front of ElizACP (HTTP MCP): one
// loopback listener per conductor however many sessions are open (counted from /proc), and a
// flood of refused requests makes a bounded number of log lines.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { conductorArgs, initialize, newSession, prompt, startProcess, tempDir, waitFor, type Harness } from './harness';

/** TCP sockets in LISTEN state (st 0A) owned by process `pid`, from /proc/<pid>/fd and net/tcp{,6}. */
function listeningSockets(pid: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      /* closed meanwhile */
    }
  }
  let count = 0;
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A' && inodes.has(cols[9]!)) count++;
    }
  }
  return count;
}

/** The injected servers' declarations the agent received in session/new, from the trace. */
function injectedServers(traceDir: string): { name: string; url: string }[][] {
  const file = join(
    traceDir,
    readdirSync(traceDir).find((f) => f.endsWith('.jsonl'))!,
  );
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"to":"agent"') && l.includes('"session/new"'))
    .map((l) => (JSON.parse(l) as { message: { params: { mcpServers: { name: string; url: string }[] } } }).message.params.mcpServers);
}

describe('injected MCP servers: one listener per conductor (real processes)', function () {
  this.timeout(120_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('200 sessions that are never closed leave one listening socket, and their servers work', async () => {
    const traceDir = tempDir('symposium-trace-');
    h = startProcess(conductorArgs({ traceDir, log: 'info' }));
    await initialize(h);
    const pid = h.child.pid!;
    const cwd = tempDir();
    const sessions: string[] = [];
    for (let i = 0; i < 200; i++) sessions.push(await newSession(h, cwd));
    const listening = listeningSockets(pid);
    console.log(`      conductor ${pid}: ${listening} listening TCP socket(s) after ${sessions.length} sessions`);
    assert.equal(listening, 1);
    const declared = await waitFor(
      () => {
        const d = injectedServers(traceDir);
        return d.length === 200 && d;
      },
      5000,
      '200 session/new in the trace',
    );
    const urls = new Set(declared.flat().map((s) => s.url));
    assert.ok(urls.size >= 400, 'two or more servers per session (one per MCP component of the default chain)');
    assert.equal(urls.size, declared.flat().length, 'every injected server has its own path');
    assert.equal(new Set([...urls].map((u) => new URL(u).port)).size, 1, 'all on one port');
    // The first and the last session's servers answer (each through its own path and token).
    for (const sessionId of [sessions[0]!, sessions[199]!]) {
      const r = await prompt(h, sessionId, 'use tool symposium::symposium_info with {}');
      assert.match(r.text, new RegExp(sessionId));
    }
  });

  it('an agent without session/close: the conductor still takes it (advertised) and closes the session’s MCP routes', async () => {
    // A minimal agent that supports HTTP MCP but not session/close (it answers that "method not found").
    const agent = `
      const rl = require('readline').createInterface({ input: process.stdin });
      const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
      rl.on('line', (line) => {
        const m = JSON.parse(line);
        if (m.id === undefined || !m.method) return;
        if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { mcpCapabilities: { http: true } } } });
        else if (m.method === 'session/new') send({ id: m.id, result: { sessionId: 'only-session' } });
        else send({ id: m.id, error: { code: -32601, message: 'method not found: ' + m.method } });
      });`;
    const traceDir = tempDir('symposium-trace-');
    h = startProcess(conductorArgs({ traceDir, components: ['symposium-info'], agent: [process.execPath, '-e', agent] }));
    const init = (await h.conn.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })) as {
      agentCapabilities: { sessionCapabilities?: { close?: unknown } };
    };
    assert.deepEqual(init.agentCapabilities.sessionCapabilities?.close, {}, 'session/close is advertised');
    const sessionId = await newSession(h, tempDir());
    const url = (await waitFor(() => injectedServers(traceDir)[0], 5000, 'session/new in the trace'))[0]!.url;
    const routeStatus = (): Promise<number> =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      }).then((r) => r.status);
    assert.equal(await routeStatus(), 401, 'the route exists (it wants its token)');
    assert.deepEqual(await h.conn.agent.request('session/close', { sessionId }), {}, 'answered for the agent');
    assert.equal(await routeStatus(), 404, 'the session’s route is gone');
  });

  it('1,000 requests with a bad token and 1,000 with a foreign Host are refused with a bounded number of log lines', async () => {
    const traceDir = tempDir('symposium-trace-');
    h = startProcess(conductorArgs({ traceDir, log: 'info' }));
    await initialize(h);
    await newSession(h, tempDir());
    const url = (await waitFor(() => injectedServers(traceDir)[0], 5000, 'session/new in the trace'))[0]!.url;
    const port = new URL(url).port;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    const send = (headers: Record<string, string>): Promise<number> =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      }).then((r) => r.status);
    const statuses: number[] = [];
    for (let batch = 0; batch < 20; batch++) {
      statuses.push(...(await Promise.all(Array.from({ length: 50 }, () => send({ Authorization: `Bearer ${'0'.repeat(64)}` })))));
    }
    assert.deepEqual(new Set(statuses), new Set([401]));
    // fetch will not send a forged Host header: use node:http for those.
    const { request } = await import('node:http');
    const forged = (): Promise<number> =>
      new Promise((res, rej) => {
        const req = request(
          url,
          { method: 'POST', headers: { host: `attacker.example:${port}`, 'content-type': 'application/json' } },
          (r) => {
            r.resume();
            res(r.statusCode ?? 0);
          },
        );
        req.on('error', rej);
        req.end(body);
      });
    const hostStatuses: number[] = [];
    for (let batch = 0; batch < 20; batch++) hostStatuses.push(...(await Promise.all(Array.from({ length: 50 }, forged))));
    assert.deepEqual(new Set(hostStatuses), new Set([403]));
    await new Promise((r) => setTimeout(r, 200)); // let the last stderr lines arrive
    const lines = h
      .stderr()
      .split('\n')
      .filter((l) => /refused/.test(l) && /MCP/.test(l));
    console.log(`      2,000 refused requests → ${lines.length} log lines; last: ${lines.at(-1)}`);
    assert.ok(lines.length <= 2 * (1 + 1000 / 100), `${lines.length} log lines`);
    assert.ok(
      lines.some((l) => /without a valid bearer token.*1000 refused so far/.test(l)),
      'the count is logged',
    );
    assert.ok(lines.some((l) => /foreign Host header.*1000 refused so far/.test(l)));
  });
});
