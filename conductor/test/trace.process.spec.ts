// --trace-dir through the real conductor in front of ElizACP: the folder is 0700, the file 0600,
// and no MCP bearer token (HTTP header, or the stdio shim's environment) reaches the file while
// the injected MCP server keeps working; credentials by shape (key-like names, headers, URL
// userinfo, query and flag values, token formats) are masked too. Plus the masking rules on
// hand-made messages (the full table: src/protocol/secretMask.spec.ts).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REDACTED, traceLine } from '../trace';
import { conductorArgs, elizaCommand, initialize, newSession, prompt, startProcess, tempDir, type Harness } from './harness';

/** The SYMPOSIUM_MCP_TOKEN of the running `mcp-bridge` process relaying to `url`. */
function bridgeToken(url: string): string | undefined {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!argv.includes('mcp-bridge') || !argv.includes(url)) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      return env.find((e) => e.startsWith('SYMPOSIUM_MCP_TOKEN='))?.slice('SYMPOSIUM_MCP_TOKEN='.length);
    } catch {
      /* gone, or not ours */
    }
  }
  return undefined;
}

describe('conductor trace files (real processes)', function () {
  this.timeout(30000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const mode of ['http', 'stdio'] as const) {
    it(`creates the folder 0700 and the file 0600, and masks the MCP token (${mode}) while the server works`, async () => {
      const traceDir = join(tempDir('symposium-trace-'), 'new', 'traces'); // created by the conductor
      h = startProcess(conductorArgs({ traceDir, agent: elizaCommand(mode === 'stdio' ? ['--no-http-mcp'] : []) }));
      await initialize(h);
      const sessionId = await newSession(h, tempDir());
      const called = await prompt(h, sessionId, 'use tool symposium::echo with {"text":"still works"}');
      assert.match(called.text, /still works/, 'the injected MCP server answers with its real token');
      const file = join(
        traceDir,
        readdirSync(traceDir).find((f) => f.endsWith('.jsonl'))!,
      );
      let token: string | undefined;
      if (mode === 'stdio') {
        const line = readFileSync(file, 'utf8')
          .split('\n')
          .find((l) => l.includes('"to":"agent"') && l.includes('"session/new"'))!;
        const args = (JSON.parse(line) as { message: { params: { mcpServers: { args: string[] }[] } } }).message.params.mcpServers[0]!.args;
        token = bridgeToken(args[args.indexOf('--url') + 1]!);
        assert.match(token ?? '', /^[0-9a-f]{64}$/, 'found the real token in the running mcp-bridge');
      }
      await h.close();
      h = undefined;

      assert.equal(statSync(traceDir).mode & 0o777, 0o700);
      assert.equal(statSync(join(traceDir, '..')).mode & 0o777, 0o700, 'parents it created too');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const text = readFileSync(file, 'utf8');
      assert.doesNotMatch(text, /[0-9a-f]{64}/, 'no token-shaped string anywhere');
      if (token) assert.ok(!text.includes(token), "the stdio shim's token is not in the trace");
      const toAgent = text.split('\n').find((l) => l.includes('"to":"agent"') && l.includes('"session/new"'))!;
      const decl = (JSON.parse(toAgent) as { message: { params: { mcpServers: Record<string, unknown>[] } } }).message.params
        .mcpServers[0]!;
      if (mode === 'http') assert.deepEqual(decl.headers, [{ name: 'Authorization', value: `Bearer ${REDACTED}` }]);
      else
        assert.deepEqual(
          (decl.env as { name: string; value: string }[]).find((e) => e.name === 'SYMPOSIUM_MCP_TOKEN'),
          { name: 'SYMPOSIUM_MCP_TOKEN', value: REDACTED },
        );
      assert.match(text, /still works/, 'the rest of the traffic is traced as before');
    });
  }

  it('masks credentials by shape too: key-like names, headers, URL userinfo, query and flag values, token formats', async () => {
    const SECRETS = {
      openai: 'sk-proj-Q1w2E3r4T5y6U7i8O9p0',
      pat: 'github_pat_11AAAAAAA0bbbbbbbbbbbbbbbbbbbb',
      gitlab: 'gl-private-value-1',
      password: 'hunter2-hunter2',
      query: 'maps-query-key-77',
      flag: 'flag-value-88',
      aws: 'AKIAIOSFODNN7EXAMPLE',
    };
    const traceDir = tempDir('symposium-trace-shape-');
    h = startProcess(conductorArgs({ traceDir }));
    await initialize(h);
    const { sessionId } = await h.conn.agent.request('session/new', {
      cwd: tempDir(),
      mcpServers: [],
      _meta: {
        deploy: {
          env: [
            { name: 'OPENAI_KEY', value: SECRETS.openai.slice(3) },
            { name: 'GH_PAT', value: SECRETS.pat },
          ],
          headers: { 'PRIVATE-KEY': SECRETS.gitlab },
          remote: `https://deploy:${SECRETS.password}@git.example/r.git`,
          endpoint: `https://maps.example/api?key=${SECRETS.query}&q=x`,
          args: ['--api-key', SECRETS.flag],
        },
      },
    });
    await prompt(h, sessionId, `My keys are ${SECRETS.openai} and ${SECRETS.aws}; run tool --token=${SECRETS.flag}`);
    await h.close();
    h = undefined;
    const file = join(
      traceDir,
      readdirSync(traceDir).find((f) => f.endsWith('.jsonl'))!,
    );
    const text = readFileSync(file, 'utf8');
    for (const [what, secret] of Object.entries(SECRETS)) assert.ok(!text.includes(secret), `${what} (${secret}) is in the trace`);
    const toAgent = text.split('\n').find((l) => l.includes('"to":"agent"') && l.includes('"session/new"'))!;
    const deploy = (JSON.parse(toAgent) as { message: { params: { _meta: { deploy: Record<string, unknown> } } } }).message.params._meta
      .deploy;
    assert.deepEqual(deploy, {
      env: [
        { name: 'OPENAI_KEY', value: REDACTED },
        { name: 'GH_PAT', value: REDACTED },
      ],
      headers: { 'PRIVATE-KEY': REDACTED },
      remote: `https://${REDACTED}@git.example/r.git`,
      endpoint: `https://maps.example/api?key=${REDACTED}&q=x`,
      args: ['--api-key', REDACTED],
    });
    assert.match(text, new RegExp(`My keys are \\[redacted\\] and \\[redacted\\]; run tool --token=\\[redacted\\]`));
  });

  it('masks bearer tokens anywhere, Authorization values and secret-named {name, value} pairs, nothing else', () => {
    const message = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'terminal/create',
      params: {
        text: 'curl -H "Authorization: Bearer abc.def-123" https://x',
        headers: { authorization: 'raw-token', accept: 'text/plain' },
        env: [
          { name: 'GITHUB_TOKEN', value: 'ghp_x' },
          { name: 'OPENAI_API_KEY', value: 'sk-1' },
          { name: 'PATH', value: '/usr/bin' },
        ],
        mcpServers: [
          { type: 'http', name: 'x', url: 'http://127.0.0.1:1/mcp/ab', headers: [{ name: 'Authorization', value: 'Bearer 00ff' }] },
        ],
      },
    };
    const line = JSON.parse(traceLine('a', 'b', message, undefined, 't')) as { message: typeof message };
    const p = line.message.params;
    assert.equal(p.text, `curl -H "Authorization: Bearer ${REDACTED}" https://x`);
    assert.deepEqual(p.headers, { authorization: REDACTED, accept: 'text/plain' });
    assert.deepEqual(
      p.env.map((e) => e.value),
      [REDACTED, REDACTED, '/usr/bin'],
    );
    assert.deepEqual(p.mcpServers[0]!.headers, [{ name: 'Authorization', value: `Bearer ${REDACTED}` }]);
    assert.equal(p.mcpServers[0]!.url, 'http://127.0.0.1:1/mcp/ab');
    assert.equal(message.params.env[0]!.value, 'ghp_x', 'the message itself is not changed');
  });
});
