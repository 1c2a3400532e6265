// symposium.sparkle.* → conductor flags: good values become flags (and part of the process key),
// bad ones are reported and left out; a change offers Restart Agent.
import * as assert from 'node:assert/strict';
import { changesNeedingRestart } from './restartOffer';
import { conductorSpawnSpec, configurationKey } from '../agents/agentConfiguration';
import { builtinAgent } from './agentDefinition';
import { sparkleFlags } from './sparkleSettings';

const rt = { execPath: '/bin/node', extensionPath: '/ext' };

describe('symposium.sparkle settings', () => {
  it('defaults (unset) give no flags: the conductor uses its own defaults', () => {
    assert.deepEqual(sparkleFlags({ sparkler: undefined, mode: undefined, checkpointEvery: undefined }), { flags: [], problems: [] });
    assert.deepEqual(sparkleFlags({ sparkler: '', mode: null, checkpointEvery: null }), { flags: [], problems: [] });
  });

  it('set values become --sparkle-* flags before the agent command, and part of the process key', () => {
    const { flags, problems } = sparkleFlags({ sparkler: ' Nova ', mode: 'core', checkpointEvery: 0 });
    assert.deepEqual(problems, []);
    assert.deepEqual(flags, ['--sparkle-sparkler', 'Nova', '--sparkle-mode', 'core', '--sparkle-checkpoint-every', '0']);
    const config = { agent: builtinAgent(rt), components: null, workspaceFolder: '/w', sparkle: flags };
    assert.deepEqual(conductorSpawnSpec(config, rt).args, [
      '/ext/out/conductor.js',
      ...flags,
      '--',
      '/bin/node',
      '/ext/out/conductor.js',
      'eliza',
      '--deterministic',
    ]);
    assert.notEqual(
      configurationKey(config),
      configurationKey({ ...config, sparkle: undefined }),
      'other Sparkle settings, another process',
    );
  });

  it('bad values are reported and left out', () => {
    const { flags, problems } = sparkleFlags({ sparkler: '../x', mode: 'turbo', checkpointEvery: -3 });
    assert.deepEqual(flags, []);
    assert.equal(problems.length, 3);
    assert.match(
      problems.join('\n'),
      /sparkler contains a path separator.*plain name[\s\S]*mode must be "full" or "core"[\s\S]*checkpointEvery must be a whole number/,
    );
    for (const [name, code] of [
      ['Nova\u202egpj.exe', 'U+202E'],
      ['Spar\u200bkle', 'U+200B'],
    ] as const) {
      const bidi = sparkleFlags({ sparkler: name, mode: undefined, checkpointEvery: undefined });
      assert.deepEqual(bidi.flags, [], 'an invisible character is refused like a path separator');
      assert.match(bidi.problems[0]!, new RegExp(`invisible, control or direction-changing character \\(${code.replace('+', '\\+')}\\)`));
    }
    assert.match(
      sparkleFlags({ sparkler: 5, mode: undefined, checkpointEvery: 1.5 }).problems.join('\n'),
      /must be a string[\s\S]*whole number/,
    );
  });

  it('changing them offers Restart Agent (open chats keep their conductor until then)', () => {
    const base = {
      agents: {},
      currentAgent: 'ElizACP',
      enabledComponents: null,
      sparkle: { sparkler: undefined, mode: 'full', checkpointEvery: 20 },
    };
    assert.deepEqual(changesNeedingRestart(base, { ...base, sparkle: { ...base.sparkle, mode: 'core' } }), ['sparkle']);
    assert.deepEqual(changesNeedingRestart(base, { ...base }), []);
  });
});
