// Real-browser test of the packaged extension: `npm run package`'s symposium.vsix installed into the
// server as a user installs it (`--install-extension`, VSCODE_HOST_INSTALL of vscode-host-run.sh),
// the workbench opened without our development path, so what runs is the installed copy in
// production mode, with no setting: the chat opens, ElizACP (the embedded default) answers through
// the conductor of the installed copy, and the traffic viewer (bundles loaded on first use) shows the
// turn. Shows that the .vsix carries every file the product needs. Writes test-results/e2e-vsix.json
// and test-results/e2e-vsix-*.png.
import fs from 'node:fs';
import path from 'node:path';
import { openWorkbench, writeResults, RESULTS_DIR, requiredEnv, newResults, runProcesses, describeProcesses } from './browser.mjs';
import { openChat, selectedTab, stepsInto, until, waitForText, wrapperOf } from './chatPage.mjs';

const runDir = requiredEnv('VSCODE_HOST_RUN_DIR');
const installed = fs.readdirSync(path.join(runDir, 'exts')).find((d) => d.startsWith('symposium-dev.symposium-'));
if (!installed) throw new Error('run me with VSCODE_HOST_INSTALL=symposium.vsix (npm run package) through scripts/vscode-host-run.sh');
const installedDir = path.join(runDir, 'exts', installed);

/** The extension's own log ("Symposium" output channel), as VS Code writes it under the user data folder. */
function extensionLog() {
  const logs = path.join(runDir, 'ud', 'logs');
  return /** @type {string[]} */ (fs.readdirSync(logs, { recursive: true }))
    .filter((f) => f.endsWith('Symposium.log'))
    .map((f) => fs.readFileSync(path.join(logs, f), 'utf8'))
    .join('\n');
}

fs.mkdirSync(RESULTS_DIR, { recursive: true });
const results = newResults();
const { ctx, page } = await openWorkbench({ log: false, installed: true });
page.setDefaultTimeout(20_000);
const step = stepsInto(results, () => page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-vsix-failure.png') }));

let exitCode = 0;
/** @type {import('playwright-core').Frame} */
let f;
try {
  await step('the installed .vsix: the chat opens and ElizACP, the embedded default, answers through its conductor', async () => {
    f = await openChat(page);
    const mid = await selectedTab(f);
    await waitForText(wrapperOf(f, mid).locator('.mynah-chat-prompt-input-info'), 'ElizACP ·', 60_000);
    // Production mode: mynah-ui sets no data-testid, so the elements are found by their classes.
    const answers = wrapperOf(f, mid).locator(
      '.mynah-chat-item-card.mynah-chat-item-answer, .mynah-chat-item-card.mynah-chat-item-answer-stream',
    );
    const before = await answers.count();
    await wrapperOf(f, mid).locator('.mynah-chat-prompt-input').first().click();
    await page.keyboard.type('I am trying the installed extension');
    await page.keyboard.press('Enter');
    let answer = '';
    await until('an answer from ElizACP', async () => {
      if ((await answers.count()) > before)
        answer = (
          await answers
            .last()
            .innerText()
            .catch(() => '')
        ).trim();
      return answer !== '';
    });
    console.log(`    ElizACP: ${answer.split('\n')[0]}`);
    if (runProcesses(runDir, `${installedDir}/out/conductor.js`).length === 0)
      throw new Error(
        `no conductor of the installed copy (${installedDir}) runs: ${describeProcesses(runProcesses(runDir, installedDir))}`,
      );
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-vsix-chat.png') });
  });

  await step('it runs in production mode, from the installed copy (the extension log says so)', async () => {
    const log = extensionLog();
    if (!/activated.*"mode":\s*"Production"/.test(log))
      throw new Error(`the extension log does not say production mode:\n${log.slice(0, 1500)}`);
    if ((await f.locator('[data-testid]').count()) > 0) throw new Error('the chat has test ids: it was loaded in test mode');
  });

  await step('Symposium: Show Protocol Traffic opens the viewer with the turn (bundles loaded on first use)', async () => {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>Symposium: Show Protocol Traffic');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Protocol Traffic' }).first().click();
    const shows = (frame) =>
      frame
        .getByText('session/prompt')
        .first()
        .isVisible()
        .catch(() => false);
    await until('the traffic viewer to show session/prompt', async () => (await Promise.all(page.frames().map(shows))).includes(true));
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-vsix-traffic.png') });
  });
} catch {
  exitCode = 1;
}
writeResults('e2e-vsix', results);
console.log(`vsix e2e: ${results.passes.length} passed, ${results.failures.length} failed`);
await ctx.close().catch(() => {});
process.exit(exitCode);
