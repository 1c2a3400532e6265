// The npm package `symposium-acp`, as a Zed, JetBrains, Neovim or acpx user runs it: the tarball
// `npm run package:conductor` builds, installed offline into an empty prefix (packageInstall.ts),
// and <prefix>/bin/symposium-acp driven by acpx (a third-party headless ACP client) in front of
// ElizACP (the package's own `symposium-acp eliza`) and of the real agents docs/editors.md names
// (Claude Code, Gemini CLI and Codex, against the scripted model server). Nothing here runs the
// repository's out/conductor.js: every component answers from the installed package. Every command
// runs with a marker in its environment, and no process with that marker may be left once acpx is
// done.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseRegistryAgent } from '../../src/agents/registry/registrySchema';
import { sparkleMarkOf } from '../../src/protocol/symposium-ext';
import { toolReplyJson } from '../../src/test/ideExpectations';
import { COMPONENT_NAMES } from '../components/registry';
import { runAcpx, shellWord } from './acpx';
import { CONDUCTOR_JS, tempDir, waitFor } from './harness';
import { installedPackage, processesWithEnv, type InstalledPackage } from './packageInstall';
import { agentLaunch, agentsInstalled, WITH_REAL_AGENTS } from './realAgents/agents';
import { startScriptedModelServer } from './realAgents/server';
import { mcpStep } from './realAgents/steps';

const ROOT = resolve(__dirname, '../..');
const WORKSPACE = join(ROOT, 'test-fixtures/workspace');
const MARKER = 'SYMPOSIUM_PACKAGE_TEST_RUN';
const MB = 1_000_000;

interface Line {
  id?: number;
  method?: string;
  params?: { update?: { sessionUpdate?: string; content?: { text?: string }; _meta?: unknown } };
  result?: { stopReason?: string };
}

interface AcpxRun {
  code: number | null;
  lines: Line[];
  stderr: string;
  /** The concatenated answer text (agent_message_chunk), without Sparkle's embodiment turn. */
  answer: string;
}

let marks = 0;
/**
 * `acpx --agent '<agent>' exec <prompt>` in `cwd`; resolves once acpx has exited and every process
 * it started (conductor, agent, language servers, proxies) is gone.
 */
async function acpx(agent: string[], prompt: string, cwd: string, env: Record<string, string> = {}): Promise<AcpxRun> {
  const mark = `${process.pid}-${++marks}`;
  const r = await runAcpx<Line>(agent.map(shellWord).join(' '), prompt, { cwd, env: { ...env, [MARKER]: mark }, timeoutSeconds: 90 });
  await waitFor(() => processesWithEnv(MARKER, mark).length === 0, 10_000, `no process left by acpx run ${mark}`).catch(() => {
    throw new Error(`processes left after acpx: ${processesWithEnv(MARKER, mark).join(', ')}`);
  });
  const answer = r.lines
    .filter(
      (l) => l.method === 'session/update' && l.params?.update?.sessionUpdate === 'agent_message_chunk' && !sparkleMarkOf(l.params.update),
    )
    .map((l) => l.params?.update?.content?.text ?? '')
    .join('');
  return { ...r, answer };
}

/** A HOME of its own, so the package reads no user's configuration and Sparkle writes there. */
function homeEnv(home = tempDir('symposium-acp-home-')): Record<string, string> {
  return { HOME: home, XDG_CONFIG_HOME: '', SYMPOSIUM_CONFIG: '', SPARKLE_DIR: '' };
}

