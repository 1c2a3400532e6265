// Real-browser test of the chat webview (Playwright + Debian chromium + code-server), run through
// scripts/vscode-host-run.sh. Opens the Symposium sidebar, talks to ElizACP through the mynah-ui
// prompt (checks Sparkle's collapsed embodiment section), opens a second tab, collapses and reopens
// the sidebar mid-stream (the webview is torn down and rebuilt from its saved state), checks the
// draft and the streamed answer survived, reopens a closed chat from Chat History, and follows
// the light and high-contrast themes. Writes
// test-results/e2e.json ({passes, failures}) and screenshots test-results/e2e-*.png. Exit code 0
// when every step passed.
import fs from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { openWorkbench, writeResults, RESULTS_DIR, sleep, requiredEnv, newResults } from './browser.mjs';
import {
  animationsDone,
  answersOf,
  chatFrame as frameOf,
  chatHistoryButton,
  chatPaintsDuring,
  inputOf,
  selectedTab,
  stepsInto,
  waitForText,
  wrapperOf,
} from './chatPage.mjs';

const { respond } = await tsImport('../conductor/eliza/engine.ts', import.meta.url);
import { measureChatPace } from './chatPace.mjs';
import { contextSteps } from './e2eContext.mjs';
import { themeSteps } from './e2eTheme.mjs';
import { stableSchemaSteps } from './e2eStableSchema.mjs';
import { defineSteeringAgent, steeringSteps } from './e2eSteering.mjs';
const { STORY } = await tsImport('../conductor/eliza/demos.ts', import.meta.url);
const expected = (prompt) => respond(prompt, { deterministic: true });
const story = STORY.join('');

fs.mkdirSync(RESULTS_DIR, { recursive: true });
const runDir = requiredEnv('VSCODE_HOST_RUN_DIR');
const results = newResults();
defineSteeringAgent(runDir);
const { ctx, page } = await openWorkbench({ log: false });
page.setDefaultTimeout(20_000);
// Any CSP violation in the webview (or the workbench) shows up on the console.
const cspViolations = [];
page.on('console', (m) => {
  if (/Content Security Policy|Refused to (load|execute|apply)/i.test(m.text())) cspViolations.push(m.text());
});
const shot = (name) => page.screenshot({ path: path.join(RESULTS_DIR, `e2e-${name}.png`) });

const step = stepsInto(results, () => shot('failure'));
const chatFrame = () => frameOf(page, 200);
/** The answer cards of a tab, without the cards a collapsible summary nests inside its own. */
const topLevelAnswers = (f, mid) =>
  wrapperOf(f, mid).evaluate((w) =>
    [...w.querySelectorAll('[data-testid="chat-item-answer"], [data-testid="chat-item-answer-stream"]')]
      .filter((e) => !e.parentElement?.closest('[data-testid^="chat-item-answer"]'))
      .map((e) => e.textContent ?? ''),
  );
