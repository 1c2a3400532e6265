// Runs only in the multi-root host run (`run-ext-tests.mjs --suite multiroot --workspace
// test-fixtures/workspace-multi/symposium-multi.code-workspace`): two workspace folders, so every new chat tab
// asks which one its session works in (resolveConfiguration → vscode.window.showWorkspaceFolderPick).
// The tests answer that real quick pick with the quick-input commands a keyboard user triggers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { LogEvent } from '../../log/logEvent';
import {
  answerText,
  captureLog,
  cmd,
  expectedReply,
  extension,
  rendered,
  sleep,
  tabs,
  viewState,
  waitFor,
  waitForIdle,
  untilShown,
  QUICK_PICK_SHOWN,
  answerQuickInput,
} from '../helpers';

interface Proc {
  key: string;
  pid: number | undefined;
  state: string;
}

let log: { events: LogEvent[]; dispose(): void };

const sessionEvents = (message: string): LogEvent[] => log.events.filter((e) => e.category === 'session' && e.message === message);
const asked = (): number => sessionEvents('asking for a workspace folder').length;
const answered = (): number => sessionEvents('workspace folder chosen').length + sessionEvents('no workspace folder chosen').length;

/**
 * Waits until resolveConfiguration has logged that it is asking (the quick pick is being shown),
 * then answers the real quick pick: focus the first or last item and accept it, or close the pick.
 * Focus-first/last are idempotent, so an attempt that reached the workbench before the pick was up
 * does no harm and is simply repeated. Returns the folder chosen (undefined when dismissed).
 */
async function answerFolderPick(answer: 'first' | 'last' | 'dismiss'): Promise<string | undefined> {
  const before = answered();
  await waitFor('the workspace-folder quick pick', () => asked() > before);
  await untilShown('the workspace-folder quick pick', QUICK_PICK_SHOWN);
  for (let attempt = 1; ; attempt++) {
    if (answer === 'dismiss') {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    } else {
      const focus = answer === 'first' ? 'quickInput.first' : 'quickInput.last';
      await vscode.commands.executeCommand(focus);
      await sleep(50);
      await vscode.commands.executeCommand(focus);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    try {
      await waitFor('the folder pick to be answered', () => answered() > before, 2_000);
      if (attempt > 1) console.log(`[multiroot] folder pick answered on attempt ${attempt}`);
      break;
    } catch (e) {
      if (attempt === 5) throw e;
    }
  }
  const outcome = log.events.filter((e) => e.category === 'session' && /^(no )?workspace folder chosen$/.test(e.message)).at(-1)!;
  return (outcome.data as { folder?: string } | undefined)?.folder;
}

/** A new tab (as the webview opens one) whose folder pick is answered with `answer`. */
async function newTabPicking(answer: 'first' | 'last'): Promise<string> {
  const tabId = await cmd<string>('simulateNewTab');
  await answerFolderPick(answer);
  await waitForIdle(tabId);
  return tabId;
}

const tabInfo = async (tabId: string) => (await tabs()).find((t) => t.tabId === tabId)!;
const folders = (): string[] => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);

async function reply(tabId: string, prompt: string): Promise<string> {
  await cmd('startCapturingResponses', tabId);
  await cmd('sendPrompt', tabId, prompt);
  await waitForIdle(tabId);
  return cmd<string>('stopCapturingResponses', tabId);
}

