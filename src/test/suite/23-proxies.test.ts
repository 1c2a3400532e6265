// External proxies in the real extension (code-server): `symposium.proxies` puts the SDK-written
// proxy fixtures (out/fixtures/proxies/, built from conductor/test/fixtures/proxies/) into the
// conductor's chain in front of ElizACP, one in each wire dialect: the prompt rewriter (`proxy/*`)
// and the MCP injector (`_proxy/*`, its server declared with an `acp:` URL as sacp proxies do).
// A prompt goes through both; a proxy crash fails the tab with the proxy's exit reason, and
// Restart builds the chain again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answerText, captureLog, cmd, extension, openChat, rendered, tabs, waitFor, waitForIdle } from '../helpers';

const fixture = (name: string): string => `${extension().extensionPath}/out/fixtures/proxies/${name}.js`;

suite('external proxies', () => {
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('symposium');

  suiteSetup(async () => {
    await openChat();
    await config().update(
      'proxies',
      {
        rewriter: {
          command: process.execPath,
          args: [fixture('promptRewriter'), '--dialect', 'proxy', '--name', 'rewriter', '--replace', 'ekko=echo'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
        tools: { command: process.execPath, args: [fixture('mcpInjector'), '--dialect', '_proxy'], env: { ELECTRON_RUN_AS_NODE: '1' } },
      },
      vscode.ConfigurationTarget.Global,
    );
  });

  suiteTeardown(async () => {
    await config().update('proxies', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a prompt goes through the proxies: rewritten by one, answered with a tool the other serves over ACP', async () => {
    const log = captureLog(await extension().activate());
    try {
      const tabId = await cmd<string>('simulateNewTab');
      const first = await cmd<string>('sendPrompt', tabId, 'ekko meta');
      await waitForIdle(tabId);
      // "ekko meta" reached ElizACP as "echo meta"; it answers with the prompt's _meta, where the proxy signed.
      const meta = JSON.parse(answerText((await rendered(tabId))!, first)) as { rewrittenBy?: string[] };
      assert.deepEqual(meta.rewrittenBy, ['rewriter']);
      const second = await cmd<string>('sendPrompt', tabId, 'use tool proxy-tools::reverse with {"text": "stressed"}');
      await waitForIdle(tabId);
      assert.equal(answerText((await rendered(tabId))!, second), 'desserts');
      const spawned = log.events.find(
        (e) => e.category === 'agent' && e.message === 'spawning' && JSON.stringify(e.data).includes('--proxy'),
      );
      assert.ok(spawned, 'the conductor was started with --proxy flags');
      // The traffic viewer shows the proxy's own wire as a hop of its own.
      await vscode.commands.executeCommand('symposium.showProtocolTraffic', tabId);
      const view = await cmd<{ rows: { hop: string; method: string; kind: string; payload: string }[] } | undefined>(
        'getTrafficRendered',
        'proxy/successor ▸ session/prompt',
      );
      const rows = view?.rows ?? [];
      assert.ok(
        rows.some((r) => r.hop === 'rewriter → rewriter (process)' && r.method === 'session/prompt' && r.payload.includes('ekko meta')),
      );
      assert.ok(
        rows.some(
          (r) =>
            r.hop === 'rewriter (process) → rewriter' && r.method === 'proxy/successor ▸ session/prompt' && r.payload.includes('echo meta'),
        ),
        'the rewritten prompt leaves the proxy in its envelope',
      );
    } finally {
      log.dispose();
    }
  });

  test("a proxy that crashes fails the tab with the proxy's exit reason; Restart builds the chain again", async () => {
    const log = captureLog(await extension().activate());
    const tabId = await cmd<string>('simulateNewTab');
    try {
      await cmd('sendPrompt', tabId, 'please crash the proxy');
      await waitFor('the tab to fail', async () => (await tabs()).find((t) => t.tabId === tabId)?.failed === true);
      await waitForIdle(tabId);
      const card = (await rendered(tabId))!.find((i) => i.messageId.startsWith('notice:'));
      assert.ok(card, 'the tab shows the failure');
      assert.match(card.body, /proxy "rewriter" exited with code 7/);
      assert.match(card.body, /rewriter: crashing as asked/, "the proxy's stderr tail is shown");
      // The conductor did not die with its proxy: it reported the proxy's exit and was then ended by the extension.
      const broken = log.events.find((e) => e.category === 'agent' && e.message === 'a proxy in the chain exited');
      assert.ok(broken, 'the conductor reported the proxy exit (_symposium/component_exited)');
      assert.equal((broken.data as { proxy?: string }).proxy, 'rewriter');
      await waitFor('the broken conductor to be ended', () =>
        Promise.resolve(log.events.some((e) => e.category === 'agent' && e.message === 'exited')),
      );
      assert.ok(!log.events.some((e) => e.message === 'exited unexpectedly'), 'the conductor itself never crashed');
    } finally {
      log.dispose();
    }

    await cmd('postFromWebview', { type: 'restart-agent', tabId });
    await waitFor('the tab to recover', async () => {
      const tab = (await tabs()).find((t) => t.tabId === tabId);
      return tab !== undefined && !tab.failed && tab.sessionId !== undefined;
    });
    const again = await cmd<string>('sendPrompt', tabId, 'ekko meta');
    await waitForIdle(tabId);
    assert.deepEqual((JSON.parse(answerText((await rendered(tabId))!, again)) as { rewrittenBy?: string[] }).rewrittenBy, ['rewriter']);
  });
});
