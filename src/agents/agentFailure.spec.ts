import * as assert from 'node:assert/strict';
import { chainBrokenFailure, exitFailure } from './agentFailure';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('agent failures as the chat shows them', () => {
  it("takes the conductor's report for a dead agent: its first line, its stderr's last 12 lines", () => {
    const agentExit = { message: 'agent exited with code 3. Last stderr:\nboom', exitCode: 3, signal: null, stderrTail: `${lines(20)}\n` };
    const f = exitFailure('Claude', { info: { code: 1, signal: null }, agentExit, conductorStderr: 'conductor noise' });
    assert.deepEqual(f, {
      agentName: 'Claude',
      message: 'agent exited with code 3.',
      exitCode: 3,
      signal: null,
      stderrTail: lines(20).split('\n').slice(-12).join('\n'),
    });
  });

  it("says how the conductor's process ended when nothing was reported, with the conductor's stderr", () => {
    const base = { agentExit: undefined, conductorStderr: '  trace\n' };
    assert.equal(
      exitFailure('A', { ...base, info: { code: null, signal: null, spawnError: 'ENOENT' } }).message,
      'A could not be started: ENOENT',
    );
    assert.equal(exitFailure('A', { ...base, info: { code: null, signal: 'SIGKILL' } }).message, 'A was killed by SIGKILL');
    assert.equal(exitFailure('A', { ...base, info: { code: 2, signal: null } }).message, 'A exited with code 2');
    assert.equal(exitFailure('A', { ...base, info: undefined }).message, 'A is not running');
    assert.equal(exitFailure('A', { ...base, info: undefined }, 'stopped').message, 'stopped');
    assert.equal(exitFailure('A', { ...base, info: { code: 2, signal: null } }).stderrTail, 'trace');
  });

  it('names the proxy that broke the chain when its report has no message', () => {
    const p = { component: 'sparkle', message: '', exitCode: null, signal: 'SIGTERM' as const, stderrTail: 'x\n' };
    assert.deepEqual(chainBrokenFailure('A', p), {
      agentName: 'A',
      message: 'proxy "sparkle" exited',
      exitCode: null,
      signal: 'SIGTERM',
      stderrTail: 'x',
    });
  });
});
