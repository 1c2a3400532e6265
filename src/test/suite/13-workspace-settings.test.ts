// Security settings in the real host: a repository's .vscode/settings.json cannot choose the agent
// command, switch approvals off or widen the allowed folders (they are ignored, with a notice), but
// may name one of the user's agents; allowedFolders entries must be absolute; a tool call's location
// outside the workspace is not opened from the chat.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LogEvent } from '../../log/logEvent';
import type { PendingPermission } from '../../permissions/permissionBroker';
import { answerText, cmd, extension, newTab, openChat, rendered, sleep, tabs, waitFor, waitForIdle } from '../helpers';

const root = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const settingsFile = (): string => path.join(root(), '.vscode', 'settings.json');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('symposium');
const logEvents = (): Thenable<LogEvent[]> => cmd<LogEvent[]>('getLogEvents');
const notices = async (): Promise<string[]> =>
  (await logEvents())
    .filter((e) => e.category === 'settings' && typeof (e.data as { notice?: unknown } | undefined)?.notice === 'string')
    .map((e) => (e.data as { notice: string }).notice);
const pending = (tabId: string): Thenable<PendingPermission[]> => cmd('getPendingPermissions', tabId);
const openEditors = async (): Promise<string[]> =>
  (await cmd<{ uri?: string }[]>('getOpenEditors')).flatMap((e) => (e.uri ? [vscode.Uri.parse(e.uri).fsPath] : []));

