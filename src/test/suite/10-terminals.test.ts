// Terminals in the real host: ElizACP's `run command <line>` hook does terminal/create → tool_call
// with terminal content → wait_for_exit → output → release. The editor asks first (unless
// bypassed), runs a real process in its own group, mirrors it in a VS Code terminal, shows the
// output in the tool card, and leaves no process behind when the tab closes or the turn stops.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LogEvent } from '../../log/logEvent';
import type { PendingPermission } from '../../permissions/permissionBroker';
import {
  answerText,
  captureLog,
  cmd,
  groupMembers,
  newTab,
  openChat,
  permissionCards,
  rendered,
  toolCards,
  waitFor,
  waitForIdle,
} from '../helpers';

const pending = (tabId: string): Thenable<PendingPermission[]> => cmd('getPendingPermissions', tabId);
const answer = (tabId: string, requestId: string, optionId: string): Thenable<unknown> =>
  cmd('postFromWebview', { type: 'permission-answer', tabId, requestId, optionId });
const agents = (value: unknown): Thenable<void> =>
  vscode.workspace.getConfiguration('symposium').update('agents', value, vscode.ConfigurationTarget.Global);
const bypass = (): Thenable<void> => agents({ ElizACP: { bypassPermissions: true } });
const workspaceFolder = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

/** The pids of the commands the editor started (from the structured log), by command line. */
const started = (events: LogEvent[], commandLine: string): number[] =>
  events
    .filter((e) => e.category === 'terminal' && e.message === 'started' && (e.data as { commandLine?: string }).commandLine === commandLine)
    .map((e) => (e.data as { pid: number }).pid);

