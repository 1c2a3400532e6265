// Real-browser test of checkpoints (docs/checkpoints.md), run through scripts/vscode-host-run.sh like
// webview-e2e.mjs: ElizACP changes files on disk by itself (no fs/*), the tab shows the "N files
// changed" card, and the user clicks it as anyone would: Revert on a file (the file is back on
// disk), Keep, a file's name (VS Code's diff, before the turn ↔ now), Review changes (every file
// in one view), Restore checkpoint on the first prompt (the real confirmation dialog clicked), and
// Edit and resend (the files restored first, then the edited prompt in a new session). Writes test-results/e2e-checkpoints.json and screenshots
// test-results/e2e-checkpoints-*.png.
import fs from 'node:fs';
import path from 'node:path';
import { openWorkbench, writeResults, RESULTS_DIR, requiredEnv, newResults } from './browser.mjs';
import { inputOf, openChat, selectedTab, stepsInto, until, waitForText, wrapperOf } from './chatPage.mjs';

const runDir = requiredEnv('VSCODE_HOST_RUN_DIR');
if (!runDir) throw new Error('run me through scripts/vscode-host-run.sh');
const dir = path.join(runDir, 'ws', 'ckpt-e2e');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'edit.txt'), 'old line\n');
// There well before the first prompt (a checkpoint takes files younger than its prompt for the agent's).
const past = new Date(Date.now() - 60_000);
fs.utimesSync(path.join(dir, 'edit.txt'), past, past);

fs.mkdirSync(RESULTS_DIR, { recursive: true });
const results = newResults();
const { ctx, page } = await openWorkbench({ log: false });
page.setDefaultTimeout(20_000);
const step = stepsInto(results, () => page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-checkpoints-failure.png') }));

/** The file system or the page catching up, within 20 s. */
const within20s = (what, check) => until(what, check, 20_000);

let exitCode = 0;
try {
  const f = await openChat(page);
  const mid = await selectedTab(f);
  // The card (not the header mynah nests inside it as a card of its own): the one with the file list.
  const cards = () =>
    wrapperOf(f, mid)
      .locator('[data-testid="chat-item-answer"]', { hasText: /\d+ files? changed/ })
      .filter({ has: f.locator('[data-testid="chat-item-file-tree-wrapper"]') });
  const send = async (text, reply) => {
    const before = await cards().count();
    await inputOf(f, mid).fill(text);
    await inputOf(f, mid).press('Enter');
    await waitForText(wrapperOf(f, mid), reply);
    await within20s('the files-changed card', async () => (await cards().count()) > before);
    return cards().nth(before);
  };
  const fileOf = (card, name) => card.locator('[data-testid="chat-item-file-tree-file"]', { hasText: name });
  const fileAction = async (card, name, action) => {
    await fileOf(card, name).hover();
    await fileOf(card, name).locator('[data-testid="chat-item-file-tree-file-action"]', { hasText: action }).click();
  };

  await step('an edit the agent makes on disk by itself shows "1 file changed" with its lines', async () => {
    // The first turn's card also means the folder has been read by the checkpoints.
    await send('save file ckpt-e2e/warm-up.txt with w', 'Saved');
    const card = await send('edit file ckpt-e2e/edit.txt replacing "old line" with "new line"', 'Edited');
    const text = await card.innerText();
    if (!/1 file changed/.test(text) || !/\+1 −1/.test(text) || !/edit\.txt/.test(text)) throw new Error(`card: ${text}`);
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-checkpoints-card.png') });
  });

  await step('Revert on the card puts the file back on disk and the card says so', async () => {
    const card = cards().nth(1);
    await fileAction(card, 'edit.txt', 'Revert');
    await within20s('the file back', () => fs.readFileSync(path.join(dir, 'edit.txt'), 'utf8') === 'old line\n');
    await waitForText(card, 'Reverted');
  });

  await step('Keep, a click on a file (its diff) and Review changes (all files in one view)', async () => {
    const card = await send('save file ckpt-e2e/made.txt with made by the agent', 'Saved');
    await fileAction(card, 'made.txt', 'Keep');
    await waitForText(card, 'Kept');
    if (!fs.existsSync(path.join(dir, 'made.txt'))) throw new Error('Keep removed the file');
    await fileOf(card, 'made.txt').locator('.mynah-chat-item-tree-view-file-item-title').click();
    await page.locator('.tabs-container .tab', { hasText: 'before the turn' }).first().waitFor();
    await card.locator('button', { hasText: 'Review changes' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'Changes of the turn' }).first().waitFor();
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-checkpoints-review.png') });
  });

  await step('Restore checkpoint on the first prompt asks first (the files listed), then puts every file back', async () => {
    const prompt = wrapperOf(f, mid).locator('[data-testid="chat-item-prompt"]', { hasText: 'save file ckpt-e2e/warm-up.txt' }).first();
    await prompt.locator('button', { hasText: 'Restore checkpoint' }).click();
    const dialog = page.locator('.monaco-dialog-box');
    await waitForText(dialog, 'Restore 2 files to how they were before this prompt?');
    await waitForText(dialog, 'made.txt: removed (added since)');
    await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-checkpoints-restore.png') });
    await dialog.locator('.monaco-button', { hasText: 'Restore' }).first().click();
    await within20s(
      'the files restored',
      () => !fs.existsSync(path.join(dir, 'made.txt')) && !fs.existsSync(path.join(dir, 'warm-up.txt')),
    );
    await waitForText(wrapperOf(f, mid), 'Restored 2 files to how they were before this prompt');
    if (fs.readFileSync(path.join(dir, 'edit.txt'), 'utf8') !== 'old line\n') throw new Error('edit.txt changed');
  });

  await step(
    'Edit and resend: the prompt back in the input, edited and sent; the files restored first (asked), then a new session, said so',
    async () => {
      const prompt = wrapperOf(f, mid).locator('[data-testid="chat-item-prompt"]', { hasText: 'save file ckpt-e2e/made.txt' }).first();
      await prompt.locator('button', { hasText: 'Edit and resend' }).click();
      await within20s('the prompt in the input', async () => (await inputOf(f, mid).innerText()).includes('made by the agent'));
      await inputOf(f, mid).fill('save file ckpt-e2e/made.txt with edited and resent');
      await inputOf(f, mid).press('Enter');
      const dialog = page.locator('.monaco-dialog-box');
      await waitForText(dialog, 'warm-up.txt: brought back');
      await dialog.locator('.monaco-button', { hasText: 'Restore' }).first().click();
      await waitForText(wrapperOf(f, mid), 'A new session: the agent does not remember the turns after this point');
      await within20s('the resent prompt ran', () => fs.existsSync(path.join(dir, 'made.txt')));
      if (fs.readFileSync(path.join(dir, 'made.txt'), 'utf8') !== 'edited and resent') throw new Error('made.txt is not the edited prompt');
      if (!fs.existsSync(path.join(dir, 'warm-up.txt'))) throw new Error('warm-up.txt was not brought back');
      await page.screenshot({ path: path.join(RESULTS_DIR, 'e2e-checkpoints-resend.png') });
    },
  );
} catch {
  exitCode = 1;
}
writeResults('e2e-checkpoints', results);
console.log(`checkpoints e2e: ${results.passes.length} passed, ${results.failures.length} failed`);
await ctx.close().catch(() => {});
process.exit(exitCode || (results.failures.length ? 1 : 0));