suite('several workspace folders', () => {
  suiteSetup(async () => {
    log = captureLog(await extension().activate());
  });
  suiteTeardown(() => log.dispose());

  test("the chat's first tab asks which folder to use; its session runs in the one picked", async () => {
    assert.deepEqual(
      folders().map((f) => path.basename(f)),
      ['workspace', 'workspace-b'],
    );
    await vscode.commands.executeCommand('symposium.openChat');
    await waitFor('the chat webview to be ready', async () => (await viewState()).live);
    // The webview opens its first tab itself; that tab's session asks too.
    assert.equal(await answerFolderPick('first'), folders()[0]);
    await waitFor('the first tab', async () => (await tabs()).length > 0);
    const [first] = await tabs();
    await waitForIdle(first!.tabId);
    const tab = await tabInfo(first!.tabId);
    assert.equal(tab.cwd, folders()[0]);
    assert.ok(tab.sessionId && !tab.failed);
    assert.deepEqual(sessionEvents('asking for a workspace folder').at(-1)!.data, { folders: folders() }, 'both folders were offered');
  });

  test("picking the second folder in the quick pick runs the new tab's session there", async () => {
    // The chat is visible, so the webview opens (and focuses) this tab while the pick is showing;
    // the pick must stay open (ignoreFocusOut) rather than close as "no folder chosen".
    const tabId = await cmd<string>('simulateNewTab');
    assert.equal(await answerFolderPick('last'), folders()[1]);
    await waitForIdle(tabId);
    const tab = await tabInfo(tabId);
    assert.equal(tab.cwd, folders()[1], 'the session cwd is the chosen folder');
    assert.ok(tab.sessionId && !tab.failed && tab.agentName === 'ElizACP');

    const messageId = await cmd<string>('sendPrompt', tabId, 'Hello there');
    await waitForIdle(tabId);
    assert.equal(answerText((await rendered(tabId))!, messageId), expectedReply('Hello there'));
    // The agent resolves relative paths against its session cwd: only folder B has notes.txt.
    const read = await reply(tabId, 'read file notes.txt');
    assert.ok(read.startsWith(`Contents of ${path.join(folders()[1]!, 'notes.txt')}:`), read);
    assert.match(read, /Only the second workspace folder has this file\./);
  });

  test('dismissing the folder pick fails the tab with a message instead of hanging', async () => {
    const tabId = await cmd<string>('simulateNewTab');
    assert.equal(await answerFolderPick('dismiss'), undefined);
    await waitForIdle(tabId, 5_000);
    const tab = await tabInfo(tabId);
    assert.equal(tab.failed, true);
    assert.equal(tab.cwd, undefined);
    assert.equal(tab.sessionId, undefined);
    const card = (await rendered(tabId))!.find((i) => i.messageId.startsWith('notice:'));
    assert.match(card?.body ?? '', /No workspace folder chosen for this chat\./);
    // A prompt there ends at once with an error rather than waiting for a session.
    const messageId = await cmd<string>('sendPrompt', tabId, 'Hello?');
    await waitForIdle(tabId, 5_000);
    assert.match((await rendered(tabId))!.find((i) => i.messageId === `${messageId}:end`)?.body ?? '', /not running/);
  });

  test('tabs in different folders get different conductor processes; tabs in one folder share one', async () => {
    const inB = await newTabPicking('last');
    // This one through the view's New Chat Tab command, as the user opens one.
    const known = new Set((await tabs()).map((t) => t.tabId));
    await vscode.commands.executeCommand('symposium.newTab');
    assert.equal(await answerFolderPick('first'), folders()[0]);
    const inA = (await tabs()).find((t) => !known.has(t.tabId))!.tabId;
    await waitForIdle(inA);
    const [a, b] = [await tabInfo(inA), await tabInfo(inB)];
    assert.equal(a.cwd, folders()[0]);
    assert.equal(b.cwd, folders()[1]);
    assert.ok(a.agentPid && b.agentPid);
    assert.notEqual(a.agentPid, b.agentPid, 'configurations differ by folder');
    const processes = await cmd<Proc[]>('getAgentProcesses');
    assert.equal(processes.length, 2, 'one process per folder');
    assert.deepEqual(new Set(processes.map((p) => p.pid)), new Set([a.agentPid, b.agentPid]));
    assert.notEqual(processes[0]!.key, processes[1]!.key);
    // Every other tab of a folder shares that folder's process.
    for (const t of (await tabs()).filter((t) => t.cwd))
      assert.equal(t.agentPid, t.cwd === folders()[0] ? a.agentPid : b.agentPid, t.tabId);
    assert.equal(await reply(inA, 'I am stuck on a bug in my parser'), expectedReply('I am stuck on a bug in my parser'));
    assert.equal(await reply(inB, 'I want to rewrite the parser in Rust'), expectedReply('I want to rewrite the parser in Rust'));
  });

  test('restarting a tab keeps its folder without asking again', async () => {
    const tabId = await newTabPicking('last');
    const before = await tabInfo(tabId);
    const asks = asked();
    await cmd('restartTab', tabId);
    await waitFor('a fresh session', async () => {
      const t = await tabInfo(tabId);
      return !!t.sessionId && t.sessionId !== before.sessionId;
    });
    await waitForIdle(tabId);
    const after = await tabInfo(tabId);
    assert.equal(after.cwd, folders()[1]);
    assert.notEqual(after.agentPid, before.agentPid, 'a new process');
    assert.equal(asked(), asks, 'no quick pick on restart');
    assert.equal(await reply(tabId, 'Hello there'), expectedReply('Hello there'));
  });
  test('all folders in one session: a tab in the first folder is given the second, and the editor serves a read there', async () => {
    const tabId = await newTabPicking('first');
    const [a, b] = folders();
    assert.equal(await reply(tabId, 'what folders do you see'), `I see 2 folders:\n- ${a} (working directory)\n- ${b}`);
    // ElizACP reads through the editor's fs/read_text_file, confined to the session's folders.
    const read = await reply(tabId, 'read file notes.txt in additional folder 1');
    assert.ok(read.startsWith(`Contents of ${path.join(b!, 'notes.txt')}:`), read);
    assert.match(read, /Only the second workspace folder has this file\./);
  });

  test("all folders in one session: the other folder's .vscode/mcp.json is asked about, and its server reaches the agent, running in that folder", async function () {
    this.timeout(90_000);
    const [, b] = folders();
    const mcpJson = path.join(b!, '.vscode', 'mcp.json');
    const ext = extension().extensionPath;
    const fixture = path.join(ext, 'conductor', 'eliza', 'fixtures', 'mcp-stdio-server.ts');
    const tsx = pathToFileURL(path.join(ext, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const hadVscodeDir = fs.existsSync(path.dirname(mcpJson));
    fs.mkdirSync(path.dirname(mcpJson), { recursive: true });
    fs.writeFileSync(
      mcpJson,
      JSON.stringify({
        servers: {
          'second-folder-server': {
            type: 'stdio',
            command: process.execPath,
            args: ['--import', tsx, fixture],
            env: { FIXTURE_FOLDER: '${workspaceFolder}' },
          },
        },
      }),
    );
    try {
      const tabId = await cmd<string>('simulateNewTab');
      await answerFolderPick('first');
      const mcpAsked = () => log.events.filter((e) => e.category === 'mcp' && e.message === 'asking to allow the workspace MCP servers');
      await waitFor("the confirmation of the second folder's servers", () => mcpAsked().length > 0, 30_000);
      assert.equal((mcpAsked().at(-1)!.data as { file: string }).file, mcpJson);
      await answerQuickInput(0); // Allow and start them
      await waitForIdle(tabId, 60_000);
      assert.match(await reply(tabId, 'which mcp servers do you have'), /second-folder-server \(stdio\)/);
      // ${workspaceFolder} is the folder whose file named the server.
      assert.equal(await reply(tabId, 'use tool second-folder-server::env with {"name": "FIXTURE_FOLDER"}'), b);
      // It runs in that folder too (as VS Code runs it), not in the session's.
      assert.equal(await reply(tabId, 'use tool second-folder-server::cwd with {}'), `runs in ${b}`);
    } finally {
      fs.rmSync(mcpJson, { force: true });
      if (!hadVscodeDir) fs.rmSync(path.dirname(mcpJson), { recursive: true, force: true });
    }
  });

  test('symposium.allFoldersInSession off: a session gets one folder, and a read in the other is refused', async () => {
    const config = vscode.workspace.getConfiguration('symposium');
    await config.update('allFoldersInSession', false, vscode.ConfigurationTarget.Global);
    try {
      const tabId = await newTabPicking('first');
      const [a, b] = folders();
      assert.equal(await reply(tabId, 'what folders do you see'), `I see 1 folder:\n- ${a} (working directory)`);
      const refused = await reply(tabId, `read file ${path.join(b!, 'notes.txt')}`);
      assert.match(refused, /^Error reading .*notes\.txt: .*Only the session's workspace folders/s);
      assert.doesNotMatch(refused, /Only the second workspace folder has this file/);
    } finally {
      await config.update('allFoldersInSession', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