suite('settings a workspace may not set, and locations outside the workspace', () => {
  const outsideDir = (): string => path.join(path.dirname(root()), 'outside-allowed');
  const marker = (): string => path.join(path.dirname(root()), 'planted-agent-ran');
  suiteSetup(async () => {
    await openChat();
    fs.mkdirSync(outsideDir(), { recursive: true });
    fs.writeFileSync(path.join(outsideDir(), 'notes.txt'), 'outside the workspace\n');
  });
  suiteTeardown(async () => {
    fs.rmSync(path.dirname(settingsFile()), { recursive: true, force: true });
    for (const key of ['agents', 'currentAgent', 'allowedFolders'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test("a workspace's symposium.agents / allowedFolders are ignored with a notice: no bypass, no planted agent, no wider folders", async () => {
    const planted = {
      command: process.execPath,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker())}, 'x')`],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    };
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify(
        {
          'symposium.agents': { ElizACP: { bypassPermissions: true, autoApprove: ['edit'] }, Planted: planted },
          'symposium.currentAgent': 'Planted',
          'symposium.allowedFolders': [outsideDir()],
          'symposium.reviewAgentEdits': false,
        },
        null,
        2,
      ),
    );
    await waitFor('the notices', async () => {
      const n = await notices();
      return n.includes('workspace:agents') && n.includes('workspace:allowedFolders') && n.includes('workspace:reviewAgentEdits');
    });
    await waitFor('VS Code to read the workspace settings', () => config().get('currentAgent') === 'Planted');
    assert.deepEqual(config().inspect('agents')?.workspaceValue, undefined, 'machine-scoped: VS Code drops it too');
    const text = (await logEvents()).find((e) => (e.data as { notice?: string } | undefined)?.notice === 'workspace:agents')!.message;
    assert.match(text, /set symposium\.agents; it was ignored/);

    // The workspace named an agent only it defines: the built-in one runs instead.
    const tabId = await newTab();
    assert.equal((await tabs()).find((t) => t.tabId === tabId)?.agentName, 'ElizACP');
    assert.equal(fs.existsSync(marker()), false, 'the planted command never ran');
    // bypassPermissions / autoApprove from the workspace do not apply: the user is asked.
    const messageId = await cmd<string>('sendPrompt', tabId, 'request permission for planted bypass');
    await waitFor('the question', async () => (await pending(tabId)).length === 1);
    await cmd('postFromWebview', {
      type: 'permission-answer',
      tabId,
      requestId: (await pending(tabId))[0]!.requestId,
      optionId: 'reject-once',
    });
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, messageId), 'Permission outcome: selected reject-once');
    // allowedFolders from the workspace does not widen what the agent may read.
    const read = await cmd<string>('sendPrompt', tabId, `read file ${path.join(outsideDir(), 'notes.txt')}`);
    await waitForIdle(tabId);
    assert.match(answerText((await rendered(tabId))!, read), /^Error reading .*outside the folders/);
  });

  test("a workspace may name an agent of the user's settings", async () => {
    const ext = extension();
    await config().update(
      'agents',
      {
        Planted: {
          command: process.execPath,
          args: [`${ext.extensionPath}/out/conductor.js`, 'eliza', '--deterministic'],
          env: { ELECTRON_RUN_AS_NODE: '1' },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    try {
      const tabId = await newTab();
      assert.equal((await tabs()).find((t) => t.tabId === tabId)?.agentName, 'Planted', 'the user\'s "Planted", chosen by the workspace');
      assert.equal(fs.existsSync(marker()), false);

      // Once the user lets "Planted" act without asking, the workspace's pick of it no longer
      // counts by itself: the user's own choice (the built-in agent) runs, and the user is asked.
      await config().update(
        'agents',
        { Planted: { ...(config().inspect<Record<string, object>>('agents')?.globalValue?.Planted ?? {}), bypassPermissions: true } },
        vscode.ConfigurationTarget.Global,
      );
      const held = await newTab();
      assert.equal((await tabs()).find((t) => t.tabId === held)?.agentName, 'ElizACP', 'the user-level choice');
      assert.ok((await notices()).includes('workspace-agent:Planted'), 'the user is told and asked');
    } finally {
      await config().update('agents', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('open-location outside the workspace is refused with a notice; inside an allowed folder it opens; relative allowedFolders are refused', async () => {
    fs.rmSync(path.dirname(settingsFile()), { recursive: true, force: true });
    await waitFor('the workspace settings to be gone', () => config().get('currentAgent') === 'ElizACP');
    const tabId = await newTab();
    const outside = path.join(outsideDir(), 'notes.txt');
    await cmd('postFromWebview', { type: 'open-location', tabId, path: outside, line: 1 });
    // The notice's text is markdown-escaped in the card.
    const shown = (body: string): string => body.replace(/\\(.)/g, '$1');
    await waitFor('the notice', async () =>
      (await rendered(tabId))!.some((i) => shown(i.body).startsWith(`Not opened: ${outside} is outside`)),
    );
    await sleep(300);
    assert.ok(!(await openEditors()).includes(outside), 'not opened');
    assert.ok((await logEvents()).some((e) => e.message === 'refused to open a location outside the workspace'));

    // Allowed by the user (an absolute path); the relative entry is refused, once, with a warning.
    await config().update('allowedFolders', ['relative/dir', outsideDir()], vscode.ConfigurationTarget.Global);
    await cmd('postFromWebview', { type: 'open-location', tabId, path: outside, line: 1 });
    await waitFor('the file to open', () => vscode.window.activeTextEditor?.document.uri.fsPath === outside);
    assert.ok((await logEvents()).some((e) => e.level === 'warn' && /"relative\/dir" is not an absolute path/.test(e.message)));
  });

  test('an agent the settings name but do not define: the chat and the status bar say so, and the notice opens the right settings file', async () => {
    await config().update('currentAgent', 'NoSuchAgent', vscode.ConfigurationTarget.Global);
    const shown = (body: string): string => body.replace(/\\(.)/g, '$1');
    const tabId = await newTab();
    assert.equal((await tabs()).find((t) => t.tabId === tabId)?.agentName, 'ElizACP');
    await waitFor('the notice', async () => (await rendered(tabId))!.some((i) => /names "NoSuchAgent"/.test(shown(i.body))));
    const notice = (await rendered(tabId))!.find((i) => /names "NoSuchAgent"/.test(shown(i.body)))!;
    // code-server is a remote window: machine-scoped settings come from the Remote settings there.
    const remote = vscode.env.remoteName !== undefined;
    assert.equal(/remote window/.test(shown(notice.body)), remote);
    assert.deepEqual(notice.buttons, [remote ? 'Open Remote Settings' : 'Open User Settings']);
    const status = await cmd<{ text: string; tooltip: string }>('getAgentStatus');
    assert.match(status.text, /^\$\(warning\) ElizACP: .* settings ignored$/);
    assert.match(status.tooltip, /names "NoSuchAgent"/);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await cmd('postFromWebview', { type: 'open-settings', tabId, target: remote ? 'remote' : 'user' });
    await waitFor('the settings file', () => /settings\.json$/.test(vscode.window.activeTextEditor?.document.uri.path ?? ''));
    await config().update('currentAgent', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the status bar', async () => !/settings ignored/.test((await cmd<{ text: string }>('getAgentStatus')).text));
  });
});
