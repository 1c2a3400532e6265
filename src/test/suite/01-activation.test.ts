import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { childrenOf } from '../processGroup';
import { captureLog, cmd, extension, openChat, sleep, tabs, viewState, waitFor, waitForIdle } from '../helpers';

/** The extension host's child processes running our conductor (read from /proc). */
function conductorChildren(): number[] {
  return childrenOf(process.pid).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('conductor.js');
    } catch {
      return false; // gone meanwhile
    }
  });
}

suite('activation', () => {
  test('is not active at startup; activation spawns nothing, the chat view starts the agent', async () => {
    assert.equal(extension().isActive, false, 'no startup activation');
    // Activated without the view (as a command would): no conductor, no agent yet.
    const activated = await extension().activate();
    await sleep(500);
    assert.deepEqual(conductorChildren(), [], 'no process before the chat view opens');
    const log = captureLog(activated);
    const api = await openChat();
    assert.equal(api, activated);
    assert.match(api.sessionId, /^[0-9a-f-]{36}$/);
    await waitFor('the chat to start a conductor', () => conductorChildren().length > 0);
    // The agent starts while the page loads, not after it: the first tab finds it initialized.
    await waitFor('the first session', () => log.events.some((e) => e.category === 'session' && e.message === 'created'));
    const at = (category: string, message: string): number => log.events.findIndex((e) => e.category === category && e.message === message);
    log.dispose();
    assert.ok(at('agent', 'starting early, while the chat loads') >= 0, 'the agent starts early');
    assert.ok(at('agent', 'spawning') < at('webview', 'ready'), 'the agent was spawned before the page was ready');
    assert.equal(
      log.events.filter((e) => e.category === 'agent' && e.message === 'spawning').length,
      1,
      'one agent process for the view and its tab',
    );
    // Recorded for the bench (activation ≤ 50 ms), not asserted: a timed test would be noise.
    const dir = path.resolve(__dirname, '../../../test-results/bench');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'activation.json'), JSON.stringify({ activationMs: api.activationMs }, null, 2));
  });

  test('registers exactly the commands package.json contributes, and every activation event names one of them or the view', async () => {
    const pkg = extension().packageJSON as {
      activationEvents: string[];
      contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]> };
    };
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    // VS Code adds `<view id>.focus` and the like for the view; the test commands exist only in tests.
    const registered = (await vscode.commands.getCommands(true))
      .filter((c) => c.startsWith('symposium.') && !c.startsWith('symposium.test.') && !c.startsWith('symposium.chat.'))
      .sort();
    assert.deepEqual(registered, contributed);
    const views = Object.values(pkg.contributes.views)
      .flat()
      .map((v) => v.id);
    for (const e of pkg.activationEvents) {
      const [kind, id] = e.split(':');
      assert.ok(kind === 'onCommand' ? contributed.includes(id!) : kind === 'onView' && views.includes(id!), `activation event ${e}`);
    }
    // The contributed view is the one the extension provides: opening the chat resolved it.
    assert.equal((await viewState()).resolved, true);
  });

  test('the webview starts with one tab whose session runs in the workspace folder', async () => {
    await waitFor('the first tab', async () => (await tabs()).length > 0);
    const [first] = await tabs();
    await waitForIdle(first!.tabId);
    const [tab] = (await tabs()).filter((t) => t.tabId === first!.tabId);
    assert.match(tab!.tabId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'tab IDs are UUID v4');
    assert.ok(tab!.sessionId, 'the agent gave it a session');
    assert.equal(tab!.agentName, 'ElizACP');
    assert.equal(tab!.cwd, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  });

  test('an invalid webview message is logged and dropped', async () => {
    const log = captureLog(await extension().activate());
    try {
      const before = (await tabs()).length;
      await cmd('postFromWebview', { type: 'new-tab', tabId: 'not-a-uuid' });
      await cmd('postFromWebview', { type: 'launch-missiles' });
      const dropped = log.events.filter((e) => e.category === 'webview' && e.message === 'invalid message dropped');
      assert.equal(dropped.length, 2);
      assert.match(JSON.stringify(dropped[0]!.data), /UUID v4/);
      assert.equal((await tabs()).length, before);
    } finally {
      log.dispose();
    }
  });

  test('logs are structured events with timestamp, level, category, message', async () => {
    const events = await cmd<{ timestamp: string; level: string; category: string; message: string }[]>('getLogEvents');
    const activated = events.find((e) => e.category === 'activation' && e.message === 'activated');
    assert.ok(activated);
    assert.ok(!Number.isNaN(Date.parse(activated.timestamp)));
    assert.equal(activated.level, 'info');
  });
});
