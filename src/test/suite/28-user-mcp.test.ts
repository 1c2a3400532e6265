// The user's own MCP servers in the real host with ElizACP: the workspace's .vscode/mcp.json names a
// stdio server whose env uses an `${input:…}`. A new chat first shows what the file would run and
// asks; then the input box asks for the value; the agent gets the server (and its tool answers with
// the value), and the chat says which servers the session got. A second chat asks nothing again. In
// an untrusted workspace the file's servers are not passed, and the chat's line says why. "Forget MCP
// Server Approvals and Inputs" takes both back, once the user has seen what goes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { silentLog } from '../../log/logEvent';
import { UserMcpServers } from '../../mcp/userMcpServers';
import { mcpNotice } from '../../mcp/mcpSummary';
import type { RenderedItem } from '../../protocol/webview';
import type { LogEvent } from '../../log/logEvent';
import {
  answerText,
  cmd,
  extension,
  openChat,
  rendered,
  waitFor,
  waitForIdle,
  answerQuickInput,
  untilShown,
  QUICK_PICK_SHOWN,
} from '../helpers';

/** The extension's `mcp` log messages so far. */
const mcpLog = async (): Promise<string[]> =>
  (await cmd<LogEvent[]>('getLogEvents')).filter((e) => e.category === 'mcp').map((e) => e.message);
const asked = async (): Promise<number> => (await mcpLog()).filter((m) => m.startsWith('asking')).length;
const folder = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const mcpJson = (): string => path.join(folder(), '.vscode', 'mcp.json');
const notices = (items: RenderedItem[]): string =>
  items
    .filter((i) => i.messageId.startsWith('notice:'))
    .map((i) => i.body.replace(/\\/g, ''))
    .join('\n');

async function ask(tabId: string, text: string): Promise<string> {
  const messageId = await cmd<string>('sendPrompt', tabId, text);
  await waitForIdle(tabId);
  return answerText((await rendered(tabId))!, messageId);
}

