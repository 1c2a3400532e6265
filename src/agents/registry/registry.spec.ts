import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import bundled from './bundledRegistry.json';
import { parseRegistry, parseRegistryAgent, type RegistryAgent } from './registrySchema';
import { agentSettingFor, commandLine, platformKey, resolveAgent } from './resolveAgent';

const SUM = 'ab'.repeat(32);
const binaryAgent = (): unknown => ({
  id: 'codex-acp',
  name: 'Codex',
  version: '0.4.2',
  description: 'Codex over ACP',
  distribution: {
    binary: {
      'linux-x86_64': {
        archive: 'https://example.test/codex-linux.tar.gz',
        sha256: SUM.toUpperCase(),
        cmd: './bin/codex-acp',
        args: ['--acp'],
      },
      'darwin-aarch64': { archive: 'https://example.test/codex-mac.tar.gz', cmd: 'codex-acp', env: { RUST_LOG: 'info' } },
    },
  },
});

describe('ACP registry: schema', () => {
  it('reads the bundled registry without a problem', () => {
    const r = parseRegistry(bundled, 'bundled');
    assert.deepEqual(r.problems, []);
    assert.ok(r.agents.length >= 4);
    for (const a of r.agents) assert.ok(a.distribution.npx, `${a.id} is an npx agent`);
  });

  it('offers the agents the real-agent tests run, at the versions they pin (scripts/test-tools-install.sh)', () => {
    const script = fs.readFileSync(path.resolve(__dirname, '../../../scripts/test-tools-install.sh'), 'utf8');
    const pinned = [...script.matchAll(/^\s+"((?:@[\w-]+\/)?[\w-]+)@([\d.]+)"$/gm)].map((m) => `${m[1]}@${m[2]}`);
    assert.equal(pinned.length, 6, pinned.join(' '));
    const offered = parseRegistry(bundled, 'bundled').agents.map((a) => a.distribution.npx?.package);
    for (const p of pinned) assert.ok(offered.includes(p), `${p} is offered (offered: ${offered.join(', ')})`);
  });

  it('keeps good entries and names what is wrong with the others', () => {
    const r = parseRegistry(
      {
        version: '1.0.0',
        agents: [
          binaryAgent(),
          { id: 'Bad_Id', name: 'x', version: '1.0.0', description: 'd', distribution: { npx: { package: 'x@1.0.0' } } },
          { id: 'nover', name: 'x', version: 'latest', description: 'd', distribution: { npx: { package: 'x@1.0.0' } } },
          { id: 'nodist', name: 'x', version: '1.0.0', description: 'd', distribution: {} },
          { id: 'cargo', name: 'x', version: '1.0.0', description: 'd', distribution: { cargo: { crate: 'x' } } },
          {
            id: 'envlist',
            name: 'x',
            version: '1.0.0',
            description: 'd',
            distribution: { npx: { package: 'x@1', env: [{ name: 'A', value: 'b' }] } },
          },
          { id: 'option', name: 'x', version: '1.0.0', description: 'd', distribution: { npx: { package: '--registry=evil' } } },
          {
            id: 'escape',
            name: 'x',
            version: '1.0.0',
            description: 'd',
            distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.tgz', cmd: '../../bin/sh' } } },
          },
          {
            id: 'abs',
            name: 'x',
            version: '1.0.0',
            description: 'd',
            distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.tgz', cmd: '/bin/sh' } } },
          },
          {
            id: 'badsum',
            name: 'x',
            version: '1.0.0',
            description: 'd',
            distribution: { binary: { 'linux-x86_64': { archive: 'https://x/a.tgz', cmd: 'a', sha256: 'xyz' } } },
          },
          {
            id: 'ftp',
            name: 'x',
            version: '1.0.0',
            description: 'd',
            distribution: { binary: { 'linux-x86_64': { archive: 'ftp://x/a.tgz', cmd: 'a' } } },
          },
          {
            id: 'os2',
            name: 'x',
            version: '1.0.0',
            description: 'd',
            distribution: { binary: { 'os2-x86': { archive: 'https://x/a.tgz', cmd: 'a' } } },
          },
          binaryAgent(),
        ],
        extensions: [],
      },
      'test.json',
    );
    assert.deepEqual(
      r.agents.map((a) => a.id),
      ['codex-acp'],
    );
    const why = r.problems.join('\n');
    for (const expected of [
      /agent Bad_Id: "id"/,
      /agent nover: "version" "latest" is not a semantic version/,
      /agent nodist: "distribution" needs npx, uvx or binary/,
      /agent cargo: unknown distribution kind "cargo"/,
      /agent envlist: distribution\.npx\.env must be an object/,
      /agent option: .*is not a package name/,
      /agent escape: .*must be a relative path inside the archive/,
      /agent abs: .*must be a relative path/,
      /agent badsum: .*sha256 must be 64 hex digits/,
      /agent ftp: .*must be an http\(s\) URL/,
      /agent os2: unknown platform "os2-x86"/,
      /agent codex-acp: listed twice/,
    ])
      assert.match(why, expected);
    assert.ok(r.problems.every((p) => p.startsWith('test.json: ')));
  });

  it('reads extensions[] (proxies) like agents: each entry checked on its own, a placement hint kept', () => {
    const proxy = {
      id: 'prompt-rewriter',
      name: 'Prompt Rewriter',
      version: '0.2.0',
      description: 'rewrites prompts',
      distribution: { npx: { package: '@me/rewriter@0.2.0', args: ['--acp'] } },
      _meta: { symposium: { placeBefore: 'symposium-info' } },
    };
    const r = parseRegistry(
      {
        version: '1.0.0',
        agents: [binaryAgent()],
        extensions: [
          proxy,
          { ...proxy, id: 'loose', _meta: { symposium: { placeBefore: 'not a name' } } },
          { ...proxy, id: 'nodist', distribution: {} },
          { id: 'Bad', name: 'x', version: '1.0.0', description: 'd', distribution: { npx: { package: 'x@1' } } },
          proxy,
          'not an object',
        ],
      },
      'test.json',
    );
    assert.deepEqual(
      r.agents.map((a) => a.id),
      ['codex-acp'],
      'agents are unaffected',
    );
    assert.deepEqual(r.extensions, [
      {
        id: 'prompt-rewriter',
        name: 'Prompt Rewriter',
        version: '0.2.0',
        description: 'rewrites prompts',
        distribution: { npx: { package: '@me/rewriter@0.2.0', args: ['--acp'], env: {} } },
        placeBefore: 'symposium-info',
      },
    ]);
    const why = r.problems.join('\n');
    for (const expected of [
      /extension loose: _meta\.symposium\.placeBefore "not a name" is not a component name/,
      /extension nodist: "distribution" needs npx, uvx or binary/,
      /extension Bad: "id"/,
      /extension prompt-rewriter: listed twice/,
      /extension #5: an entry must be an object/,
    ])
      assert.match(why, expected);
    assert.equal(r.problems.length, 5, why);
    assert.match(parseRegistry({ version: '1', agents: [], extensions: {} }, 'x').problems[0]!, /"extensions" must be a list/);
  });

  it('refuses what is not a registry at all', () => {
    assert.match(parseRegistry([], 'x').problems[0]!, /must be a JSON object/);
    assert.match(parseRegistry({ version: '1', agents: {} }, 'x').problems[0]!, /"agents" must be a list/);
    assert.match(parseRegistry({ agents: [] }, 'x').problems[0]!, /"version" is missing/);
  });
});

