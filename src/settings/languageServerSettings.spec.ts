// symposium.languageServers → the conductor's --language-servers: a good map becomes the flag (and
// part of the process key), which the conductor's own parser accepts and applies; a bad one is
// reported and left out; a change offers Restart Agent.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseProxyArgs } from '../../conductor/cli';
import { changesNeedingRestart } from './restartOffer';
import { USER_ONLY_SETTINGS } from './settingsScope';
import { conductorSpawnSpec, configurationKey } from '../agents/agentConfiguration';
import { builtinAgent } from './agentDefinition';
import { languageServerFlags } from './languageServerSettings';

const rt = { execPath: '/bin/node', extensionPath: '/ext' };

describe('symposium.languageServers', () => {
  it('unset or empty: no flag, the conductor uses its built-in servers', () => {
    for (const raw of [undefined, null, {}]) assert.deepEqual(languageServerFlags(raw), { flags: [], problems: [] });
  });

  it('a map becomes --language-servers <JSON> before the agent command, part of the process key, and the conductor applies it', () => {
    const raw = {
      python: { command: '/opt/pyright/bin/pyright-langserver', args: ['--stdio'] },
      lua: { command: 'lua-ls', extensions: ['lua'] },
    };
    const { flags, problems } = languageServerFlags(raw);
    assert.deepEqual(problems, []);
    assert.deepEqual(flags, ['--language-servers', JSON.stringify(raw)]);
    const config = { agent: builtinAgent(rt), components: null, workspaceFolder: '/w', languageServers: flags };
    const args = conductorSpawnSpec(config, rt).args;
    assert.deepEqual(args.slice(0, 3), ['/ext/out/conductor.js', ...flags]);
    assert.notEqual(configurationKey(config), configurationKey({ ...config, languageServers: undefined }));
    const parsed = parseProxyArgs(args.slice(1));
    const byLanguage = new Map(parsed.languageServers!.map((s) => [s.language, s]));
    assert.equal(byLanguage.get('python')!.command, '/opt/pyright/bin/pyright-langserver');
    assert.deepEqual(byLanguage.get('python')!.extensions, ['.py', '.pyi']);
    assert.deepEqual(byLanguage.get('lua')!.extensions, ['.lua']);
    assert.equal(byLanguage.get('typescript')!.command, 'typescript-language-server');
  });

  it('a bad map is reported, naming the entry, and left out', () => {
    for (const [raw, problem] of [
      [{ lua: { command: 'lua-ls' } }, /"lua": a new language needs "extensions"/],
      [{ python: { command: '' } }, /"python": "command" must be a non-empty string/],
      [{ python: { command: 'p', args: 'x' } }, /"args" must be a list of strings/],
      ['pyright', /must be a JSON object/],
    ] as const) {
      const r = languageServerFlags(raw);
      assert.deepEqual(r.flags, []);
      assert.match(r.problems.join('\n'), problem);
      assert.match(r.problems.join('\n'), /using the built-in language servers/);
    }
  });

  it('a change offers Restart Agent', () => {
    const base = { agents: {}, currentAgent: 'ElizACP', enabledComponents: null };
    assert.deepEqual(changesNeedingRestart(base, { ...base, languageServers: { go: { command: 'gopls' } } }), ['languageServers']);
  });

  it('symposium.languageServers.allowWorkspaceBinaries: true adds --allow-workspace-language-servers, which the conductor reads; off by default', () => {
    assert.deepEqual(languageServerFlags(undefined), { flags: [], problems: [] });
    assert.deepEqual(languageServerFlags(undefined, 'yes'), { flags: [], problems: [] }, 'only a real true opts in');
    // VS Code nests the dotted setting inside symposium.languageServers' object: it is not a language.
    const { flags, problems } = languageServerFlags({ allowWorkspaceBinaries: true, go: { command: 'gopls' } }, true);
    assert.deepEqual(problems, []);
    assert.deepEqual(flags, ['--language-servers', JSON.stringify({ go: { command: 'gopls' } }), '--allow-workspace-language-servers']);
    const config = { agent: builtinAgent(rt), components: null, workspaceFolder: '/w', languageServers: flags };
    const parsed = parseProxyArgs(conductorSpawnSpec(config, rt).args.slice(1));
    assert.equal(parsed.allowWorkspaceLanguageServers, true);
    assert.ok(!parsed.languageServers!.some((s) => s.language === 'allowWorkspaceBinaries'));
    assert.equal(parseProxyArgs(['--', 'agent']).allowWorkspaceLanguageServers, false);
    assert.deepEqual(languageServerFlags({ allowWorkspaceBinaries: false }, false), { flags: [], problems: [] });
  });

  it('the opt-in is a user-only, machine-scoped boolean, off by default, restricted in untrusted workspaces; a change offers Restart Agent', () => {
    const manifest = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
      contributes: { configuration: { properties: Record<string, { type: string; scope?: string; default: unknown }> } };
    };
    const setting = manifest.contributes.configuration.properties['symposium.languageServers.allowWorkspaceBinaries'];
    assert.deepEqual(setting && { type: setting.type, scope: setting.scope, default: setting.default }, {
      type: 'boolean',
      scope: 'machine',
      default: false,
    });
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of ['symposium.languageServers.allowWorkspaceBinaries', 'symposium.enableExperimentalLM'])
      assert.ok(restricted.includes(key), `${key} is restricted in untrusted workspaces`);
    assert.ok(USER_ONLY_SETTINGS.includes('languageServers.allowWorkspaceBinaries'));
    const base = { agents: {}, currentAgent: 'ElizACP', enabledComponents: null };
    assert.deepEqual(changesNeedingRestart(base, { ...base, allowWorkspaceLanguageServers: true }), [
      'languageServers.allowWorkspaceBinaries',
    ]);
  });
});