suite('user MCP servers', () => {
  // Unique per run: the answer is kept in the secret storage, which outlives a run.
  const inputId = `fixture-key-${Date.now()}`;
  let hadVscodeDir = true;

  let fixture = '';
  let tsx = '';

  suiteSetup(async () => {
    const ext = extension().extensionPath;
    fixture = path.join(ext, 'conductor', 'eliza', 'fixtures', 'mcp-stdio-server.ts');
    tsx = pathToFileURL(path.join(ext, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    // The chat's first tab gets its session before the file exists: run alone, this suite would
    // otherwise see that tab's confirmation counted before its first test begins.
    await openChat();
    await waitFor(
      "the chat's first tab's session",
      async () => (await cmd<{ sessionId?: string; failed: boolean }[]>('getTabs')).some((t) => t.sessionId || t.failed),
      60_000,
    );
    hadVscodeDir = fs.existsSync(path.dirname(mcpJson()));
    fs.mkdirSync(path.dirname(mcpJson()), { recursive: true });
    fs.writeFileSync(
      mcpJson(),
      `{
  // a workspace's own MCP server, as VS Code reads it
  "inputs": [{ "type": "promptString", "id": "${inputId}", "description": "The fixture's key", "password": true, "default": "k-from-the-input-box" }],
  "servers": {
    "fixture": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": ["--import", ${JSON.stringify(tsx)}, ${JSON.stringify(fixture)}],
      "env": { "FIXTURE_KEY": "\${input:${inputId}}", "FIXTURE_FOLDER": "\${workspaceFolder}" },
    },
  },
}`,
    );
  });
  suiteTeardown(() => {
    fs.rmSync(mcpJson(), { force: true });
    if (!hadVscodeDir) fs.rmSync(path.dirname(mcpJson()), { recursive: true, force: true });
  });

  test("a workspace's stdio server: shown and allowed, its input asked once, then the agent has it and the chat says so", async function () {
    this.timeout(90_000);
    const before = await asked();
    const tabId = await cmd<string>('simulateNewTab');
    {
      await waitFor('the confirmation', async () => (await mcpLog()).includes('asking to allow the workspace MCP servers'), 30_000);
      const shown = await cmd<string[]>('getMcpConfirmation');
      assert.equal(shown.length, 1);
      assert.match(
        shown[0]!,
        /^fixture: .*node.* --import .*mcp-stdio-server\.ts \(env: FIXTURE_KEY, FIXTURE_FOLDER\)$/,
        'the command line and env names',
      );
      await answerQuickInput(0); // Allow and start them
      await waitFor('the input box', async () => (await mcpLog()).includes('asking for an MCP input'));
      await answerQuickInput(); // the box's value: the input's default
      await waitForIdle(tabId, 60_000);

      const items = (await rendered(tabId))!;
      assert.match(notices(items), /MCP servers: fixture \(stdio\)\./, 'the chat names the server the session got');
      assert.match(await ask(tabId, 'which mcp servers do you have'), /^MCP servers: fixture \(stdio\), /, "beside the conductor's own");
      assert.equal(await ask(tabId, 'use tool fixture::env with {"name": "FIXTURE_KEY"}'), 'k-from-the-input-box');
      assert.equal(await ask(tabId, 'use tool fixture::env with {"name": "FIXTURE_FOLDER"}'), folder());
      const secretInLog = JSON.stringify(await cmd<LogEvent[]>('getLogEvents')).includes('k-from-the-input-box');
      assert.ok(!secretInLog, 'the input value is never logged');
      assert.equal(await asked(), before + 2, 'one confirmation, one input box');

      // A second chat: nothing asked again (consent kept in workspace state, the value in secret storage).
      const second = await cmd<string>('simulateNewTab');
      await waitForIdle(second, 60_000);
      assert.equal(await ask(second, 'use tool fixture::env with {"name": "FIXTURE_KEY"}'), 'k-from-the-input-box');
      assert.equal(await asked(), before + 2, 'no second question');
      await cmd('closeTab', tabId);
      await cmd('closeTab', second);
    }
  });

  test('Forget MCP Server Approvals and Inputs: the pick lists what goes; then a new chat asks both again', async function () {
    this.timeout(90_000);
    const forgetting = vscode.commands.executeCommand('symposium.forgetMcpServerApprovals');
    await untilShown('the choice', `${QUICK_PICK_SHOWN}:has-text("Forget")`);
    await untilShown('what goes: the approval', `${QUICK_PICK_SHOWN}:has-text("The approval of this workspace's MCP servers (1 file)")`);
    await untilShown('what goes: the input', `${QUICK_PICK_SHOWN}:has-text("1 answer to MCP inputs")`);
    await answerQuickInput(0); // Forget
    await forgetting;
    assert.ok((await mcpLog()).includes('MCP server approvals and inputs forgotten'));

    const before = await asked();
    const tabId = await cmd<string>('simulateNewTab');
    await waitFor('the confirmation again', async () => (await asked()) === before + 1, 30_000);
    await answerQuickInput(0); // Allow and start them
    await waitFor('the input box again', async () => (await asked()) === before + 2);
    await answerQuickInput();
    await waitForIdle(tabId, 60_000);
    assert.equal(await ask(tabId, 'use tool fixture::env with {"name": "FIXTURE_KEY"}'), 'k-from-the-input-box');
    await cmd('closeTab', tabId);
  });

  test("untrusted: the workspace's servers are not passed, nothing is asked, and the line says why", async () => {
    const events: string[] = [];
    const servers = new UserMcpServers({
      log: { ...silentLog, info: (_c, message) => void events.push(message) },
      secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined },
      workspaceState: { get: () => undefined, update: async () => undefined },
      globalState: { get: () => undefined, update: async () => undefined },
      globalStorageUri: vscode.Uri.file(path.join(folder(), 'no-user-dir', 'globalStorage', 'x')),
      enabled: () => true,
      trusted: () => false,
    });
    const got = await servers.forSession(folder());
    assert.deepEqual(got.servers, []);
    assert.deepEqual(got.report, [{ name: 'fixture', type: 'stdio', source: 'workspace', skipped: 'the workspace is not trusted' }]);
    assert.ok(!events.some((e) => e.startsWith('asking')), 'no confirmation, no input box');
    assert.deepEqual(mcpNotice(got.report, { http: true, sse: false }), {
      level: 'warning',
      text: 'Not passed to the agent: fixture (the workspace is not trusted).',
      settings: 'trust',
    });
  });

  test('symposium.mcpServers.enabled off: the session gets none of them', async function () {
    this.timeout(60_000);
    const config = vscode.workspace.getConfiguration('symposium');
    await config.update('mcpServers.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      const tabId = await cmd<string>('simulateNewTab');
      await waitForIdle(tabId, 60_000);
      assert.doesNotMatch(await ask(tabId, 'which mcp servers do you have'), /fixture/);
      assert.doesNotMatch(notices((await rendered(tabId))!), /MCP servers/);
      await cmd('closeTab', tabId);
    } finally {
      await config.update('mcpServers.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('"cwd": the server runs in that folder (shown before it runs); a cwd that is not a folder leaves its server out, and the chat says so', async function () {
    this.timeout(90_000);
    const original = fs.readFileSync(mcpJson(), 'utf8');
    const tools = path.join(folder(), 'mcp-tools');
    fs.mkdirSync(tools, { recursive: true });
    const server = (cwd: string) => ({ command: process.execPath, args: ['--import', tsx, fixture], cwd });
    fs.writeFileSync(
      mcpJson(),
      JSON.stringify({ servers: { 'in-tools': server('${workspaceFolder}/mcp-tools'), 'in-nowhere': server('no-such-folder') } }),
    );
    try {
      const before = await asked();
      const tabId = await cmd<string>('simulateNewTab');
      await waitFor('the confirmation of the changed file', async () => (await asked()) === before + 1, 30_000);
      const shown = await cmd<string[]>('getMcpConfirmation');
      assert.match(shown[0]!, /^in-tools: .*mcp-stdio-server\.ts in \$\{workspaceFolder\}\/mcp-tools$/, 'where it runs is shown');
      assert.match(shown[1]!, /^in-nowhere: .* in no-such-folder$/);
      await answerQuickInput(0); // Allow and start them
      await waitForIdle(tabId, 60_000);
      assert.equal(await ask(tabId, 'use tool in-tools::cwd with {}'), `runs in ${tools}`);
      assert.match(
        notices((await rendered(tabId))!),
        new RegExp(`Not passed to the agent: in-nowhere \\(its cwd ${path.join(folder(), 'no-such-folder')} is not a folder\\)`),
      );
      await cmd('closeTab', tabId);
    } finally {
      fs.writeFileSync(mcpJson(), original);
      fs.rmSync(tools, { recursive: true, force: true });
    }
  });
});
