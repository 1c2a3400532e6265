// Real-browser test of the conversation history across real window reloads and two windows
// (docs/history.md), run through scripts/vscode-host-run.sh like webview-e2e.mjs. In code-server a
// page reload is a new window: the extension host process ends (deactivate) and a new one starts
// (activate); the test checks that the process really changed. Then:
//  - with symposium.restoreTabs: always the open chat comes back and the history lists it;
//  - a second window on the same folder (its own extension host; VS Code gives it storage of its own,
//    `<id>-1`) lists the first window's conversations: the history is the workspace's; a prompt
//    there keeps its checkpoint in the workspace's own repository, beside the first window's;
//  - a second window (without a folder: the global storage's history) reopening a live conversation
//    gets it read-only ("open in another window") and continues it as a new conversation (a new
//    file), never appending to the first window's file;
//  - Delete and Clear all in the history quick pick ask first: Cancel keeps everything, the
//    confirming button deletes (the real dialog's buttons are clicked);
//  - an agent's own session (ElizACP --resume with a state folder) has its own Delete button, which
//    asks first and then has the agent forget it (session/delete: its state file goes).
// Writes test-results/e2e-history.json and screenshots test-results/e2e-history-*.png.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { openWorkbench, writeResults, RESULTS_DIR, sleep, requiredEnv, newResults, runProcesses } from './browser.mjs';
import {
  animationsDone,
  answersOf,
  chatHistoryButton,
  inputOf,
  openChat,
  selectedTab,
  stepsInto,
  until,
  waitForText,
  wrapperOf,
} from './chatPage.mjs';

const { respond } = await tsImport('../conductor/eliza/engine.ts', import.meta.url);
const expected = (prompt) => respond(prompt, { deterministic: true });

const runDir = requiredEnv('VSCODE_HOST_RUN_DIR');
if (!runDir) throw new Error('run me through scripts/vscode-host-run.sh');
// The user's settings (written by vscode-host-run.sh): restore the open chats after a restart.
const settingsFile = path.join(runDir, 'ud', 'User', 'settings.json');
fs.writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(settingsFile, 'utf8')), 'symposium.restoreTabs': 'always' }));
// An agent that lists its sessions (ElizACP --resume, sessions kept in a state folder), chosen later
// with Choose Agent…. `symposium.agents` is a machine setting, which a remote window (code-server
// is one) reads from the Remote settings, `<user data>/Machine/settings.json`, before it opens.
const elizaStateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-e2e-eliza-state-'));
const machineSettings = path.join(runDir, 'ud', 'Machine', 'settings.json');
fs.mkdirSync(path.dirname(machineSettings), { recursive: true });
const elizaArgs = [
  path.resolve(import.meta.dirname, '../out/conductor.js'),
  'eliza',
  '--deterministic',
  '--resume',
  '--state-dir',
  elizaStateDir,
];
fs.writeFileSync(
  machineSettings,
  JSON.stringify({ 'symposium.agents': { 'Eliza lists': { command: process.execPath, args: elizaArgs } } }),
);
// The conversations' files: the extension's workspace storage (one folder per workspace).
const historyDirs = () => {
  const root = path.join(runDir, 'ud', 'User', 'workspaceStorage');
  const dirs = [];
  for (const d of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    const h = path.join(root, d, 'symposium-dev.symposium', 'history');
    if (fs.existsSync(h)) dirs.push(h);
  }
  return dirs;
};
const conversationFiles = () =>
  historyDirs().flatMap((d) =>
    fs
      .readdirSync(d)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => path.join(d, f)),
  );

const globalConversationFiles = () => {
  const d = path.join(runDir, 'ud', 'User', 'globalStorage', 'symposium-dev.symposium', 'no-workspace', 'history');
  return fs.existsSync(d)
    ? fs
        .readdirSync(d)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => path.join(d, f))
    : [];
};
const lockFiles = () => historyDirs().flatMap((d) => fs.readdirSync(d).filter((f) => f.endsWith('.lock')));

fs.mkdirSync(RESULTS_DIR, { recursive: true });
const results = newResults();
const { ctx, page } = await openWorkbench({ log: false });
page.setDefaultTimeout(20_000);

const step = stepsInto(results, async () => {
  for (const [i, p] of ctx.pages().entries())
    await p.screenshot({ path: path.join(RESULTS_DIR, `e2e-history-failure${i ? `-window${i + 1}` : ''}.png`) }).catch(() => {});
});

