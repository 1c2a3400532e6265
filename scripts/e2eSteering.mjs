// Browser steps for input to a running turn (run by webview-e2e.mjs): with an agent that steers
// (ElizACP --steering: defined before the window opens, chosen for these steps only), a prompt typed while the
// agent works is queued and its card offers "Send now (steer)"; clicking it puts the prompt into
// the running turn, where it shows as the user's message and the agent answers it in that turn.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from './browser.mjs';
import { answersOf, inputOf, selectedTab, waitForText, wrapperOf } from './chatPage.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AGENT = 'Eliza steering';

/**
 * Before the window opens: the agent, in the settings a remote window (code-server is one) reads
 * `symposium.agents` from, `<user data>/Machine/settings.json`. New chats keep using ElizACP.
 */
export function defineSteeringAgent(runDir) {
  const machineSettings = path.join(runDir, 'ud', 'Machine', 'settings.json');
  fs.mkdirSync(path.dirname(machineSettings), { recursive: true });
  const agent = { command: process.execPath, args: [path.join(ROOT, 'out', 'conductor.js'), 'eliza', '--deterministic', '--steering'] };
  fs.writeFileSync(machineSettings, JSON.stringify({ 'symposium.agents': { [AGENT]: agent } }));
}

/** Symposium: Choose Agent… from the command palette, then the agent's entry. */
async function chooseAgent(page, name) {
  await page.locator('.part.editor').click({ position: { x: 50, y: 50 } });
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('>Symposium: Choose Agent');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Choose Agent' }).first().click();
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await row.waitFor();
  await row.click();
  await waitForText(page.locator('.part.sidebar .title-label, .part.sidebar .pane-header .title'), `Chat · ${name}`, 20_000);
}

/** Runs the steps in a new tab of the chat frame `f`, then chooses ElizACP and selects `back` again. */
export async function steeringSteps({ page, f, back, step, shot }) {
  try {
    await step(
      'an agent that steers: a prompt queued during a turn goes into it with "Send now (steer)", shown as your message there',
      async () => {
        await chooseAgent(page, AGENT);
        await f.locator('[data-testid="tab-bar-tab-add-button"]').click();
        let tab;
        for (let i = 0; i < 50 && ((tab = await selectedTab(f)) === back || !tab); i++) await sleep(100);
        if (!tab || tab === back) throw new Error('no new tab selected');
        const send = async (text) => {
          await inputOf(f, tab).click();
          await page.keyboard.type(text);
          await page.keyboard.press('Enter');
        };
        await send('tell me a long story');
        await waitForText(answersOf(f, tab), 'Once');
        await send('make it shorter');
        const steer = wrapperOf(f, tab).locator('button', { hasText: 'Send now (steer)' }).first();
        await steer.waitFor();
        await shot('queued-steer');
        await steer.click();
        await waitForText(answersOf(f, tab), 'You said while I was working: "make it shorter".', 20_000);
        const prompts = await wrapperOf(f, tab).locator('[data-testid="chat-item-prompt"]').allInnerTexts();
        if (!prompts.some((p) => p.includes('make it shorter')))
          throw new Error(`the steered prompt is not shown: ${JSON.stringify(prompts)}`);
        if ((await steer.count()) > 0 && (await steer.isVisible())) throw new Error('the queued card is still there');
        await shot('steered');
      },
    );
  } finally {
    await chooseAgent(page, 'ElizACP').catch(() => {});
    await f
      .locator(`label[for="mynah-main-tabs-${back}"]`)
      .click({ force: true })
      .catch(() => {});
  }
}
