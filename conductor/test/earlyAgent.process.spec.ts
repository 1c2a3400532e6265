// The launcher starts the agent before the conductor is loaded (conductor/launcher.ts,
// earlyAgent.ts). These run the built out/conductor.js over real pipes and check that the early
// start changes nothing but timing: one agent process, taken over; an agent that fails or exits
// before the conductor is loaded is reported as before; a command line the conductor refuses
// leaves no agent behind.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupAlive } from '../../src/node/processGroup';
import { startEarlyAgent, takeEarlyAgent } from '../earlyAgent';
import { CONDUCTOR_JS, elizaCommand, tempDir, waitFor } from './harness';
import { rawConductor } from './rawClient';

const runConductor = (args: string[]) => rawConductor([process.execPath, CONDUCTOR_JS, ...args]);
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } };

/** An agent that writes its pid to `file` (a line per start) and then only waits; sh starts in a millisecond. */
const pidWritingAgent = (file: string): string[] => ['/bin/sh', '-c', 'echo $$ >> "$0"; exec sleep 60', file];

describe('the agent started by the launcher, before the conductor loads', function () {
  this.timeout(30000);

  it('is taken over: one agent process, which answers', async () => {
    const run = runConductor(['--log', 'info', '--components', '', '--', ...elizaCommand()]);
    try {
      run.send(initialize);
      const reply = await run.response(1, 20000);
      assert.ok(reply.result, `initialize answered: ${JSON.stringify(reply)}`);
      assert.match(
        run.stderr(),
        /started agent: .*conductor\.js eliza --deterministic \(pid \d+\), by the launcher, before the conductor loaded/,
      );
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('starts exactly one agent process', async () => {
    const pids = join(tempDir(), 'pids');
    const run = runConductor(['--log', 'info', '--components', '', '--', ...pidWritingAgent(pids)]);
    try {
      await waitFor(() => /by the launcher, before the conductor loaded/.test(run.stderr()), 20000, 'the conductor took the agent over');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(readFileSync(pids, 'utf8').trim().split('\n').length, 1);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('that exits before the conductor is loaded is reported with its exit code', async () => {
    const run = runConductor(['--log', 'info', '--components', '', '--', '/bin/false']);
    run.send(initialize);
    const reply = await run.response(1, 20000);
    assert.match(JSON.stringify(reply.error), /The agent exited with code 1/);
    run.child.kill('SIGKILL');
  });

  it('that cannot be started is reported as such', async () => {
    const run = runConductor(['--log', 'info', '--components', '', '--', '/nonexistent/no-such-agent']);
    run.send(initialize);
    const reply = await run.response(1, 20000);
    assert.match(JSON.stringify(reply.error), /The agent could not be started: spawn \/nonexistent\/no-such-agent ENOENT/);
    run.child.kill('SIGKILL');
  });

  it('is ended when the conductor refuses its command line', async () => {
    const pids = join(tempDir(), 'pids');
    const run = runConductor(['--no-such-flag', '--', ...pidWritingAgent(pids)]);
    assert.equal(await run.exited, 1);
    assert.match(run.stderr(), /unknown option "--no-such-flag"/);
    // The launcher had started it (it wrote its pid); the conductor's exit ended its group.
    const pid = Number(readFileSync(pids, 'utf8').trim());
    await waitFor(() => !groupAlive(pid), 5000, 'the early agent is gone');
  });

  it('is ended, not taken, when the conductor would start something else', async () => {
    const pids = join(tempDir(), 'pids');
    const [command, ...args] = pidWritingAgent(pids) as [string, ...string[]];
    startEarlyAgent(command, args, process.env);
    await waitFor(() => existsSync(pids) && readFileSync(pids, 'utf8').trim(), 5000, 'the early agent runs');
    const pid = Number(readFileSync(pids, 'utf8').trim());
    assert.equal(takeEarlyAgent(command, [...args, '--other'], process.env), undefined);
    await waitFor(() => !groupAlive(pid), 5000, 'the early agent is gone');
    assert.equal(takeEarlyAgent(command, args, process.env), undefined, 'taken once');
  });

  it('is taken for the same command line and environment', async () => {
    const pids = join(tempDir(), 'pids');
    const [command, ...args] = pidWritingAgent(pids) as [string, ...string[]];
    startEarlyAgent(command, args, { ...process.env, A: '1' });
    const early = takeEarlyAgent(command, args, { ...process.env, A: '1' });
    assert.ok(early?.child.pid);
    early.child.kill('SIGKILL');
  });
});
