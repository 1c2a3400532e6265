import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cmd, expectedReply, extension, openChat, rendered, tabs, waitFor, waitForIdle, answerText } from '../helpers';

suite('settings and commands', () => {
  suiteSetup(async () => { await openChat(); });

  test('Symposium: New Chat Tab opens a tab in the webview with its own session', async () => {
    const before = new Set((await tabs()).map((t) => t.tabId));
    await vscode.commands.executeCommand('symposium.newTab');
    await waitFor('a new tab', async () => (await tabs()).some((t) => !before.has(t.tabId)));
    const tab = (await tabs()).find((t) => !before.has(t.tabId))!;
    await waitForIdle(tab.tabId);
    assert.ok((await tabs()).find((t) => t.tabId === tab.tabId)?.sessionId);
    assert.deepEqual(await rendered(tab.tabId), [], 'the webview has the (empty) tab');
  });

  test('Symposium: Show Logs runs', async () => {
    await vscode.commands.executeCommand('symposium.showLogs');
  });

  test('agents come from symposium.agents / symposium.currentAgent; another configuration gets its own process', async () => {
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    await config.update('agents', {
      'Eliza (custom)': { command: process.execPath, args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'], env: { ELECTRON_RUN_AS_NODE: '1' } },
    }, vscode.ConfigurationTarget.Global);
    await config.update('currentAgent', 'Eliza (custom)', vscode.ConfigurationTarget.Global);
    await config.update('enabledComponents', [], vscode.ConfigurationTarget.Global);
    try {
      const processesBefore = (await cmd<unknown[]>('getAgentProcesses')).length;
      const tabId = await cmd<string>('simulateNewTab');
      await waitForIdle(tabId);
      const info = (await tabs()).find((t) => t.tabId === tabId)!;
      assert.equal(info.agentName, 'Eliza (custom)');
      assert.equal((await cmd<unknown[]>('getAgentProcesses')).length, processesBefore + 1);
      const messageId = await cmd<string>('sendPrompt', tabId, 'Can you hear me?');
      await waitForIdle(tabId);
      assert.equal(answerText((await rendered(tabId))!, messageId), expectedReply('Can you hear me?'));
    } finally {
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
      await config.update('enabledComponents', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
