// The agent's state at a glance: the status-bar item follows the current agent (ElizACP here)
// through start → ready → working → crash (the first line of the failure) → restart → ready. Its
// text is read through symposium.test.getAgentStatus (text, tooltip and every text shown so far).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { cmd, extension, newTab, openChat, waitFor, waitForIdle, answerQuickInput } from '../helpers';

interface Shown {
  text: string;
  tooltip: string;
  history: string[];
  count: number;
  progress: { title: string; ended: boolean }[];
}
const status = (): Thenable<Shown> => cmd<Shown>('getAgentStatus');
/** The texts shown after the `mark`-th one (`count` is how many were shown in all; `history` keeps the last 50). */
const since = (s: Shown, mark: number): string => s.history.slice(Math.max(0, s.history.length - (s.count - mark))).join(' | ');

suite('agent status bar', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('the status-bar item follows start → ready → crash → restart', async function () {
    this.timeout(60_000);
    // A fresh process: Restart Agent, then a tab (it starts the process if nothing runs).
    await vscode.commands.executeCommand('symposium.restartAgent');
    const from = (await status()).count;
    const tabId = await newTab();
    await waitFor('the agent to be ready', async () => /ElizACP: ready$/.test((await status()).text));
    const started = since(await status(), Math.max(0, from - 1));
    assert.match(started, /ElizACP: (starting|ready)/, started);

    const work = (await status()).count;
    await cmd('sendPrompt', tabId, 'Hello there');
    await waitForIdle(tabId);
    assert.match(since(await status(), work), /ElizACP: working.*ElizACP: ready/, 'working while the turn runs, then ready');

    await cmd('sendPrompt', tabId, 'crash');
    await waitFor('the error state', async () => /\$\(error\) ElizACP: error — /.test((await status()).text));
    const crashed = await status();
    assert.ok(!crashed.text.includes('\n'), 'only the first line of the failure');
    assert.match(crashed.tooltip, /crash|code \d+/i, 'the tooltip has the failure and stderr tail');
    await waitForIdle(tabId);

    const restart = (await status()).count;
    await cmd('postFromWebview', { type: 'restart-agent', tabId });
    await waitFor('ready again', async () => /ElizACP: ready$/.test((await status()).text));
    assert.match(since(await status(), restart), /ElizACP: (starting|ready)/);
  });

  test('a slow agent start shows as window progress until the agent is ready', async function () {
    this.timeout(60_000);
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    // ElizACP behind a 3 s delay: an agent that takes its time to start (npx, a big binary).
    const eliza = [process.execPath, `${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'].map((a) => `'${a}'`).join(' ');
    await config.update(
      'agents',
      { 'Slow Eliza': { command: '/bin/sh', args: ['-c', `sleep 3; exec ${eliza}`], env: { ELECTRON_RUN_AS_NODE: '1' } } },
      vscode.ConfigurationTarget.Global,
    );
    await config.update('currentAgent', 'Slow Eliza', vscode.ConfigurationTarget.Global);
    try {
      const opened = newTab(); // resolves once the session is ready, after the start
      await waitFor('the start progress', async () =>
        (await status()).progress.some((p) => p.title === 'Starting Slow Eliza…' && !p.ended),
      ).catch(async (e: Error) => {
        throw new Error(`${e.message}: ${JSON.stringify(await status())}`);
      });
      assert.match((await status()).text, /Slow Eliza: starting/);
      await opened;
      await waitFor('the agent to be ready', async () => /Slow Eliza: ready$/.test((await status()).text), 30_000);
      const progress = (await status()).progress.filter((p) => p.title === 'Starting Slow Eliza…');
      assert.ok(progress.length >= 1 && progress.every((p) => p.ended), JSON.stringify(progress));
    } finally {
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("the status-bar item's menu: Restart agent restarts it; Switch agent… changes the current agent", async function () {
    this.timeout(60_000);
    const config = vscode.workspace.getConfiguration('symposium');
    const ext = extension();
    await config.update(
      'agents',
      {
        'Eliza two': {
          command: process.execPath,
          args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    try {
      await newTab();
      await waitFor('the agent to be ready', async () => /ElizACP: ready$/.test((await status()).text));
      const pid = (await cmd<{ pid: number }[]>('getAgentProcesses'))[0]?.pid;
      // The menu's items, in order: Switch agent…, Restart agent, Show logs, Open chat.
      await pickFromMenu(1);
      await waitFor('a new process', async () => (await cmd<{ pid: number }[]>('getAgentProcesses')).some((p) => p.pid !== pid));
      await waitFor('ready after the restart', async () => /ElizACP: ready$/.test((await status()).text));

      await pickFromMenu(0);
      // The second pick lists the agents: ElizACP (current) and Eliza two.
      await answerQuickInput(1);
      await waitFor(
        'the current agent to change',
        () => vscode.workspace.getConfiguration('symposium').get('currentAgent') === 'Eliza two',
      );
      await waitFor('the item to name it', async () => /Eliza two/.test((await status()).text));
    } finally {
      await config.update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
      await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});

/** Opens the status-bar item's menu (its command) and picks the item at `index`. */
async function pickFromMenu(index: number): Promise<void> {
  void vscode.commands.executeCommand('symposium.agentMenu');
  await answerQuickInput(index);
}
