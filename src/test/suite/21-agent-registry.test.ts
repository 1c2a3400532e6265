// Agents from the ACP registry, through the real quick picks of "Symposium: Choose Agent…": a
// registry file named by a file: URL (an npx agent) and one served by a loopback HTTP server (a
// binary agent whose archive is served there too, and one whose checksum is wrong). The npx agent
// is resolved and added without running anything; the binary one is downloaded, checked, unpacked
// under global storage and then chatted with (the archive holds a script that starts ElizACP); the
// bad checksum leaves nothing installed and the settings as they were. An entry setting NODE_OPTIONS
// is refused before any question; an archive without a checksum is asked about twice. A proxy in the
// registry's extensions[] (an archive running the prompt-rewriter fixture) is listed after the agents,
// installed the same way into symposium.proxies, and the next chat's prompts go through it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { platformKey } from '../../agents/registry/resolveAgent';
import type { LogEvent } from '../../log/logEvent';
import {
  captureLog,
  cmd,
  expectedReply,
  extension,
  newTab,
  openChat,
  screenshot,
  sleep,
  viewState,
  waitFor,
  waitForIdle,
  untilShown,
  QUICK_PICK_SHOWN,
  answerQuickInput,
} from '../helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('symposium');
const agents = (): Record<string, unknown> => config().inspect<Record<string, unknown>>('agents')?.globalValue ?? {};
// A version per run: installs are kept in global storage, and this run must download its own.
const VERSION = `1.0.${Date.now() % 1_000_000}`;