/** The extension host processes of this run (code-server starts one per window), by pid. */
const extensionHosts = () => runProcesses(runDir, '--type=extensionHost').map((p) => p.pid);

const visibleTab = (f) => f.locator('.mynah-chat-wrapper:not([hidden])');

async function ask(p, f, mid, text) {
  await inputOf(f, mid).click();
  await p.keyboard.type(text);
  await p.keyboard.press('Enter');
  await waitForText(answersOf(f, mid), expected(text));
}
async function newTab(f) {
  const before = await selectedTab(f);
  await f.locator('[data-testid="tab-bar-tab-add-button"]').click();
  let mid;
  for (let i = 0; i < 50 && (mid = await selectedTab(f)) === before; i++) await sleep(100);
  return mid;
}
async function closeTab(f, mid) {
  await f.locator(`label[for="mynah-main-tabs-${mid}"] .mynah-tabs-close-button`).click({ force: true });
  const confirm = f.locator('[data-testid="tab-bar-tab-close-confirmation-accept-button"]');
  if (await confirm.isVisible().catch(() => false)) await confirm.click();
}
/** The History button in the chat's title bar; resolves once the quick pick lists `text`. */
async function showHistory(p, text) {
  await chatHistoryButton(p).click();
  const row = historyRow(p, text);
  await row.waitFor({ timeout: 20_000 });
  return row;
}
/** Symposium: Choose Agent… from the command palette, then the agent's entry. */
async function chooseAgent(p, name) {
  await p.keyboard.press('F1');
  await p.locator('.quick-input-widget input').fill('>Symposium: Choose Agent');
  await p.locator('.quick-input-list .monaco-list-row', { hasText: 'Choose Agent' }).first().click();
  await p.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
  // Chosen once the status bar names it (the setting is written meanwhile).
  await p
    .locator('.statusbar-item', { hasText: `${name}:` })
    .first()
    .waitFor();
}
/** The conversations with checkpoints under a workspace storage folder (a ref folder per conversation). */
function checkpointConversations(workspaceStorage) {
  const repos = path.join(workspaceStorage, 'symposium-dev.symposium', 'checkpoints');
  if (!fs.existsSync(repos)) return [];
  return fs.readdirSync(repos).flatMap((repo) => {
    const refs = path.join(repos, repo, 'refs', 'symposium');
    return fs.existsSync(refs) ? fs.readdirSync(refs) : [];
  });
}
const historyRow = (p, text) => p.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
const historyRows = (p, text) => p.locator('.quick-input-list .monaco-list-row', { hasText: text }).count();
/** Shows the history, presses the button `tooltip` of the row with `text`, and waits for the confirmation dialog. */
async function pressRowButton(p, text, tooltip) {
  const row = await showHistory(p, text);
  await row.hover();
  await row.locator(`.action-label[aria-label^="${tooltip}"], .action-label[title^="${tooltip}"]`).first().click();
  await dialogButton(p, 'Cancel').waitFor();
}
const dialogButton = (p, label) => p.locator('.monaco-dialog-box .monaco-button', { hasText: label }).first();