function writeConfig(home: string, config: unknown): string {
  const file = join(home, '.config', 'symposium', 'config.json');
  mkdirSync(join(home, '.config', 'symposium'), { recursive: true });
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe('the symposium-acp npm package, installed from its tarball', function () {
  this.timeout(180_000);
  let pkg: InstalledPackage;
  let eliza: string[];

  before(async () => {
    pkg = await installedPackage();
    eliza = [pkg.bin, 'eliza', '--deterministic'];
  });

  describe('the tarball', () => {
    it('has no dependencies, only the command, its bundles, README and LICENSE, and is at most 1.5 MB', () => {
      const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      const repo = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
      assert.equal(manifest.name, 'symposium-acp');
      assert.equal(manifest.version, repo.version);
      assert.deepEqual(manifest.bin, { 'symposium-acp': 'dist/symposium-acp.js' });
      for (const key of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies'])
        assert.equal(manifest[key], undefined, key);
      const listed = spawnSync('tar', ['tzf', pkg.tarball], { encoding: 'utf8' }).stdout.trim().split('\n').sort();
      assert.deepEqual(listed, [
        'package/LICENSE',
        'package/README.md',
        'package/dist/conductor-eliza.js',
        'package/dist/conductor-lsp.js',
        'package/dist/conductor-mcp-bridge.js',
        'package/dist/conductor-mcp.js',
        'package/dist/conductor-proxy.js',
        'package/dist/symposium-acp.js',
        'package/package.json',
      ]);
      assert.ok(statSync(pkg.tarball).size <= 1.5 * MB, `${statSync(pkg.tarball).size} bytes packed`);
      // npm installed nothing beside it.
      assert.deepEqual(readdirSync(join(pkg.prefix, 'lib', 'node_modules')), ['symposium-acp']);
    });

    it('--help lists every component of the registry and every flag; --version is the package version', () => {
      const help = spawnSync(pkg.bin, ['--help'], { encoding: 'utf8' });
      assert.equal(help.status, 0, help.stderr);
      for (const name of COMPONENT_NAMES) assert.match(help.stdout, new RegExp(`^  ${name}( \\*)? `, 'm'), name);
      for (const flag of ['--components', '--proxy', '--language-servers', '--trace-dir', '--log', '--sparkle-mode', 'eliza'])
        assert.ok(help.stdout.includes(flag), flag);
      assert.match(help.stdout, /Examples:\n {2}symposium-acp -- /);
      const version = spawnSync(pkg.bin, ['--version'], { encoding: 'utf8' });
      assert.equal(version.stdout, `${JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')).version}\n`);
    });

    it('the registry entry the build wrote lists the package in extensions[], in the registry format', () => {
      const registry = JSON.parse(readFileSync(pkg.registryFile, 'utf8')) as { version: string; agents: unknown[]; extensions: unknown[] };
      assert.deepEqual(registry.agents, []);
      assert.equal(registry.extensions.length, 1);
      // An entry the registry's agent schema accepts (the shape extensions[] entries share).
      const entry = parseRegistryAgent(registry.extensions[0]);
      const version = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')).version as string;
      assert.equal(entry.id, 'symposium-acp');
      assert.equal(entry.version, version);
      assert.deepEqual(entry.distribution.npx?.package, `symposium-acp@${version}`);
    });
  });

  describe('mistakes are said in one line, with a non-zero exit', () => {
    const runBin = (args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string } =>
      spawnSync(pkg.bin, args, { encoding: 'utf8', input: '', env: { ...process.env, ...homeEnv(), ...env }, timeout: 30_000 });

    it('an unknown flag, a missing agent command, an agent that cannot start', () => {
      const unknown = runBin(['--no-such-flag', '--', ...eliza]);
      assert.notEqual(unknown.status, 0);
      assert.equal(unknown.stderr, 'symposium-acp: unknown option "--no-such-flag" (--help lists every flag)\n');
      const missing = runBin(['--log', 'warn']);
      assert.notEqual(missing.status, 0);
      assert.match(missing.stderr, /^symposium-acp: missing "-- <agent command>"/);
      const cannot = runBin(['--log', 'error', '--', '/nonexistent/no-such-agent']);
      assert.notEqual(cannot.status, 0);
      assert.match(cannot.stderr, /The agent could not be started: spawn \/nonexistent\/no-such-agent ENOENT/);
    });

    it('a configuration file with a bad value or an unknown key: the file and the key are named', () => {
      const home = tempDir('symposium-acp-home-');
      const file = writeConfig(home, { 'symposium.sparkle.mode': 'loud' });
      const bad = runBin(['--', ...eliza], { HOME: home });
      assert.notEqual(bad.status, 0);
      assert.equal(bad.stderr, `symposium-acp: ${file}: "symposium.sparkle.mode": --sparkle-mode must be "full" or "core", not "loud"\n`);
      writeConfig(home, { 'symposium.enabledComponent': ['sparkle'] });
      assert.match(runBin(['--', ...eliza], { HOME: home }).stderr, new RegExp(`${file}: "symposium.enabledComponent" is not a setting`));
      writeConfig(home, { 'symposium.enabledComponents': ['sparkle', 'no-such-component'] });
      assert.match(
        runBin(['--', ...eliza], { HOME: home }).stderr,
        /"symposium.enabledComponents": unknown component\(s\): no-such-component/,
      );
      // A relative $SYMPOSIUM_CONFIG would be read from the folder the editor started us in: refused.
      assert.match(runBin(['--', ...eliza], { SYMPOSIUM_CONFIG: 'config.json' }).stderr, /SYMPOSIUM_CONFIG must be an absolute path/);
      // The extension's conductor (out/conductor.js) gets its settings as flags and never reads the file.
      const editors = spawnSync(process.execPath, [CONDUCTOR_JS, '--log', 'warn', '--', ...eliza], {
        encoding: 'utf8',
        input: '',
        env: { ...process.env, ...homeEnv(home) },
        timeout: 30_000,
      });
      assert.equal(editors.status, 0, editors.stderr);
      assert.doesNotMatch(editors.stderr, /config\.json/);
    });
  });

  describe('under acpx', () => {
    it('ElizACP answers a prompt through the default chain', async () => {
      const r = await acpx([pkg.bin, '--', ...eliza], 'hello', tempDir('symposium-acp-ws-'), homeEnv());
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.answer, /\S/);
      assert.equal(r.lines.find((l) => l.result?.stopReason)?.result?.stopReason, 'end_turn');
    });

    it("Sparkle's tools (over the package's stdio MCP shim) write under a temporary HOME; its embodiment turn is marked for a plain client to hide", async () => {
      const home = tempDir('symposium-acp-home-');
      const r = await acpx(
        // An agent without HTTP MCP: Sparkle's server reaches it through the package's own stdio shim.
        [pkg.bin, '--components', 'sparkle', '--', ...eliza, '--no-http-mcp'],
        'use tool sparkle::save_insight with {"insight_type":"PatternAnchor","content":"Said through the package."}',
        tempDir('symposium-acp-ws-'),
        homeEnv(home),
      );
      assert.equal(r.code, 0, r.stderr);
      const embodiment = r.lines.filter((l) => l.method === 'session/update' && sparkleMarkOf(l.params?.update) === 'embodiment');
      assert.equal(embodiment.map((l) => l.params?.update?.content?.text ?? '').join(''), 'Embodiment received.');
      assert.match(r.answer, /^✨ Insight saved \(PatternAnchor\) to .*\.sparkle\/pattern-anchors\.md\.$/);
      assert.match(readFileSync(join(home, '.sparkle', 'pattern-anchors.md'), 'utf8'), /Said through the package\./);
    });

    it('symposium-ide tools answer from the language-server fallback in a TypeScript project', async () => {
      const r = await acpx(
        [pkg.bin, '--components', 'ide-operations', '--', ...eliza],
        'find definition of Parser',
        join(WORKSPACE, 'ts-project'),
        {
          ...homeEnv(),
          // typescript-language-server, as a user has it on PATH.
          PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
        },
      );
      assert.equal(r.code, 0, r.stderr);
      const parsed = toolReplyJson(r.answer) as { results: { file: string; line: number; name: string }[] };
      assert.deepEqual(
        parsed.results.map((x) => [x.file, x.line, x.name]),
        [['src/parser.ts', 4, 'Parser']],
      );
    });

    it('crate sources answer from a local crate; the research progress is on the tool call, as a plain client shows it', async () => {
      const serde = readdirSync('/usr/share/cargo/registry').find((d) => d.startsWith('serde-'))!;
      const query = JSON.stringify({
        crate_name: 'serde',
        crate_version: '1',
        prompt: 'What is this crate for? Read the manifest with permission.',
      });
      const r = await acpx(
        [pkg.bin, '--components', 'crate-sources', '--', ...eliza],
        `use tool rust-crate-sources::rust_crate_query with ${query}`,
        tempDir('symposium-acp-ws-'),
        {
          ...homeEnv(),
          // Offline: an index that does not answer, so serde comes from Debian's system tree.
          SYMPOSIUM_CRATES_INDEX_URL: 'http://127.0.0.1:9/index',
          SYMPOSIUM_CRATE_CACHE: tempDir('symposium-cache-'),
          CARGO_HOME: tempDir('symposium-cargo-'),
        },
      );
      assert.equal(r.code, 0, r.stderr);
      // The research's progress reached acpx as the tool call's own updates (their content), before its result.
      type Update = {
        sessionUpdate?: string;
        toolCallId?: string;
        title?: string;
        status?: string;
        content?: { content?: { text?: string } }[];
      };
      const updates = r.lines.map((l) => l.params?.update as Update | undefined);
      const call = updates.find((u) => u?.sessionUpdate === 'tool_call' && u.title === 'rust-crate-sources::rust_crate_query');
      const progress = updates
        .filter((u) => u?.sessionUpdate === 'tool_call_update' && u.toolCallId === call?.toolCallId && u.status === 'in_progress')
        .map((u) => u?.content?.[0]?.content?.text);
      assert.deepEqual(progress, ['Research session started for crate serde', 'Research finished']);
      assert.match(
        r.answer,
        new RegExp(`Research on serde ${serde.slice('serde-'.length).replace(/\./g, '\\.')}: A generic serialization`),
      );
    });

    it('an OpenCtx provider and a proxy from the configuration file ($XDG_CONFIG_HOME) answer in the chain', async () => {
      const home = tempDir('symposium-acp-home-');
      const xdg = join(home, 'xdg');
      mkdirSync(join(xdg, 'symposium'), { recursive: true });
      writeFileSync(
        join(xdg, 'symposium', 'config.json'),
        JSON.stringify({
          'symposium.enabledComponents': ['openctx'],
          'openctx.providers': { [pathToFileURL(join(WORKSPACE, 'openctx', 'sample-provider.mjs')).href]: {} },
          'symposium.proxies': {
            rewriter: {
              command: process.execPath,
              args: [join(ROOT, 'out/fixtures/proxies/promptRewriter.js'), '--name', 'rewriter', '--replace', 'ekko=echo'],
            },
          },
        }),
      );
      const env = { ...homeEnv(home), XDG_CONFIG_HOME: xdg };
      const ws = tempDir('symposium-acp-ws-');
      const providers = await acpx([pkg.bin, '--', ...eliza], 'use tool openctx::openctx_providers', ws, env);
      assert.equal(providers.code, 0, providers.stderr);
      assert.deepEqual(
        ((toolReplyJson(providers.answer) as { providers: { name: string }[] }).providers ?? []).map((p) => p.name),
        ['Sample docs'],
      );
      // The proxy rewrote the prompt ("ekko meta" reached ElizACP as "echo meta") and marked it.
      const rewritten = await acpx([pkg.bin, '--', ...eliza], 'ekko meta', ws, env);
      assert.equal(rewritten.code, 0, rewritten.stderr);
      assert.deepEqual((JSON.parse(rewritten.answer) as { rewrittenBy: string[] }).rewrittenBy, ['rewriter']);
      // A --proxy of the same name replaces the file's.
      const flagged = JSON.stringify({
        name: 'rewriter',
        command: process.execPath,
        args: [join(ROOT, 'out/fixtures/proxies/promptRewriter.js'), '--name', 'flagged', '--replace', 'ekko=echo'],
      });
      const replaced = await acpx([pkg.bin, '--proxy', flagged, '--', ...eliza], 'ekko meta', ws, env);
      assert.deepEqual((JSON.parse(replaced.answer) as { rewrittenBy: string[] }).rewrittenBy, ['flagged']);
      // A flag overrides the file: no openctx component, so no openctx server.
      const overridden = await acpx([pkg.bin, '--components', 'symposium-info', '--', ...eliza], 'list tools from openctx', ws, env);
      assert.doesNotMatch(overridden.answer, /openctx_providers/);
    });

    describe(WITH_REAL_AGENTS, () => {
      for (const id of ['claude-code-acp', 'gemini', 'codex'] as const)
        it(`a real agent (${id}) answers through the default chain, and calls symposium-ide answered by the language-server fallback`, async () => {
          if (!agentsInstalled()) assert.fail('the pinned agents are missing: run bash scripts/test-tools-install.sh');
          const HELLO = 'Hello through symposium-acp, from the scripted model.';
          const model = await startScriptedModelServer([
            { when: 'say hello', text: HELLO },
            mcpStep('where is Circle defined', 'symposium-ide', 'find_definitions', { symbol: 'Circle' }),
          ]);
          try {
            const launch = agentLaunch(id, model.url);
            const ws = tempDir('symposium-acp-ws-');
            mkdirSync(join(ws, 'src'));
            writeFileSync(join(ws, 'src', 'shapes.ts'), 'export class Circle {\n  radius = 1;\n}\n');
            const env = {
              ...launch.env,
              SPARKLE_DIR: '',
              SYMPOSIUM_CONFIG: '',
              PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
            };
            const hello = await acpx([pkg.bin, '--', ...launch.command], 'say hello', ws, env);
            assert.equal(hello.code, 0, hello.stderr);
            assert.equal(hello.answer.trim(), HELLO);
            const ide = await acpx([pkg.bin, '--', ...launch.command], 'where is Circle defined?', ws, env);
            assert.equal(ide.code, 0, ide.stderr);
            assert.match(ide.answer, /The tool answered: .*src\/shapes\.ts/s);
          } finally {
            await model.close();
          }
        });
    });
  });
});