suite('terminals run by the editor', () => {
  let log: ReturnType<typeof captureLog>;
  const opened: string[] = [];
  let openSub: vscode.Disposable;
  suiteSetup(async () => {
    log = captureLog(await openChat());
    openSub = vscode.window.onDidOpenTerminal((t) => opened.push(t.name));
  });
  suiteTeardown(async () => {
    log.dispose();
    openSub.dispose();
    await agents(undefined);
  });
  teardown(() => agents(undefined));

  test("a command's output and exit status reach the reply and the tool card; its VS Code terminal is released after", async () => {
    await bypass();
    const line = `node -e "console.log('hi'); process.exit(3)"`;
    const tabId = await newTab();
    const messageId = await cmd<string>('sendPrompt', tabId, `run command ${line}`);
    await waitForIdle(tabId);
    const items = (await rendered(tabId))!;
    assert.match(answerText(items, messageId), /^Command exited with code 3\.\n```\nhi\n/);
    const cards = toolCards(items, messageId);
    assert.equal(cards.length, 1);
    assert.equal(cards[0]!.status, 'Failed', 'a non-zero exit fails the tool call');
    assert.match(cards[0]!.details ?? '', /exited with code 3/);
    assert.match(cards[0]!.details ?? '', /\bhi\b/);
    assert.ok(opened.includes(`Symposium: ${line}`), `a VS Code terminal was opened (${opened.join(', ')})`);
    await waitFor('the terminal to be released', () => !vscode.window.terminals.some((t) => t.name === `Symposium: ${line}`), 5_000);
    assert.equal(started(log.events, line).length, 1);
  });

  test('without bypass the user is asked first, with the exact command line, cwd and env names; allow runs it', async () => {
    const line = 'node -e "console.log(6 * 7)"';
    const tabId = await newTab();
    const messageId = await cmd<string>('sendPrompt', tabId, `run command ${line}`);
    await waitFor('the question', async () => (await pending(tabId)).length === 1);
    const request = (await pending(tabId))[0]!;
    assert.equal(request.title, `Run: ${line}`);
    assert.equal(request.kind, 'execute');
    assert.deepEqual(
      request.options.map((o) => o.optionId),
      ['allow-once', 'reject-once'],
    );
    assert.equal(started(log.events, line).length, 0, 'nothing runs before the answer');
    await waitFor('the approval card', async () => permissionCards((await rendered(tabId))!, messageId).length === 1);
    const body = permissionCards((await rendered(tabId))!, messageId)[0]!.body;
    assert.ok(body.includes(JSON.stringify(workspaceFolder())), `the card shows the cwd:\n${body}`);
    assert.match(body, /"env": \[\]/);
    await answer(tabId, request.requestId, 'allow-once');
    await waitForIdle(tabId);
    assert.match(answerText((await rendered(tabId))!, messageId), /^Command exited with code 0\.\n```\n42\n/);
    assert.equal(started(log.events, line).length, 1);
  });

  test('rejecting: the agent gets an error and no process is spawned', async () => {
    const marker = path.join(workspaceFolder(), 'terminal-ran.txt');
    const line = `node -e "require('fs').writeFileSync('terminal-ran.txt', 'x')"`;
    const tabId = await newTab();
    const messageId = await cmd<string>('sendPrompt', tabId, `run command ${line}`);
    await waitFor('the question', async () => (await pending(tabId)).length === 1);
    await answer(tabId, (await pending(tabId))[0]!.requestId, 'reject-once');
    await waitForIdle(tabId);
    const reply = answerText((await rendered(tabId))!, messageId);
    assert.ok(reply.startsWith(`Error running ${line}: `), reply);
    assert.ok(reply.includes(`declined to run "${line}"`), reply);
    assert.equal(started(log.events, line).length, 0);
    assert.equal(fs.existsSync(marker), false);
  });

  test('closing the tab while a command runs leaves no process and no VS Code terminal', async () => {
    await bypass();
    const line = 'node -e "setInterval(()=>{},1000)"';
    const tabId = await newTab();
    await cmd<string>('sendPrompt', tabId, `run command ${line}`);
    await waitFor('the command to start', () => started(log.events, line).length === 1);
    const pid = started(log.events, line)[0]!;
    assert.ok(groupMembers(pid).length >= 1, 'it runs in its own process group');
    await waitFor('its VS Code terminal', () => vscode.window.terminals.some((t) => t.name === `Symposium: ${line}`));
    await cmd('closeTab', tabId);
    await waitFor('the process group to be gone', () => groupMembers(pid).length === 0, 5_000);
    await waitFor('the VS Code terminal to be gone', () => !vscode.window.terminals.some((t) => t.name === `Symposium: ${line}`), 5_000);
  });

  test('Stop while a command runs: the agent releases it, the process ends, the turn stops', async () => {
    await bypass();
    const line = 'node -e "setInterval(()=>{},1001)"';
    const tabId = await newTab();
    const messageId = await cmd<string>('sendPrompt', tabId, `run command ${line}`);
    await waitFor('the command to start', () => started(log.events, line).length === 1);
    const pid = started(log.events, line)[0]!;
    await cmd('cancel', tabId);
    await waitForIdle(tabId);
    await waitFor('the process group to be gone', () => groupMembers(pid).length === 0, 5_000);
    const items = (await rendered(tabId))!;
    assert.ok(items.some((i) => i.messageId === `${messageId}:end` && i.body === '_Stopped._'));
    await cmd('closeTab', tabId);
  });

  test('the VS Code terminal mirrors the output without taking focus; closing it kills the command', async () => {
    await bypass();
    const line = `node -e "console.log('ready'); setInterval(()=>{},1002)"`;
    const tabId = await newTab();
    const messageId = await cmd<string>('sendPrompt', tabId, `run command ${line}`);
    await waitFor('its VS Code terminal', () => vscode.window.terminals.some((t) => t.name === `Symposium: ${line}`));
    const terminal = vscode.window.terminals.find((t) => t.name === `Symposium: ${line}`)!;
    assert.notEqual(vscode.window.activeTerminal, terminal, 'not made the active terminal');
    const pid = started(log.events, line)[0]!;
    // What the user sees once they open it: the command line, then its output.
    terminal.show(true);
    await waitFor(
      'the mirrored output',
      async () => {
        await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
        await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
        const text = await vscode.env.clipboard.readText();
        return text.includes(`$ ${line}`) && /\bready\b/.test(text);
      },
      10_000,
    );
    terminal.dispose();
    await waitFor('the process group to be gone', () => groupMembers(pid).length === 0, 5_000);
    await waitForIdle(tabId);
    assert.match(answerText((await rendered(tabId))!, messageId), /^Command was killed by signal SIGTERM\./);
    assert.match(toolCards((await rendered(tabId))!, messageId)[0]?.details ?? '', /killed by SIGTERM/);
    await cmd('closeTab', tabId);
  });
});
