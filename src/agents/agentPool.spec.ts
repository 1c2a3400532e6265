// The pool's idle stop: a released agent ends after the idle time, unless a tab wants it again first.
import * as assert from 'node:assert/strict';
import { silentLog } from '../log/logEvent';
import { AgentPool } from './agentPool';
import type { AgentConfiguration } from './agentConfiguration';

const config: AgentConfiguration = {
  agent: { name: 'idle-test', command: 'never-started', args: [], env: {} },
  components: null,
  workspaceFolder: '/tmp',
};

function pool(idleStopMs: number): AgentPool {
  return new AgentPool({
    runtime: { execPath: process.execPath, extensionPath: '/nonexistent' },
    log: silentLog,
    clientInfo: { name: 'test', version: '0' },
    onPermissionRequest: async () => ({ outcome: { outcome: 'cancelled' } }),
    idleStopMs,
  });
}

describe('AgentPool idle stop', () => {
  it('a released actor is stopped and forgotten after the idle time', async () => {
    const p = pool(10);
    const actor = p.acquire(config);
    p.release(actor.key);
    assert.ok(p.stoppingWhenIdle(actor.key));
    for (let i = 0; i < 200 && p.get(actor.key); i++) await new Promise((r) => setTimeout(r, 5));
    assert.equal(p.get(actor.key), undefined);
    assert.equal(p.stoppingWhenIdle(actor.key), false);
  });

  it('acquiring it again during the idle time keeps the same actor', async () => {
    const p = pool(60_000);
    const actor = p.acquire(config);
    p.release(actor.key);
    assert.equal(p.acquire(config), actor);
    assert.equal(p.stoppingWhenIdle(actor.key), false);
    await p.stopAll('test over');
  });

  it('quitting cancels pending idle stops', async () => {
    const p = pool(60_000);
    const actor = p.acquire(config);
    p.release(actor.key);
    await p.stopAll('quit');
    assert.equal(p.stoppingWhenIdle(actor.key), false);
  });
});