describe('ACP registry: resolution (entry + platform → command, args, env)', () => {
  const agent = parseRegistryAgent(binaryAgent());

  it('maps Node platforms to registry keys', () => {
    assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
    assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
    assert.equal(platformKey('linux', 'ia32'), undefined);
    assert.equal(platformKey('freebsd', 'x64'), undefined);
  });

  it('npx: `npx -y package@version args…` with the entry env, nothing to download', () => {
    const claude: RegistryAgent = {
      id: 'claude',
      name: 'Claude',
      version: '1.0.0',
      description: 'd',
      distribution: { npx: { package: '@zed-industries/claude-code-acp@0.16.0', args: ['--x'], env: { A: 'b' } } },
    };
    const plan = resolveAgent(claude, 'linux-x86_64', '/store');
    assert.deepEqual(
      { command: plan.command, args: plan.args, env: plan.env, kind: plan.kind, download: plan.download },
      { command: 'npx', args: ['-y', '@zed-industries/claude-code-acp@0.16.0', '--x'], env: { A: 'b' }, kind: 'npx', download: undefined },
    );
    assert.equal(plan.summary, 'npx -y @zed-industries/claude-code-acp@0.16.0 --x');
    assert.equal(resolveAgent(claude, 'windows-x86_64', '/store').command, 'npx.cmd');
    assert.deepEqual(agentSettingFor(claude, plan), {
      command: 'npx',
      args: ['-y', '@zed-industries/claude-code-acp@0.16.0', '--x'],
      env: { A: 'b' },
      registry: 'claude@1.0.0',
    });
  });

  it('npx is preferred over uvx, uvx over a binary', () => {
    const both: RegistryAgent = {
      ...agent,
      distribution: { ...agent.distribution, uvx: { package: 'pyagent@2.0.0', args: ['acp'], env: {} } },
    };
    const plan = resolveAgent(both, 'linux-x86_64', '/s');
    assert.deepEqual([plan.kind, plan.command, plan.args], ['uvx', 'uvx', ['pyagent@2.0.0', 'acp']]);
  });

  it('binary: the platform archive, its checksum, the command inside the install folder', () => {
    const plan = resolveAgent(agent, 'linux-x86_64', '/store/agents/');
    assert.equal(plan.kind, 'binary');
    assert.equal(plan.command, '/store/agents/codex-acp/0.4.2/bin/codex-acp');
    assert.deepEqual(plan.args, ['--acp']);
    assert.deepEqual(plan.download, {
      url: 'https://example.test/codex-linux.tar.gz',
      sha256: SUM,
      installDir: '/store/agents/codex-acp/0.4.2',
    });
    assert.match(plan.summary, new RegExp(`download https://example.test/codex-linux.tar.gz \\(SHA-256 ${SUM}\\)`));
    const mac = resolveAgent(agent, 'darwin-aarch64', '/s');
    assert.deepEqual([mac.command, mac.env, mac.download?.sha256], ['/s/codex-acp/0.4.2/codex-acp', { RUST_LOG: 'info' }, undefined]);
    assert.match(mac.summary, /no checksum given/);
  });

  it('no distribution for this platform is an error naming what there is', () => {
    assert.throws(
      () => resolveAgent(agent, 'windows-x86_64', '/s'),
      /Codex has no distribution for windows-x86_64 \(it offers linux-x86_64, darwin-aarch64\)/,
    );
    assert.throws(() => resolveAgent(agent, undefined, '/s'), /for this platform/);
  });

  it('command lines quote what has spaces', () => {
    assert.equal(commandLine('/a b/c', ['x', 'y z', '']), '"/a b/c" x "y z" ""');
  });
});
