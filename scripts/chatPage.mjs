// What the real-browser drivers (webview-e2e.mjs, history-e2e.mjs, chat-bench.mjs) share: opening
// the chat and finding its webview's frame in the workbench, the mynah-ui elements of a tab,
// waiting for text, and running named steps into a results object ({passes, failures}) that
// browser.mjs writes.
import { sleep } from './browser.mjs';

/**
 * The chat webview's inner frame (VS Code nests it: iframe.webview → #active-frame). After a window
 * reload on a loaded machine the workbench can take over half a minute to restore the view.
 */
export async function chatFrame(page, tries = 600) {
  for (let i = 0; i < tries; i++) {
    for (const f of page.frames()) {
      if (
        await f
          .locator('#mynah-root .mynah-chat-wrapper')
          .count()
          .catch(() => 0)
      )
        return f;
    }
    await sleep(100);
  }
  throw new Error(`chat webview not found after ${tries / 10} s`);
}

/** The "Chat History" action in the Symposium view's title: there only while the view is shown. */
export const chatHistoryButton = (page) =>
  page.locator('.pane-header .action-label[aria-label^="Chat History"], .title-actions .action-label[aria-label^="Chat History"]').first();

/**
 * Opens the Symposium sidebar of a window (unless it is open already); returns the chat frame.
 * After a reload the workbench restores the view a while after its activity bar item appears, and
 * a click on the item of the view shown hides it: so the item is clicked only while it is not the
 * selected one, and again until the view's title is there.
 */
export async function openChat(page) {
  const item = page.locator('.activitybar [aria-label^="Symposium"]').first();
  await item.waitFor({ timeout: 90_000 });
  const end = Date.now() + 90_000;
  while (!(await chatHistoryButton(page).isVisible())) {
    if (Date.now() > end) throw new Error('the Symposium view did not open in 90 s');
    const selected = (await item.getAttribute('aria-selected')) === 'true' || (await item.getAttribute('aria-pressed')) === 'true';
    if (!selected) await item.click();
    await chatHistoryButton(page)
      .waitFor({ timeout: 3_000 })
      .catch(() => {});
  }
  return chatFrame(page);
}

export const selectedTab = async (f) => f.locator('[selected-tab]').first().getAttribute('selected-tab');
export const wrapperOf = (f, mid) => f.locator(`.mynah-chat-wrapper[mynah-tab-id="${mid}"]`);
export const inputOf = (f, mid) => wrapperOf(f, mid).locator('[data-testid="prompt-input-textarea"]');
export const answersOf = (f, mid) => wrapperOf(f, mid).locator('[data-testid="chat-item-answer"], [data-testid="chat-item-answer-stream"]');

/** Resolves with the locator's text once it contains `text`. */
export async function waitForText(locator, text, timeout = 30_000) {
  const end = Date.now() + timeout;
  let last = '';
  while (Date.now() < end) {
    last = (await locator.allInnerTexts().catch(() => [])).join('\n');
    if (last.includes(text)) return last;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${JSON.stringify(text.slice(0, 60))}…; saw ${JSON.stringify(last.slice(-300))}`);
}

/** A step runner: each step's outcome goes into `results`; a failure calls `onFailure` (screenshots) and rethrows. */
/** Resolves once `fn()` is true; throws `what` after `timeout` ms. */
export async function until(what, fn, timeout = 30_000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    if (await fn()) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** @param {import('./browser.mjs').Results} results */
export function stepsInto(results, onFailure) {
  return async function step(title, fn) {
    const t0 = Date.now();
    try {
      await fn();
      results.passes.push(title);
      console.log(`  ✔ ${title} (${Date.now() - t0} ms)`);
    } catch (/** @type {any} */ e) {
      results.failures.push({ title, err: e?.stack ?? String(e) });
      console.log(
        `  ✘ ${title}\n    ${String(e?.message ?? e)
          .split('\n')
          .join('\n    ')}`,
      );
      await onFailure().catch(() => {});
      throw e;
    }
  };
}

/**
 * How many times chromium painted the chat webview's frames during `ms` (a trace of the page). An
 * idle chat should not be drawn at all; an animation that getAnimations() cannot see (an SVG that
 * animates itself, kept at opacity 0) shows up here as a paint per frame.
 * @param {import('playwright-core').Page} page
 */
export async function chatPaintsDuring(page, ms) {
  const cdp = await page.context().newCDPSession(page);
  /** @type {any[]} */
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  await sleep(ms);
  await cdp.send('Tracing.end');
  await complete;
  // VS Code's webview frames: pre/index.html and, inside it, pre/fake.html holding the chat.
  const chatFrames = new Set();
  /** @param {any} node */
  const visit = (node) => {
    if (String(node.frame.url).includes('/webview/browser/pre/')) chatFrames.add(node.frame.id);
    for (const child of node.childFrames ?? []) visit(child);
  };
  visit((await cdp.send('Page.getFrameTree')).frameTree);
  await cdp.detach();
  const paints = events.filter((e) => e.name === 'Paint' || e.name === 'PaintImage');
  return paints.filter((e) => chatFrames.has(e.args?.data?.frame)).map((e) => String(e.args?.data?.nodeName ?? '?'));
}

/**
 * Resolves once nothing animates in the page or frame (mynah-ui fades cards in and eases colour
 * changes): what a screenshot waits for, instead of a guessed pause.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} where
 */
export async function animationsDone(where, timeoutMs = 5_000) {
  await where.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: timeoutMs });
}
