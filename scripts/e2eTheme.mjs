// Browser steps for the chat following VS Code's colour theme live (run by webview-e2e.mjs): the
// theme is picked as a user does (F1 → Preferences: Color Theme), and the chat's body takes the
// dark, light and high-contrast colours.
import { sleep } from './browser.mjs';
import { animationsDone } from './chatPage.mjs';

/** Picks a color theme the way a user does: F1 → "Preferences: Color Theme" → theme name. */
async function setTheme(page, theme) {
  await page.locator('.part.editor').click({ position: { x: 50, y: 50 } });
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.fill('>Preferences: Color Theme');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click();
  await input.fill(theme);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: theme }).first().click();
}
const bodyColors = (f) =>
  f.evaluate(() => {
    const s = getComputedStyle(document.body);
    return { bg: s.backgroundColor, fg: s.color, classes: document.body.className };
  });

/** Runs the steps on the chat frame `f`. */
export async function themeSteps({ page, f, step, shot }) {
  await step('follows the VS Code theme: dark, light and high contrast', async () => {
    const dark = await bodyColors(f);
    if (!/vscode-dark/.test(dark.classes)) throw new Error(`expected a dark theme body, got ${dark.classes}`);
    await shot('theme-dark');
    await setTheme(page, 'Light Modern');
    let light;
    for (let i = 0; i < 50; i++) {
      light = await bodyColors(f);
      if (/vscode-light/.test(light.classes)) break;
      await sleep(100);
    }
    if (!/vscode-light/.test(light.classes) || light.bg === dark.bg) throw new Error(`light theme not applied: ${JSON.stringify(light)}`);
    await animationsDone(f);
    await shot('theme-light');
    await setTheme(page, 'Dark High Contrast');
    let hc;
    for (let i = 0; i < 100; i++) {
      hc = await bodyColors(f);
      if (/vscode-high-contrast/.test(hc.classes)) break;
      await sleep(100);
    }
    if (!/vscode-high-contrast/.test(hc.classes)) throw new Error(`high contrast not applied: ${JSON.stringify(hc)}`);
    await animationsDone(f);
    await shot('theme-high-contrast');
  });
}