suite('agent registry', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-registry-host-'));
  const requests: string[] = [];
  let server: Server;
  let base = '';
  let fileUrl = '';
  let log: { events: LogEvent[]; dispose(): void };
  let proxyArchive = Buffer.alloc(0);

  suiteSetup(async function () {
    this.timeout(30_000);
    const api = await openChat();
    log = captureLog(api);
    // The binary agent: a tar.gz with bin/eliza-agent, a script that starts ElizACP.
    const ext = extension();
    const src = path.join(dir, 'src');
    fs.mkdirSync(path.join(src, 'bin'), { recursive: true });
    const script = `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(`${ext.extensionPath}/out/conductor.js`)} eliza --deterministic "$@"\n`;
    fs.writeFileSync(path.join(src, 'bin', 'eliza-agent'), script, { mode: 0o755 });
    execFileSync('tar', ['-czf', path.join(dir, 'eliza.tar.gz'), '-C', src, 'bin']);
    const archive = fs.readFileSync(path.join(dir, 'eliza.tar.gz'));
    const sha256 = createHash('sha256').update(archive).digest('hex');
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/eliza.tar.gz') return void res.writeHead(200, { 'content-length': archive.length }).end(archive);
      if (req.url === '/rewriter.tar.gz') return void res.writeHead(200, { 'content-length': proxyArchive.length }).end(proxyArchive);
      if (req.url === '/registry.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(httpRegistry());
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const platform = platformKey(process.platform, process.arch)!;
    const binary = (id: string, name: string, sum: string): unknown => ({
      id,
      name,
      version: VERSION,
      description: `${name}: ElizACP in a tar.gz`,
      distribution: {
        binary: {
          [platform]: { archive: `${base}/eliza.tar.gz`, sha256: sum, cmd: './bin/eliza-agent', env: { ELECTRON_RUN_AS_NODE: '1' } },
        },
      },
    });
    const unchecked = {
      id: 'eliza-nosum',
      name: 'Eliza No Checksum',
      version: VERSION,
      description: 'an archive the registry gives no SHA-256 for',
      distribution: { binary: { [platform]: { archive: `${base}/eliza-nosum.tar.gz`, cmd: './bin/eliza-agent' } } },
    };
    const preload = {
      id: 'npx-preload',
      name: 'Preloading NPX Agent',
      version: '1.0.0',
      description: 'an npx agent whose entry sets NODE_OPTIONS and npm_config_registry',
      distribution: {
        npx: {
          package: '@symposium-test/preload@1.0.0',
          env: { NODE_OPTIONS: '--require=/tmp/x.js', npm_config_registry: 'https://evil.example/' },
        },
      },
    };
    const httpRegistry = (): string =>
      JSON.stringify({
        version: '1.0.0',
        agents: [
          binary('eliza-binary', 'Eliza Binary', sha256),
          binary('eliza-badsum', 'Eliza Bad Checksum', '0'.repeat(64)),
          unchecked,
          preload,
        ],
        extensions: [
          rewriterProxy(),
          {
            id: 'symposium-acp',
            name: 'Symposium Conductor',
            version: '1.0.0',
            description: 'our own package: the conductor, not a proxy',
            distribution: { npx: { package: 'symposium-acp@1.0.0' } },
          },
        ],
      });
    // A proxy (extensions[]): a tar.gz whose script runs the prompt-rewriter proxy fixture.
    const proxySrc = path.join(dir, 'proxy-src');
    fs.mkdirSync(path.join(proxySrc, 'bin'), { recursive: true });
    const rewriter = `${ext.extensionPath}/out/fixtures/proxies/promptRewriter.js`;
    fs.writeFileSync(
      path.join(proxySrc, 'bin', 'rewriter'),
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(rewriter)} "$@"\n`,
      { mode: 0o755 },
    );
    execFileSync('tar', ['-czf', path.join(dir, 'rewriter.tar.gz'), '-C', proxySrc, 'bin']);
    proxyArchive = fs.readFileSync(path.join(dir, 'rewriter.tar.gz'));
    const rewriterProxy = (): unknown => ({
      id: 'registry-rewriter',
      name: 'Registry Rewriter',
      version: VERSION,
      description: 'a proxy that rewrites ekko to echo',
      distribution: {
        binary: {
          [platform]: {
            archive: `${base}/rewriter.tar.gz`,
            sha256: createHash('sha256').update(proxyArchive).digest('hex'),
            cmd: './bin/rewriter',
            args: ['--dialect', 'proxy', '--name', 'registry-rewriter', '--replace', 'ekko=echo'],
            env: { ELECTRON_RUN_AS_NODE: '1' },
          },
        },
      },
      _meta: { symposium: { placeBefore: 'symposium-info' } },
    });
    const npx = {
      id: 'test-npx',
      name: 'Test NPX Agent',
      version: '1.2.3',
      description: 'An npx agent that is never run',
      distribution: { npx: { package: '@symposium-test/fake-agent@1.2.3', args: ['--acp'] } },
    };
    fs.writeFileSync(path.join(dir, 'registry.json'), JSON.stringify({ version: '1.0.0', agents: [npx], extensions: [] }));
    fileUrl = pathToFileURL(path.join(dir, 'registry.json')).href;
    await config().update('registry.urls', [fileUrl, `${base}/registry.json`], vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    log?.dispose();
    await config().update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
    await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    await config().update('proxies', undefined, vscode.ConfigurationTarget.Global);
    await config().update('enabledComponents', undefined, vscode.ConfigurationTarget.Global);
    await config().update('registry.urls', undefined, vscode.ConfigurationTarget.Global);
    server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the picker, waits for its items, and picks `label` (then answers the confirmation with `confirm`). */
  async function choose(label: string, confirm?: 'install' | 'cancel', shot?: string): Promise<string[]> {
    const before = log.events.filter((e) => e.message === 'choosing an agent').length;
    void vscode.commands.executeCommand('symposium.chooseAgent');
    await waitFor('the picker', () => log.events.filter((e) => e.message === 'choosing an agent').length > before);
    const choices = await cmd<string[]>('getAgentChoices');
    const index = choices.indexOf(label);
    assert.ok(index >= 0, `${label} is offered: ${choices.join(', ')}`);
    if (shot) {
      await untilShown('the picker', QUICK_PICK_SHOWN);
      await screenshot(shot);
    }
    await answerQuickInput(index);
    if (confirm) await answerQuickInput(confirm === 'install' ? 0 : 1);
    return choices;
  }

  test('the picker lists your agents first, then the registry files in order, then the bundled registry', async function () {
    this.timeout(30_000);
    assert.equal((await viewState()).title, 'Chat · ElizACP', "the chat's title bar names the current agent");
    const choices = await choose('ElizACP', undefined, 'agent-picker');
    assert.equal(choices[0], 'ElizACP');
    const registry = choices.filter((c) => c.startsWith('$(cloud-download) '));
    assert.deepEqual(registry.slice(0, 3), [
      '$(cloud-download) Test NPX Agent',
      '$(cloud-download) Eliza Binary',
      '$(cloud-download) Eliza Bad Checksum',
    ]);
    assert.ok(registry.includes('$(cloud-download) Claude Code'), 'the bundled registry follows');
    assert.equal(config().get('currentAgent'), 'ElizACP');
  });

  test('an npx entry is resolved to `npx -y package@version args` and added without running it', async function () {
    this.timeout(30_000);
    const processes = (await cmd<{ pid: number }[]>('getAgentProcesses')).length;
    await choose('$(cloud-download) Test NPX Agent', 'install');
    await waitFor('the agent to be added and current', () => config().get('currentAgent') === 'Test NPX Agent');
    assert.deepEqual(agents()['Test NPX Agent'], {
      command: 'npx',
      args: ['-y', '@symposium-test/fake-agent@1.2.3', '--acp'],
      env: {},
      registry: 'test-npx@1.2.3',
    });
    await waitFor('the title bar to name it', async () => (await viewState()).title === 'Chat · Test NPX Agent');
    const now = await cmd<{ agentName: string }[]>('getAgentProcesses');
    assert.equal(now.length, processes, 'nothing was started');
    assert.ok(!now.some((p) => p.agentName === 'Test NPX Agent'));
    // Added once: the next pick lists it among your agents, not the registry's.
    const choices = await choose('ElizACP');
    assert.ok(choices.indexOf('Test NPX Agent') < choices.indexOf('$(cloud-download) Eliza Binary'));
    assert.ok(!choices.includes('$(cloud-download) Test NPX Agent'));
    await waitFor('ElizACP to be current again', () => config().get('currentAgent') === 'ElizACP');
  });

  test('each agent people run is in the bundled registry, pinned, and Choose Agent… adds it as its npx command', async function () {
    this.timeout(60_000);
    const pinned: [string, string[]][] = [
      ['Claude Code', ['-y', '@zed-industries/claude-code-acp@0.16.2']],
      ['Claude Agent', ['-y', '@agentclientprotocol/claude-agent-acp@0.101.0']],
      ['Codex', ['-y', '@zed-industries/codex-acp@0.16.0']],
      ['Gemini CLI', ['-y', '@google/gemini-cli@0.61.0', '--acp']],
      ['Qwen Code', ['-y', '@qwen-code/qwen-code@0.24.4', '--acp', '--auth-type', 'openai']],
      ['OpenCode', ['-y', 'opencode-ai@1.18.33', 'acp']],
    ];
    try {
      for (const [name, args] of pinned) {
        await choose(`$(cloud-download) ${name}`, 'install');
        await waitFor(`${name} to be added and current`, () => config().get('currentAgent') === name);
        const entry = agents()[name] as { command?: string; args?: string[] } | undefined;
        assert.deepEqual({ command: entry?.command, args: entry?.args }, { command: 'npx', args }, name);
      }
    } finally {
      const kept = Object.fromEntries(Object.entries(agents()).filter(([name]) => !pinned.some(([p]) => p === name)));
      await config().update('agents', kept, vscode.ConfigurationTarget.Global);
      await config().update('currentAgent', 'ElizACP', vscode.ConfigurationTarget.Global);
    }
  });

  test('a binary entry is downloaded from a loopback server, checksum-verified, unpacked, and chats', async function () {
    this.timeout(60_000);
    await choose('$(cloud-download) Eliza Binary', 'install');
    await waitFor('the agent to be added and current', () => config().get('currentAgent') === 'Eliza Binary', 30_000);
    const entry = agents()['Eliza Binary'] as { command: string; args: string[]; env: Record<string, string>; registry: string };
    assert.equal(entry.registry, `eliza-binary@${VERSION}`);
    assert.match(entry.command, new RegExp(`agents/eliza-binary/${VERSION.replace(/\./g, '\\.')}/bin/eliza-agent$`));
    assert.ok(fs.statSync(entry.command).mode & 0o100, 'unpacked and executable');
    assert.deepEqual(entry.env, { ELECTRON_RUN_AS_NODE: '1' });
    const shown = await cmd<string[]>('getAgentConfirmation');
    assert.match(shown[0]!, /eliza\.tar\.gz \(SHA-256 [0-9a-f]{64}\)/);
    assert.deepEqual(shown.slice(1), ['ELECTRON_RUN_AS_NODE=1'], 'every variable was shown as NAME=value before it was written');
    assert.equal(requests.filter((r) => r === '/eliza.tar.gz').length, 1);
    assert.ok(log.events.some((e) => e.message === 'installing' && (e.data as { sha256?: string }).sha256?.length === 64));

    const tabId = await newTab();
    const tab = (await cmd<{ tabId: string; agentName?: string }[]>('getTabs')).find((t) => t.tabId === tabId);
    assert.equal(tab?.agentName, 'Eliza Binary');
    await cmd('startCapturingResponses', tabId);
    await cmd('sendPrompt', tabId, 'I am stuck on a bug in my parser');
    await waitForIdle(tabId);
    assert.equal(await cmd('stopCapturingResponses', tabId), expectedReply('I am stuck on a bug in my parser'));
    await cmd('closeTab', tabId);
  });

  test('a bad checksum is refused: nothing installed, settings unchanged', async function () {
    this.timeout(30_000);
    const current = config().get('currentAgent');
    const downloads = requests.filter((r) => r === '/eliza.tar.gz').length;
    await choose('$(cloud-download) Eliza Bad Checksum', 'install');
    await waitFor('the install to fail', () => log.events.some((e) => e.message === 'install failed'));
    const failure = log.events.find((e) => e.message === 'install failed')!.data as { reason: string };
    assert.match(failure.reason, /checksum mismatch .* the registry says 0{64}, the download is [0-9a-f]{64}; nothing was installed/);
    assert.equal(requests.filter((r) => r === '/eliza.tar.gz').length, downloads + 1, 'it was downloaded, then refused');
    assert.equal(agents()['Eliza Bad Checksum'], undefined);
    assert.equal(config().get('currentAgent'), current);
    const storage = path.resolve((agents()['Eliza Binary'] as { command: string }).command, '../../../..');
    assert.ok(!fs.existsSync(path.join(storage, 'eliza-badsum')), 'no install folder');
  });

  test('an entry that sets NODE_OPTIONS or npm_config_* is refused before any question: settings unchanged', async function () {
    this.timeout(30_000);
    const before = { agents: agents(), current: config().get('currentAgent') };
    await choose('$(cloud-download) Preloading NPX Agent');
    await waitFor('the refusal', () => log.events.some((e) => e.message === 'entry sets refused environment variables'));
    const refused = log.events.find((e) => e.message === 'entry sets refused environment variables')!.data as {
      refused: { name: string }[];
    };
    assert.deepEqual(
      refused.refused.map((r) => r.name),
      ['NODE_OPTIONS', 'npm_config_registry'],
    );
    await sleep(300);
    assert.deepEqual({ agents: agents(), current: config().get('currentAgent') }, before);
  });

  test('an archive without a SHA-256 asks a second time, naming the risk; Cancel downloads nothing', async function () {
    this.timeout(30_000);
    const before = { agents: agents(), current: config().get('currentAgent') };
    await choose('$(cloud-download) Eliza No Checksum', 'install');
    await answerQuickInput(0); // the second question: Cancel comes first
    await waitFor('the decline', () => log.events.some((e) => e.message === 'install without a checksum declined'));
    assert.match((await cmd<string[]>('getAgentConfirmation'))[0]!, /no SHA-256 for .*eliza-nosum\.tar\.gz.*can run any program as you/);
    assert.ok(!requests.includes('/eliza-nosum.tar.gz'), 'nothing was downloaded');
    assert.deepEqual({ agents: agents(), current: config().get('currentAgent') }, before);
  });

  test('a proxy from the registry is in its own group, installed like an agent into symposium.proxies, and runs in the chain', async function () {
    this.timeout(60_000);
    // The user lists components: the entry's placeBefore puts the proxy in front of symposium-info there.
    const offered = (): LogEvent[] => log.events.filter((e) => e.message === 'changed; open chats use it after a restart');
    const listed = offered().length;
    await config().update('enabledComponents', ['symposium-info'], vscode.ConfigurationTarget.Global);
    await waitFor('the components setting to be seen', () => offered().length > listed);
    const offersBefore = offered().length;
    const choices = await choose('$(plug) Registry Rewriter', 'install');
    assert.ok(
      choices.indexOf('$(plug) Registry Rewriter') > choices.lastIndexOf(choices.filter((c) => c.startsWith('$(cloud-download) ')).at(-1)!),
      'the proxies come after the registry agents',
    );
    assert.ok(!choices.some((c) => c.endsWith('Symposium Conductor')), "Symposium's own package is not offered as a proxy");
    const proxies = (): Record<string, { command: string; args: string[]; env: Record<string, string>; registry: string }> =>
      config().inspect<Record<string, never>>('proxies')?.globalValue ?? {};
    await waitFor('the proxy in symposium.proxies', () => proxies()['registry-rewriter'] !== undefined, 30_000);
    const entry = proxies()['registry-rewriter']!;
    assert.equal(entry.registry, `registry-rewriter@${VERSION}`);
    assert.match(entry.command, new RegExp(`agents/registry-rewriter/${VERSION.replace(/\./g, '\\.')}/bin/rewriter$`));
    assert.deepEqual(entry.args, ['--dialect', 'proxy', '--name', 'registry-rewriter', '--replace', 'ekko=echo']);
    const shown = await cmd<string[]>('getAgentConfirmation');
    assert.match(shown[0]!, /rewriter\.tar\.gz \(SHA-256 [0-9a-f]{64}\)/);
    assert.deepEqual(shown.slice(1), ['ELECTRON_RUN_AS_NODE=1']);
    assert.equal(requests.filter((r) => r === '/rewriter.tar.gz').length, 1);
    assert.deepEqual(config().inspect('enabledComponents')?.globalValue, ['registry-rewriter', 'symposium-info']);
    await waitFor(
      'the restart offer',
      () => log.events.filter((e) => e.message === 'changed; open chats use it after a restart').length > offersBefore,
    );
    await sleep(300);
    const offers = log.events.filter((e) => e.message === 'changed; open chats use it after a restart').slice(offersBefore);
    assert.deepEqual(
      offers.map((e) => (e.data as { restartKeys: string[] }).restartKeys),
      [['enabledComponents', 'proxies']],
      'both settings written as one change: one Restart Agent offer',
    );

    // A new chat gets a conductor with the proxy in front of the agent: the prompt arrives rewritten and signed.
    const tabId = await newTab();
    await cmd('startCapturingResponses', tabId);
    await cmd('sendPrompt', tabId, 'ekko meta');
    await waitForIdle(tabId);
    const meta = JSON.parse(await cmd<string>('stopCapturingResponses', tabId)) as { rewrittenBy?: string[] };
    assert.deepEqual(meta.rewrittenBy, ['registry-rewriter']);
    await cmd('closeTab', tabId);

    // Installed: the next pick marks it so, and picking it installs nothing again.
    const again = await choose('$(check) Registry Rewriter');
    assert.ok(!again.includes('$(plug) Registry Rewriter'));
    await sleep(300);
    assert.equal(requests.filter((r) => r === '/rewriter.tar.gz').length, 1);
  });
});
