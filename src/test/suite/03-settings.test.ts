import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LogEvent } from '../../log/logEvent';
import { cmd, expectedReply, extension, openChat, rendered, sleep, tabs, waitFor, waitForIdle, answerText } from '../helpers';

/** The Symposium log's output channel, if it is showing. */
const visibleLog = (): vscode.TextDocument | undefined =>
  vscode.window.visibleTextEditors.map((e) => e.document).find((d) => d.uri.scheme === 'output' && d.uri.path.endsWith('.Symposium.log'));
/** "Restart Agent" offers so far (each names the settings that changed). */
const restartOffers = async (): Promise<string[][]> =>
  (await cmd<LogEvent[]>('getLogEvents')).flatMap((e) =>
    e.category === 'settings' && Array.isArray((e.data as { restartKeys?: unknown } | undefined)?.restartKeys)
      ? [(e.data as { restartKeys: string[] }).restartKeys]
      : [],
  );

suite('settings and commands', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('Symposium: New Chat Tab opens a tab in the webview with its own session', async () => {
    const before = new Set((await tabs()).map((t) => t.tabId));
    await vscode.commands.executeCommand('symposium.newTab');
    await waitFor('a new tab', async () => (await tabs()).some((t) => !before.has(t.tabId)));
    const tab = (await tabs()).find((t) => !before.has(t.tabId))!;
    await waitForIdle(tab.tabId);
    assert.ok((await tabs()).find((t) => t.tabId === tab.tabId)?.sessionId);
    // Empty but for Sparkle's embodiment section (default chain), which is not a conversation turn.
    assert.deepEqual(
      (await rendered(tab.tabId))?.filter((i) => !i.messageId.endsWith(':sparkle')),
      [],
      'the webview has the (empty) tab',
    );
  });

  test('Symposium: Show Logs shows the Symposium log, with the activation in it', async () => {
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await waitFor('the panel to close', () => visibleLog() === undefined);
    await vscode.commands.executeCommand('symposium.showLogs');
    await waitFor('the Symposium log to show', () => visibleLog() !== undefined);
    await waitFor('its activation line', () => /\[activation\] activated/.test(visibleLog()?.getText() ?? ''));
  });

  test('agents come from symposium.agents / symposium.currentAgent; another configuration gets its own process', async () => {
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    await config.update(
      'agents',
      {
        'Eliza (custom)': {
          command: process.execPath,
          args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
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

  test('changing which agent runs offers Restart Agent, whose button restarts the agent; a permission rule needs no restart', async () => {
    const config = vscode.workspace.getConfiguration('symposium');
    await vscode.commands.executeCommand('notifications.clearAll');
    const offered = (await restartOffers()).length;
    const tabId = await cmd<string>('simulateNewTab');
    await waitForIdle(tabId);
    const pidBefore = (await tabs()).find((t) => t.tabId === tabId)?.agentPid;
    try {
      // The built-in agent again (names match case-insensitively): a change all the same.
      await config.update('currentAgent', 'elizacp', vscode.ConfigurationTarget.Global);
      await waitFor('the restart offer', async () => (await restartOffers()).length === offered + 1);
      assert.deepEqual((await restartOffers()).at(-1), ['currentAgent']);
      // The offer's button, as the user would press it.
      await vscode.commands.executeCommand('notifications.focusToasts');
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      await waitFor('the tab to get a new agent process', async () => {
        const t = (await tabs()).find((x) => x.tabId === tabId);
        return !!t?.sessionId && t.agentPid !== undefined && t.agentPid !== pidBefore;
      });
      // Permission rules are read on every request.
      await config.update('agents', { ElizACP: { autoApprove: ['read'] } }, vscode.ConfigurationTarget.Global);
      await sleep(500);
      assert.equal((await restartOffers()).length, offered + 1, 'no offer for a permission rule');
    } finally {
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });
});