const kept = 'My notebook remembers everything';
const doomed = 'Delete this chat later';
let exitCode = 0;
try {
  let f;
  let hostsBefore;
  await step('a conversation, then a real window reload: a new extension host; restoreTabs: always brings the tab back', async () => {
    f = await openChat(page);
    const tab1 = await selectedTab(f);
    await inputOf(f, tab1).waitFor();
    await ask(page, f, tab1, kept);
    const tab2 = await newTab(f);
    await ask(page, f, tab2, doomed);
    await closeTab(f, tab2);
    // The host has handled the close once it gave the conversation up (its lock file is gone).
    await until('one open conversation', () => lockFiles().length === 1);
    await sleep(1500); // and its list of open tabs reached the window's storage (a user does not reload within a second)
    hostsBefore = extensionHosts();
    if (hostsBefore.length !== 1) throw new Error(`expected one extension host, found ${JSON.stringify(hostsBefore)}`);
    await page.reload();
    f = await openChat(page);
    await waitForText(visibleTab(f), 'cannot continue old sessions', 60_000);
    await waitForText(visibleTab(f), kept); // the transcript
    // One new host: a connection the workbench dropped while it loaded leaves a host of its own
    // behind for code-server's reconnection grace (5 s), so a second one may still be ending.
    let hostsAfter = extensionHosts();
    for (let i = 0; i < 100 && (hostsAfter.length !== 1 || hostsAfter[0] === hostsBefore[0]); i++) {
      await sleep(100);
      hostsAfter = extensionHosts();
    }
    if (hostsAfter.length !== 1 || hostsAfter[0] === hostsBefore[0])
      throw new Error(`expected a new extension host: before ${JSON.stringify(hostsBefore)}, after ${JSON.stringify(hostsAfter)}`);
    await animationsDone(page);
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-history-after-reload.png') });
  });
  console.log(`hosts: ${JSON.stringify(hostsBefore)} -> ${JSON.stringify(extensionHosts())}`);
  await step('after the reload the history lists both earlier conversations', async () => {
    await showHistory(page, kept);
    await historyRow(page, doomed).waitFor();
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-history-listed-after-reload.png') });
    await page.keyboard.press('Escape');
  });
  await step("a second window on the same folder, while the first is open, lists the first window's conversations", async () => {
    // VS Code gives it storage of its own (`<id>-1`: the first window's extension host holds `<id>`),
    // as it does a browser window opened again while the closed one's host lingers for the grace time.
    const storage = path.join(runDir, 'ud', 'User', 'workspaceStorage');
    const page2 = await ctx.newPage();
    page2.setDefaultTimeout(20_000);
    try {
      await page2.goto(page.url());
      const f2 = await openChat(page2);
      await showHistory(page2, kept);
      await historyRow(page2, doomed).waitFor();
      const extra = fs.readdirSync(storage).find((d) => /-1$/.test(d));
      if (!extra) throw new Error(`the second window did not get storage of its own: ${JSON.stringify(fs.readdirSync(storage))}`);
      await page2.keyboard.press('Escape');
      // A prompt there: its checkpoints go to the workspace's own repository too, beside the first
      // window's (a restore from either window finds them).
      const own = path.join(storage, extra.slice(0, -2));
      const before = checkpointConversations(own);
      if (before.length === 0) throw new Error(`no checkpoint of the first window's prompts in ${own}`);
      await ask(page2, f2, await newTab(f2), 'A checkpoint from the second window');
      await until(
        "the second window's checkpoint in the workspace's own storage",
        () => checkpointConversations(own).length > before.length,
      );
      const stray = checkpointConversations(path.join(storage, extra));
      if (stray.length > 0) throw new Error(`the second window kept checkpoints in its own storage: ${JSON.stringify(stray)}`);
    } finally {
      await page2.close();
    }
    // Its extension host ends after code-server's reconnection grace (5 s here).
    await until("the second window's extension host to end", () => extensionHosts().length === 1, 60_000);
  });

  const cleared = 'Clear this chat too';
  await step('Delete in the history asks first: Cancel keeps the conversation, Delete removes it', async () => {
    const tab = await newTab(f);
    await ask(page, f, tab, cleared);
    await closeTab(f, tab);
    const count = () => conversationFiles().length;
    const files = count();
    const trash = () => pressRowButton(page, doomed, 'Delete this conversation');
    await trash();
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-history-delete-confirm.png') });
    await dialogButton(page, 'Cancel').click();
    await sleep(500);
    if (count() !== files) throw new Error('Cancel deleted something');
    await page.keyboard.press('Escape');
    await showHistory(page, doomed);
    await page.keyboard.press('Escape');
    await trash();
    await dialogButton(page, 'Delete').click();
    await until('the conversation file to go', () => count() === files - 1);
    await page.keyboard.press('Escape');
    await showHistory(page, kept);
    await until('the deleted conversation to leave the list', async () => (await historyRows(page, doomed)) === 0, 10_000);
    await page.keyboard.press('Escape');
  });

  await step('Clear all asks first: Cancel keeps everything; Clear All keeps only what a window has open', async () => {
    const count = () => conversationFiles().length;
    const files = count();
    const clear = async () => {
      await showHistory(page, cleared);
      await page
        .locator('.quick-input-titlebar .action-label[aria-label^="Clear all"], .quick-input-titlebar .action-label[title^="Clear all"]')
        .first()
        .click();
      await dialogButton(page, 'Cancel').waitFor();
    };
    await clear();
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-history-clear-confirm.png') });
    await dialogButton(page, 'Cancel').click();
    await sleep(500);
    if (count() !== files) throw new Error('Cancel deleted something');
    await page.keyboard.press('Escape');
    await clear();
    await dialogButton(page, 'Clear All').click();
    // Left: the conversation open in a tab.
    await until('the closed conversations to go', () => count() === 1);
    if (!fs.readFileSync(conversationFiles()[0] ?? '', 'utf8').includes(kept))
      throw new Error('Clear All removed the conversation open in a tab');
    await page.keyboard.press('Escape');
  });

  await step("an agent's own session: its Delete button asks first; Delete has the agent forget it (session/delete)", async () => {
    // A session ElizACP saved earlier in its state folder, which this window has no transcript of.
    const title = 'An agent session to delete';
    const saved = path.join(elizaStateDir, `${randomUUID()}.json`);
    const session = { id: path.basename(saved, '.json'), cwd: path.join(runDir, 'ws'), modeId: 'ask', model: 'eliza-classic' };
    fs.writeFileSync(saved, JSON.stringify({ ...session, prompts: 1, updatedAt: new Date().toISOString(), title, history: [] }));
    // The agent is switched as a user does (a runtime change of the user settings file is not seen here).
    await chooseAgent(page, 'Eliza lists');
    try {
      const trash = () => pressRowButton(page, title, 'Delete this session from the agent');
      await trash();
      await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-history-agent-session-delete-confirm.png') });
      await dialogButton(page, 'Cancel').click();
      await sleep(500);
      if (!fs.existsSync(saved)) throw new Error('Cancel deleted the agent’s session');
      await page.keyboard.press('Escape');
      await trash();
      await dialogButton(page, 'Delete').click();
      await until('ElizACP to delete its saved session', () => !fs.existsSync(saved));
      await page.keyboard.press('Escape');
      // The agent no longer lists it: the history shows the conversation still open, and not the session.
      await showHistory(page, kept);
      await until('the session to leave the list', async () => (await historyRows(page, title)) === 0, 10_000);
      await page.keyboard.press('Escape');
    } finally {
      await chooseAgent(page, 'ElizACP');
      fs.rmSync(elizaStateDir, { recursive: true, force: true });
    }
  });

  // Windows without a folder share the global storage's no-workspace/history.
  const shared = 'Two windows share this chat';
  const forked = 'Continued in the second window';
  await step(
    'two windows without a folder: the second gets the live conversation read-only ("open in another window"); continuing forks it',
    async () => {
      const empty = new URL(page.url());
      empty.searchParams.delete('folder');
      empty.searchParams.set('ew', 'true');
      await page.goto(empty.toString());
      f = await openChat(page);
      const tab = await selectedTab(f);
      await inputOf(f, tab).waitFor();
      await ask(page, f, tab, shared);
      let original = '';
      await until(
        'the conversation file',
        () => (original = globalConversationFiles().find((file) => fs.readFileSync(file, 'utf8').includes(shared)) ?? ''),
      );
      const originalText = fs.readFileSync(original, 'utf8');
      const before = globalConversationFiles();

      const page2 = await ctx.newPage();
      page2.setDefaultTimeout(20_000);
      await page2.goto(empty.toString());
      const f2 = await openChat(page2);
      await (await showHistory(page2, shared)).click();
      await waitForText(visibleTab(f2), 'open in another window', 60_000);
      await waitForText(visibleTab(f2), shared); // the transcript
      const hosts = extensionHosts();
      if (hosts.length !== 2) throw new Error(`expected two extension hosts (two windows), found ${JSON.stringify(hosts)}`);
      await animationsDone(page2);
      await page2.screenshot({ path: path.join(RESULTS_DIR, 'e2e-history-open-elsewhere.png') });
      const mid = await selectedTab(f2);
      await wrapperOf(f2, mid).locator('button', { hasText: 'Continue in a new session' }).last().click();
      await waitForText(answersOf(f2, mid), 'does not remember this conversation');
      await ask(page2, f2, mid, forked);
      // The first window goes on in its own file meanwhile.
      await ask(page, f, tab, 'And the first window goes on');
      let fork = '';
      await until('the fork’s own file', () => {
        fork = globalConversationFiles().find((file) => !before.includes(file) && fs.readFileSync(file, 'utf8').includes(forked)) ?? '';
        return fork;
      });
      if (!fs.readFileSync(fork, 'utf8').includes(shared)) throw new Error('the fork does not start with the transcript');
      const now = fs.readFileSync(original, 'utf8');
      if (!now.startsWith(originalText) || now.includes(forked))
        throw new Error('the second window wrote into the first window’s conversation');
      if (!now.includes('And the first window goes on')) throw new Error('the first window’s next turn is missing');
      await page2.close();
    },
  );
} catch {
  exitCode = 1;
}
writeResults('e2e-history', results);
console.log(`e2e-history: ${results.passes.length} passed, ${results.failures.length} failed`);
await ctx.close().catch(() => {});
process.exit(exitCode);
