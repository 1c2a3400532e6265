// symposium.proxies → conductor flags: good entries become `--proxy` JSON (env in its own variable,
// never on the command line) and part of the process key; bad ones are reported and left out; a
// change offers Restart Agent.
import * as assert from 'node:assert/strict';
import { changesNeedingRestart } from './restartOffer';
import { conductorSpawnSpec, configurationKey } from '../agents/agentConfiguration';
import { builtinAgent } from './agentDefinition';
import { parseProxySettings } from './proxySettings';

const rt = { execPath: '/bin/node', extensionPath: '/ext' };

describe('symposium.proxies settings', () => {
  it('unset or empty: no proxies', () => {
    assert.deepEqual(parseProxySettings(undefined), { proxies: [], problems: [] });
    assert.deepEqual(parseProxySettings({}), { proxies: [], problems: [] });
  });

  it('entries become --proxy JSON before the agent command, env on the start-up pipe only, and part of the process key', () => {
    const { proxies, problems } = parseProxySettings({
      rewriter: { command: '/bin/node', args: ['/p/rw.js', '--name', 'rw'] },
      sparkle: { command: 'sparkle-mcp', args: ['--acp'], env: { SPARKLE_TOKEN: 's3cret' } },
    });
    assert.deepEqual(problems, []);
    const config = { agent: builtinAgent(rt), components: ['rewriter', 'symposium-info'], workspaceFolder: '/w', proxies };
    const spec = conductorSpawnSpec(config, rt);
    assert.deepEqual(spec.args.slice(0, 7), [
      '/ext/out/conductor.js',
      '--components',
      'rewriter,symposium-info',
      '--proxy',
      '{"name":"rewriter","command":"/bin/node","args":["/p/rw.js","--name","rw"]}',
      '--proxy',
      '{"name":"sparkle","command":"sparkle-mcp","args":["--acp"]}',
    ]);
    assert.equal(spec.args[7], '--');
    assert.ok(!spec.args.join(' ').includes('s3cret'), 'no env value on the command line');
    assert.deepEqual(spec.startup!.proxyEnv, { sparkle: { SPARKLE_TOKEN: 's3cret' } });
    assert.ok(!JSON.stringify(spec.env).includes('s3cret'), "no env value in the conductor's environment");
    assert.notEqual(configurationKey(config), configurationKey({ ...config, proxies: undefined }), 'other proxies, another process');
  });

  it('bad entries are reported and left out', () => {
    const { proxies, problems } = parseProxySettings({
      'bad name': { command: 'x' },
      nocommand: { args: [] },
      badargs: { command: 'x', args: 'y' },
      badenv: { command: 'x', env: { A: 1 } },
      good: { command: 'x' },
    });
    assert.deepEqual(
      proxies.map((p) => p.name),
      ['good'],
    );
    assert.equal(problems.length, 4);
    assert.match(parseProxySettings([]).problems[0]!, /must be an object/);
  });

  it('a change to symposium.proxies offers Restart Agent', () => {
    const base = { agents: {}, currentAgent: undefined, enabledComponents: null };
    assert.deepEqual(changesNeedingRestart({ ...base, proxies: {} }, { ...base, proxies: { p: { command: 'x' } } }), ['proxies']);
    assert.deepEqual(
      changesNeedingRestart({ ...base, proxies: { p: { command: 'x' } } }, { ...base, proxies: { p: { command: 'x' } } }),
      [],
    );
  });
});
