// The standalone command's configuration file: where it is looked for, and how its keys become the
// flags the command line then overrides (the installed package is tested end to end in
// conductor/test/package.process.spec.ts).
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProxyArgs, withConfigFlags } from './cli';
import { configFilePath, readConfigFile } from './configFile';
import { tempDir } from './test/harness';

describe('the configuration file of symposium-acp', () => {
  it('is $SYMPOSIUM_CONFIG (absolute only), else under an absolute $XDG_CONFIG_HOME, else ~/.config', () => {
    assert.deepEqual(configFilePath({ SYMPOSIUM_CONFIG: '/etc/s.json', HOME: '/h' }), { path: '/etc/s.json', required: true });
    assert.throws(() => configFilePath({ SYMPOSIUM_CONFIG: 's.json' }), /must be an absolute path/);
    assert.equal(configFilePath({ XDG_CONFIG_HOME: '/x', HOME: '/h' }).path, '/x/symposium/config.json');
    // The XDG spec: a relative XDG_CONFIG_HOME is ignored (it would name a folder under the workspace).
    assert.equal(configFilePath({ XDG_CONFIG_HOME: 'rel', HOME: '/h' }).path, '/h/.config/symposium/config.json');
  });

  it('missing at the default place is no configuration; missing where $SYMPOSIUM_CONFIG points is an error', async () => {
    const home = tempDir('symposium-config-home-');
    assert.deepEqual(await readConfigFile({ HOME: home }), { flags: [] });
    await assert.rejects(readConfigFile({ SYMPOSIUM_CONFIG: join(home, 'none.json') }), /cannot read the configuration file/);
  });

  it("becomes flags before the command line's own, which override it", async () => {
    const home = tempDir('symposium-config-home-');
    mkdirSync(join(home, '.config', 'symposium'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'symposium', 'config.json'),
      JSON.stringify({
        'symposium.enabledComponents': ['sparkle', 'p'],
        'symposium.sparkle.mode': 'core',
        'symposium.sparkle.checkpointEvery': 5,
        'symposium.proxies': { p: { command: 'node', args: ['/file.js'] }, q: { command: 'node', args: ['/q.js'] } },
        'symposium.logLevel': 'debug',
      }),
    );
    const config = await readConfigFile({ HOME: home });
    const fromFile = parseProxyArgs(withConfigFlags(config, ['--', 'agent']));
    assert.deepEqual(fromFile.sparkle, { mode: 'core', checkpointEvery: 5 });
    assert.equal(fromFile.logLevel, 'debug');
    assert.deepEqual(fromFile.components, ['q', 'sparkle', 'p', 'mcp-over-acp']);
    const overridden = parseProxyArgs(
      withConfigFlags(config, [
        '--sparkle-mode',
        'full',
        '--log',
        'warn',
        '--proxy',
        '{"name":"p","command":"node","args":["/flag.js"]}',
        '--',
        'agent',
      ]),
    );
    // A component the file names may be a proxy the command line gives.
    const named = JSON.stringify({ 'symposium.enabledComponents': ['r', 'sparkle'] });
    writeFileSync(join(home, '.config', 'symposium', 'config.json'), named);
    const withFlagProxy = parseProxyArgs(withConfigFlags(await readConfigFile({ HOME: home }), ['--proxy', 'node /r.js', '--', 'agent']));
    assert.deepEqual(withFlagProxy.components, ['r', 'sparkle', 'mcp-over-acp']);
    assert.equal(overridden.sparkle.mode, 'full');
    assert.equal(overridden.logLevel, 'warn');
    assert.deepEqual(
      overridden.proxies.map((p) => [p.name, p.args]),
      [
        ['q', ['/q.js']],
        ['p', ['/flag.js']],
      ],
    );
  });
});
