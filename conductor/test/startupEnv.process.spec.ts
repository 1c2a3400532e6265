// The agent's and proxies' environments on the conductor's start-up pipe (SYMPOSIUM_STARTUP_FD,
// conductor/startupEnv.ts), the way the extension hands them over and a standalone user can too:
// the agent gets them, the conductor's own start-up environment never holds them.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import { takeStartupEnv } from '../startupEnv';
import { CONDUCTOR_JS, sleep, tempDir, waitFor } from './harness';

describe('the start-up pipe (SYMPOSIUM_STARTUP_FD)', function () {
  this.timeout(30_000);

  it("carries the agent env to the agent, read to its end; the conductor's environment never holds the values", async () => {
    const dir = tempDir('startup-fd-');
    const seen = path.join(dir, 'agent.json');
    const token = `token-${process.pid}-${Date.now()}`;
    const agent = `require('fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify({ token: process.env.AGENT_TOKEN ?? null, fd: process.env.SYMPOSIUM_STARTUP_FD ?? null })); process.stdin.resume()`;
    const conductor = spawn(process.execPath, [CONDUCTOR_JS, '--log', 'error', '--components', '', '--', process.execPath, '-e', agent], {
      env: { ...process.env, SYMPOSIUM_STARTUP_FD: '3' },
      stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => conductor.once('exit', resolve));
    let stderr = '';
    conductor.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      // Written in two parts, a moment apart: the conductor reads to the end, not one chunk.
      const pipe = conductor.stdio[3] as Writable;
      const json = JSON.stringify({ agentEnv: { AGENT_TOKEN: token }, proxyEnv: { rw: { RW_TOKEN: 'rw' } } });
      pipe.write(json.slice(0, 10));
      await sleep(100);
      pipe.end(json.slice(10));
      await waitFor(() => fs.existsSync(seen) && fs.statSync(seen).size > 0, 10_000, `the agent to start (stderr: ${stderr})`);
      assert.deepEqual(JSON.parse(fs.readFileSync(seen, 'utf8')), { token, fd: null }, 'the agent has its env, not the pipe variable');
      const pid = conductor.pid!;
      assert.ok(!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(token), "the value is not in the conductor's environment");
    } finally {
      conductor.stdin!.end();
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file works as well as a pipe; the variables of a hand-run conductor still count, the pipe winning', () => {
    const dir = tempDir('startup-file-');
    const file = path.join(dir, 'env.json');
    fs.writeFileSync(file, JSON.stringify({ agentEnv: { A: 'from-fd' }, proxyEnv: { rw: { X: '1' } } }), { mode: 0o600 });
    const fd = fs.openSync(file, 'r');
    const env: NodeJS.ProcessEnv = {
      PATH: '/bin',
      SYMPOSIUM_STARTUP_FD: String(fd),
      SYMPOSIUM_AGENT_ENV: '{"A":"from-var","B":"b"}',
      SYMPOSIUM_PROXY_ENV: '{"rw":{"Y":"2"}}',
    };
    assert.deepEqual(takeStartupEnv(env), { agentEnv: { A: 'from-fd', B: 'b' }, proxyEnv: { rw: { Y: '2', X: '1' } } });
    assert.deepEqual(env, { PATH: '/bin' }, 'no child inherits any of the three');
    assert.throws(() => fs.fstatSync(fd), { code: 'EBADF' }, 'the descriptor was closed');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a descriptor holding no JSON object, or none at all, is an error that names the variable', () => {
    const dir = tempDir('startup-bad-');
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, '{"agentEnv":{"A":1}}');
    assert.throws(() => takeStartupEnv({ SYMPOSIUM_STARTUP_FD: String(fs.openSync(file, 'r')) }), /agentEnv in descriptor \d+ must be/);
    assert.throws(() => takeStartupEnv({ SYMPOSIUM_STARTUP_FD: '2' }), /SYMPOSIUM_STARTUP_FD must name a descriptor above 2/);
    assert.throws(() => takeStartupEnv({ SYMPOSIUM_STARTUP_FD: '987' }), /SYMPOSIUM_STARTUP_FD=987 cannot be read/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