const occurrences = (hay, needle) => hay.split(needle).length - 1;
const activityItem = () => page.locator('.activitybar [aria-label^="Symposium"]').first();
let exitCode = 0;
try {
  let f, tab1, tab2;
  const hello = 'Hello, I feel happy today';
  await step('the Symposium activity-bar entry opens the chat sidebar', async () => {
    await activityItem().waitFor({ timeout: 60_000 });
    await activityItem().click();
    f = await chatFrame();
    tab1 = await selectedTab(f);
    await inputOf(f, tab1).waitFor();
  });

  await step('typing into the mynah-ui prompt shows the exact ElizACP reply', async () => {
    await inputOf(f, tab1).click();
    await page.keyboard.type(hello);
    await page.keyboard.press('Enter');
    await waitForText(wrapperOf(f, tab1).locator('[data-testid="chat-item-prompt"]'), hello);
    const text = await waitForText(answersOf(f, tab1), expected(hello));
    if (occurrences(text, expected(hello)) !== 1) throw new Error('reply shown more than once');
    // The first prompt titles the tab.
    const labels = () => f.locator('[data-testid="tab-bar-tabs-option-label"]').allInnerTexts();
    for (let i = 0; i < 50 && !(await labels()).some((l) => l.includes(hello)); i++) await sleep(100);
    if (!(await labels()).some((l) => l.includes(hello)))
      throw new Error(`the tab is not titled by its prompt: ${JSON.stringify(await labels())}`);
    await shot('conversation');
  });

  await step("Sparkle's embodiment is one collapsed section before the reply; opened, it shows the agent's answer to it", async () => {
    const answers = await answersOf(f, tab1).allInnerTexts();
    const at = answers.findIndex((t) => t.includes('Sparkle embodiment'));
    const replyAt = answers.findIndex((t) => t.includes(expected(hello)));
    if (at < 0 || replyAt < 0 || at > replyAt) throw new Error(`expected the section before the reply: ${JSON.stringify(answers)}`);
    if (answers[at].includes('Embodiment received.')) throw new Error('the section is not collapsed');
    if (answers[replyAt].includes('Embodiment received.')) throw new Error('the embodiment leaked into the reply');
    const card = answersOf(f, tab1).nth(at);
    await shot('sparkle-embodiment-collapsed');
    await card.locator('.mynah-chat-item-summary-button').first().click();
    await waitForText(card, 'Embodiment received.');
    await shot('sparkle-embodiment');
    await card.locator('.mynah-chat-item-summary-button').first().click(); // folded again for the steps after
  });

  await step('a second tab has its own conversation', async () => {
    await f.locator('[data-testid="tab-bar-tab-add-button"]').click();
    await page.waitForFunction(() => true);
    for (let i = 0; i < 50 && (tab2 = await selectedTab(f)) === tab1; i++) await sleep(100);
    if (!tab2 || tab2 === tab1) throw new Error('no new tab selected');
    // A user who reads before typing: Sparkle's embodiment ends before the first prompt. Its section
    // must stay on screen once the prompt and the reply come after it.
    const embodied = answersOf(f, tab2).filter({ hasText: 'Sparkle embodiment' });
    await embodied.first().waitFor({ timeout: 20_000 });
    const sections = () => topLevelAnswers(f, tab2).then((texts) => texts.filter((t) => t.includes('Sparkle embodiment')).length);
    for (let i = 0; i < 200 && (await embodied.first().innerText()).includes('in progress'); i++) await sleep(100);
    if ((await sections()) !== 1) throw new Error('no embodiment section before the first prompt');
    await inputOf(f, tab2).click();
    await page.keyboard.type('tell me a long story');
    await page.keyboard.press('Enter');
    await waitForText(answersOf(f, tab2), STORY[0]);
    if ((await sections()) !== 1)
      throw new Error(
        `the embodiment section left the screen when the first prompt came after it: ${JSON.stringify(await topLevelAnswers(f, tab2))}`,
      );
    if ((await answersOf(f, tab2).allInnerTexts()).join('').includes(expected(hello))) throw new Error('tab 1 reply leaked into tab 2');
  });

  const draft = 'an unsent draft that must survive';
  await step('collapsing and reopening the sidebar mid-stream keeps tabs, draft and every chunk', async () => {
    await inputOf(f, tab2).click();
    await page.keyboard.type(draft);
    await shot('before-collapse');
    await f.evaluate(() => {
      window.__symposiumMarker = 'old page';
    });
    await activityItem().click(); // active container's icon: collapses the sidebar
    await page.waitForFunction(
      () =>
        ((sidebar) => !sidebar || getComputedStyle(sidebar).display === 'none' || sidebar.offsetWidth === 0)(
          /** @type {HTMLElement | null} */ (document.querySelector('.part.sidebar')),
        ),
      undefined,
      { timeout: 10_000 },
    );
    await sleep(1_500); // the story keeps streaming into the host's buffer
    await activityItem().click();
    f = await chatFrame();
    if (await f.evaluate(() => window.__symposiumMarker).catch(() => undefined))
      throw new Error('the webview page was not re-created; this step would not test restoring');
    const tabCount = await f.locator('[data-testid="tab-bar-tabs-option"]').count();
    if (tabCount < 2) throw new Error(`expected both tabs after reopening, found ${tabCount}`);
    const sel = await selectedTab(f);
    if (sel !== tab2) throw new Error(`selected tab changed: ${sel} vs ${tab2}`);
    const restoredDraft = await inputOf(f, tab2).innerText();
    if (restoredDraft.trim() !== draft) throw new Error(`draft not restored: ${JSON.stringify(restoredDraft)}`);
    const text = await waitForText(answersOf(f, tab2), story.slice(-40), 20_000);
    if (!text.replace(/\s+/g, ' ').includes(story.replace(/\s+/g, ' '))) throw new Error('the story is not complete and in order');
    for (const fragment of [STORY[3], STORY[20], STORY[37]])
      if (occurrences(text, fragment) !== 1) throw new Error(`fragment repeated or missing: ${fragment}`);
    await shot('after-reopen');
  });

  await step('the first tab still shows its conversation after the webview was rebuilt', async () => {
    await f.locator('[data-testid="tab-bar-tabs-option-label"]').first().click();
    const text = await waitForText(answersOf(f, tab1), expected(hello));
    if (occurrences(text, expected(hello)) !== 1) throw new Error('reply duplicated after restore');
  });

  await step('the Stop button cancels a streaming reply', async () => {
    await inputOf(f, tab1).click();
    await page.keyboard.type('tell me a long story');
    await page.keyboard.press('Enter');
    await waitForText(answersOf(f, tab1), STORY[1]);
    await wrapperOf(f, tab1).locator('.mynah-chat-prompt-stop-button').click();
    const text = await waitForText(answersOf(f, tab1), 'Stopped.');
    if (text.includes(STORY[STORY.length - 1])) throw new Error('the story was not stopped');
  });

  await step('a prompt sent while the agent works waits in a card above the input; Edit takes it back into the input, unsent', async () => {
    const stops = occurrences((await answersOf(f, tab1).allInnerTexts()).join('\n'), 'Stopped.');
    await inputOf(f, tab1).click();
    await page.keyboard.type('tell me a long story');
    await page.keyboard.press('Enter');
    await waitForText(answersOf(f, tab1), STORY[1]);
    const queued = 'a prompt typed while the story streams';
    await inputOf(f, tab1).click();
    await page.keyboard.type(queued);
    await page.keyboard.press('Enter');
    const card = wrapperOf(f, tab1).locator('.mynah-chat-prompt-input-sticky-card');
    await waitForText(card, queued);
    if ((await inputOf(f, tab1).innerText()).includes(queued)) throw new Error('the queued prompt is still in the input');
    await shot('queued-prompt');
    await card.locator('button', { hasText: 'Edit' }).click();
    let input = '';
    for (let i = 0; i < 50 && !(input = await inputOf(f, tab1).innerText()).includes(queued); i++) await sleep(100);
    if (!input.includes(queued)) throw new Error(`the withdrawn prompt is not back in the input: ${JSON.stringify(input)}`);
    for (let i = 0; i < 50 && (await card.innerText().catch(() => '')).includes(queued); i++) await sleep(100);
    if ((await card.innerText().catch(() => '')).includes(queued)) throw new Error('the queued card stayed');
    await wrapperOf(f, tab1).locator('.mynah-chat-prompt-stop-button').click();
    for (let i = 0; i < 100 && occurrences((await answersOf(f, tab1).allInnerTexts()).join('\n'), 'Stopped.') === stops; i++)
      await sleep(100);
    await sleep(1000); // time for a wrongly queued prompt to start
    const prompts = await wrapperOf(f, tab1).locator('[data-testid="chat-item-prompt"]').allInnerTexts();
    if (prompts.some((p) => p.includes(queued))) throw new Error('the withdrawn prompt was sent');
    if (!(await inputOf(f, tab1).innerText()).includes(queued)) throw new Error('the input lost the withdrawn prompt');
    await inputOf(f, tab1).click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
  });

  await step('an agent crash shows the reason and a Restart button that brings the tab back', async () => {
    await inputOf(f, tab1).click();
    await page.keyboard.type('crash');
    await page.keyboard.press('Enter');
    const card = await waitForText(answersOf(f, tab1), 'Restart agent');
    if (!/stopped/.test(card) || !/code \d+/.test(card)) throw new Error(`no exit reason shown: ${card.slice(-300)}`);
    await shot('crash');
    await wrapperOf(f, tab1).locator('button', { hasText: 'Restart agent' }).last().click();
    await waitForText(answersOf(f, tab1), 'fresh session');
    // Clicking a card button must not shift mynah's layout (containers scrolled by focus).
    const shifted = await f.evaluate(
      () =>
        [document.querySelector('#mynah-wrapper'), ...document.querySelectorAll('.mynah-chat-wrapper')].filter((e) => e && e.scrollTop > 0)
          .length,
    );
    if (shifted) throw new Error('the chat layout was scrolled out of place');
    await inputOf(f, tab1).click();
    await page.keyboard.type('Are you there?');
    await page.keyboard.press('Enter');
    await waitForText(answersOf(f, tab1), expected('Are you there?'));
  });

  await step('Approve on a real approval card lets the tool call complete', async () => {
    await inputOf(f, tab1).click();
    await page.keyboard.type('request permission for deploy the app');
    await page.keyboard.press('Enter');
    await waitForText(answersOf(f, tab1), 'Permission needed');
    const allow = wrapperOf(f, tab1).locator('button', { hasText: 'Allow once' }).last();
    await allow.waitFor();
    // The turn waits for the user, and the prompt's info line says so (not "Working…").
    await waitForText(wrapperOf(f, tab1).locator('.mynah-chat-prompt-input-info'), 'Waiting for your answer above', 5_000);
    await shot('approval-card');
    await allow.click();
    const text = await waitForText(answersOf(f, tab1), 'Permission outcome: selected allow-once');
    if (!/Allowed: Allow once, by you/.test(text)) throw new Error('the card does not show the decision');
    await waitForText(answersOf(f, tab1), 'Completed');
    if (await wrapperOf(f, tab1).locator('button', { hasText: 'Allow once' }).count())
      throw new Error('the buttons are still there after the decision');
    await shot('approval-decided');
  });

  await stableSchemaSteps({ page, f, tab: tab1, step, shot });
  await steeringSteps({ page, f, back: tab1, step, shot });

  await step('raw HTML from the agent (here its error message) shows as text, and nothing of it reaches the page', async () => {
    const evil = '<img src="data:," id="symposium-injected" style="position:fixed;inset:0;width:100%;height:100%">';
    const hide = '<style>.mynah-chat-item-buttons{display:none}</style>';
    await inputOf(f, tab1).click();
    await page.keyboard.type(`fail this prompt with ${hide} ${evil}`);
    await page.keyboard.press('Enter');
    await waitForText(answersOf(f, tab1), 'id="symposium-injected"');
    await waitForText(answersOf(f, tab1), hide);
    const injected = await f.evaluate(() => document.querySelectorAll('#symposium-injected, .mynah-chat-item-card style').length);
    if (injected) throw new Error(`${injected} element(s) of the agent's HTML are on the page`);
  });

  await step("a file link in an agent's answer opens the file in the editor; a vscode: link is not followed", async () => {
    await inputOf(f, tab1).click();
    await page.keyboard.type(
      'fail this prompt with see [the parser](ts-project/src/parser.ts#L4) and [a handler](vscode://file/etc/hostname)',
    );
    await page.keyboard.press('Enter');
    await waitForText(answersOf(f, tab1), 'a handler');
    const link = (label) => wrapperOf(f, tab1).locator('a', { hasText: label }).last();
    const editorTab = (name) => page.locator('.editor-group-container .tab', { hasText: name });
    await link('the parser').click();
    await editorTab('parser.ts').first().waitFor({ timeout: 15_000 });
    await link('a handler').click();
    await sleep(1500);
    if (await editorTab('hostname').count()) throw new Error('the vscode: link opened /etc/hostname');
    if (await page.locator('.monaco-dialog-box').count()) throw new Error('the vscode: link reached VS Code (a dialog is open)');
    await shot('file-link-opened');
  });

  await step("a tool card's Open diff opens VS Code's diff editor", async () => {
    await inputOf(f, tab1).click();
    await page.keyboard.type('demo tool call');
    await page.keyboard.press('Enter');
    await waitForText(answersOf(f, tab1), 'I pretended to edit');
    await wrapperOf(f, tab1).locator('button', { hasText: 'Open diff: eliza-demo.ts' }).last().click();
    await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 15_000 });
    await page.locator('.tab', { hasText: 'eliza-demo.ts' }).first().waitFor();
    // The diff editor draws its sides after it appears: wait for the new side's text.
    let modified = '';
    for (let i = 0; i < 50 && !/hello, world/.test(modified); i++) {
      modified = (await page.locator('.monaco-diff-editor .editor.modified .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
      if (!/hello, world/.test(modified)) await sleep(200);
    }
    if (!/hello, world/.test(modified)) throw new Error(`the diff's new side lacks the edit: ${modified.slice(0, 200)}`);
    await shot('diff');
    await sleep(300);
    if (!(await wrapperOf(f, tab1).locator('button', { hasText: 'Open diff: eliza-demo.ts' }).last().isEnabled()))
      throw new Error('Open diff cannot be clicked again');
    await page.keyboard.press('Control+K');
    await page.keyboard.press('W'); // close the editors again
  });

  await contextSteps({ page, f, tab: tab1, step, shot, runDir });
  await step("the status bar shows the agent's state", async () => {
    const item = page.locator('.statusbar-item', { hasText: 'ElizACP:' }).first();
    await waitForText(item, 'ElizACP: ready');
    await page.locator('.part.statusbar').screenshot({ path: path.join(RESULTS_DIR, 'e2e-status-bar.png') });
  });

  await step(
    'a closed chat is in Chat History; reopened, it says the agent cannot continue it, and "Continue in a new session" carries the transcript',
    async () => {
      const words = 'My notebook remembers everything';
      const before = await selectedTab(f);
      await f.locator('[data-testid="tab-bar-tab-add-button"]').click();
      let tab3;
      for (let i = 0; i < 50 && (tab3 = await selectedTab(f)) === before; i++) await sleep(100);
      await inputOf(f, tab3).click();
      await page.keyboard.type(words);
      await page.keyboard.press('Enter');
      await waitForText(answersOf(f, tab3), expected(words));
      // mynah's tab is a radio input (value = the mynah tab id) with its label and close button beside it.
      const close = f.locator(`label[for="mynah-main-tabs-${tab3}"] .mynah-tabs-close-button`);
      await close.click({ force: true });
      const confirm = f.locator('[data-testid="tab-bar-tab-close-confirmation-accept-button"]');
      if (await confirm.isVisible().catch(() => false)) await confirm.click();
      // The History button in the chat's title bar.
      await chatHistoryButton(page).click();
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: words }).first();
      await row.waitFor({ timeout: 20_000 });
      await shot('history-view');
      await row.click();
      const reopened = await waitForText(f.locator('.mynah-chat-wrapper:not([hidden])'), 'cannot continue old sessions');
      if (!reopened.includes(words)) throw new Error(`the transcript is not shown: ${reopened.slice(-300)}`);
      const tab4 = await selectedTab(f);
      await animationsDone(f);
      await shot('history-reopened');
      await wrapperOf(f, tab4).locator('button', { hasText: 'Continue in a new session' }).last().click();
      await waitForText(answersOf(f, tab4), 'does not remember this conversation');
      await inputOf(f, tab4).click();
      await page.keyboard.type('what did i attach');
      await page.keyboard.press('Enter');
      await waitForText(answersOf(f, tab4), 'resource symposium-history:/');
      // The tab's own menu (next to the tabs): Export to Markdown opens the conversation in an editor.
      await f.locator('[data-testid="tab-bar-button"], [data-testid="tab-bar-menu-button"]').last().click();
      await f.locator('[data-testid="tab-bar-menu-option"]', { hasText: 'Export to Markdown' }).first().click();
      // (Monaco draws spaces as no-break spaces: look for text without any.)
      await waitForText(page.locator('.part.editor .view-lines').first(), 'symposium-history:/');
      await shot('history-export');
      await page.keyboard.press('Control+K');
      await page.keyboard.press('W'); // close the editors again; the export is an unsaved document
      const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ }).first();
      await dontSave.waitFor({ timeout: 5_000 }).catch(() => {});
      if (await dontSave.isVisible().catch(() => false)) await dontSave.click();
    },
  );

  await step(
    'the chat keeps pace: send → first chunk over 20 prompts, a 5000-chunk reply (figures in test-results/bench/ui.json)',
    async () => {
      // Recorded for the bench, not asserted: timings are not pass/fail here.
      const ui = await measureChatPace(page, f, await selectedTab(f)); // the tab on screen (earlier steps opened others)
      fs.mkdirSync(path.join(RESULTS_DIR, 'bench'), { recursive: true });
      fs.writeFileSync(path.join(RESULTS_DIR, 'bench', 'ui.json'), JSON.stringify(ui, null, 2));
      console.log(`    ui: ${JSON.stringify(ui)}`);
    },
  );

  await step('once every turn is over, nothing on the page keeps animating (a shimmer left on would redraw the page forever)', async () => {
    // Every step above ran its turns to the end (replies, Stop, a crash, approvals, tools, plans).
    const running = await f.evaluate(() =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running')
        .map(
          (a) =>
            `${a instanceof CSSAnimation ? a.animationName : a.constructor.name} on ${(a.effect instanceof KeyframeEffect && a.effect.target?.className) || '?'}`,
        ),
    );
    if (running.length) throw new Error(`animations still running: ${JSON.stringify([...new Set(running)])}`);
    // Nor anything getAnimations() cannot see: the idle chat is not drawn again and again (a caret
    // blinking in the prompt is a few paints a second; an animation, one per frame).
    const paints = await chatPaintsDuring(page, 2_000);
    if (paints.length > 12)
      throw new Error(`the idle chat was painted ${paints.length} times in 2 s: ${JSON.stringify([...new Set(paints)].slice(0, 5))}`);
  });

  await step('no Content Security Policy violations', async () => {
    if (cspViolations.length) throw new Error(cspViolations.join('\n'));
  });

  await themeSteps({ page, f, step, shot });
} catch {
  exitCode = 1;
}
writeResults('e2e', results);
console.log(`e2e: ${results.passes.length} passed, ${results.failures.length} failed`);
await ctx.close().catch(() => {});
process.exit(exitCode);
