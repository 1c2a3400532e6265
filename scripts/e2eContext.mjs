// Browser steps for what a prompt carries besides its words (run by webview-e2e.mjs): the agent's
// slash commands in the / menu; a file attached with @; an OpenCtx provider's mentions in the @ menu,
// listed and searched; pasted and dropped images as chips that reach the agent as image blocks, and
// an oversize one refused. ElizACP's "what did i attach" reply names what reached it.
import fs from 'node:fs';
import path from 'node:path';
import { animationsDone, answersOf, inputOf, waitForText, wrapperOf } from './chatPage.mjs';

/** Runs the steps in tab `tab` of the chat frame `f`; `runDir` holds the workspace (ws/). */
export async function contextSteps({ page, f, tab, step, shot, runDir }) {
  await step("the agent's slash commands are in the / menu; choosing /plan runs it", async () => {
    await inputOf(f, tab).click();
    await page.keyboard.type('/');
    const item = f.locator('[data-testid="prompt-input-quick-pick-item"]', { hasText: '/plan' }).first();
    await item.waitFor();
    await shot('slash-menu');
    await item.click();
    await waitForText(answersOf(f, tab), 'All three steps of the plan are completed.');
    await waitForText(answersOf(f, tab), '3/3 done');
  });

  await step('attaching a file with @ sends it to the agent, whose reply refers to it', async () => {
    await inputOf(f, tab).click();
    await page.keyboard.type('what did i attach ');
    await page.keyboard.type('@');
    const pick = (text) => f.locator('[data-testid="prompt-input-quick-pick-item"]', { hasText: text }).first();
    await pick('file').waitFor();
    await shot('context-menu');
    await pick('file').click();
    await pick('hello.txt').waitFor();
    await pick('hello.txt').click();
    await page.keyboard.press('Enter');
    // The reply streams in chunks: wait for its end, not its first line.
    const text = await waitForText(answersOf(f, tab), '/hello.txt');
    if (!/resource file:\/\/\S*\/hello\.txt/.test(text)) throw new Error(`the reply does not name hello.txt: ${text.slice(-300)}`);
    await waitForText(wrapperOf(f, tab).locator('[data-testid="chat-item-prompt"]'), 'hello.txt');
    await shot('context-attached');
  });

  await step("an OpenCtx provider's mentions are in the @ menu; a picked one reaches the agent as a resource", async () => {
    // The sample provider of test-fixtures/workspace/openctx, configured as a user would (docs/openctx.md).
    fs.mkdirSync(path.join(runDir, 'ws', '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(runDir, 'ws', '.vscode', 'settings.json'),
      JSON.stringify({ 'openctx.providers': { './openctx/sample-provider.mjs': {} } }),
    );
    const pick = (text) => f.locator('[data-testid="prompt-input-quick-pick-item"]', { hasText: text }).first();
    await inputOf(f, tab).click();
    await page.keyboard.type('what did i attach ');
    // The provider joins every tab's menu once its answer arrives (the settings file is read on change).
    for (let i = 0; ; i++) {
      await page.keyboard.type('@');
      if (
        await pick('Sample docs')
          .waitFor({ timeout: 2_000 })
          .then(
            () => true,
            () => false,
          )
      )
        break;
      if (i > 10) throw new Error('the Sample docs provider never appeared in the @ menu');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Backspace');
    }
    await shot('openctx-providers');
    await pick('Sample docs').click();
    await pick('Release checklist').waitFor();
    await shot('openctx-menu');
    await pick('Release checklist').click();
    await page.keyboard.press('Enter');
    const text = await waitForText(answersOf(f, tab), 'resource https://docs.example/release-checklist');
    if (!/You attached 1 item:\s*(- )?resource https:\/\/docs\.example\/release-checklist/.test(text))
      throw new Error(`unexpected reply: ${text.slice(-300)}`);
  });

  await step("typing after @ in a provider's open menu shows that query's mentions; the picked one reaches the agent", async () => {
    // The sample provider lists its archived documents only for a search (docs/openctx.md).
    const pick = (text) => f.locator('[data-testid="prompt-input-quick-pick-item"]', { hasText: text }).first();
    await inputOf(f, tab).click();
    await page.keyboard.type('what did i attach ');
    await page.keyboard.type('@');
    await pick('Sample docs').click();
    await pick('Release checklist').waitFor();
    if (await pick('Incident review').count()) throw new Error('the archived document is listed before any search');
    await page.keyboard.type('incid');
    // The menu stays open: the provider's answer to "incid" joins it (after the host's debounce).
    await pick('Incident review: search outage').waitFor({ timeout: 10_000 });
    const typed = await inputOf(f, tab).innerText();
    if (!/what did i attach\s@incid$/.test(typed.replace(/\u00a0/g, ' ')))
      throw new Error(`the typed text changed: ${JSON.stringify(typed)}`);
    await shot('openctx-query');
    // The keyboard works on the refreshed list as on any list mynah-ui filtered: down to the entry, Enter.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await waitForText(inputOf(f, tab), 'Incident review: search outage');
    // Typing on ends the query (the menu no longer lists the mention); it is still sent.
    await page.keyboard.type(' please');
    await page.keyboard.press('Enter');
    const text = await waitForText(answersOf(f, tab), 'resource https://docs.example/incident-review');
    if (!/You attached 1 item:\s*(- )?resource https:\/\/docs\.example\/incident-review/.test(text))
      throw new Error(`unexpected reply: ${text.slice(-300)}`);
  });

  // Pasted and dropped images: a PNG `File` in a real paste / drop event on the prompt.
  /** Dispatches a paste or drop of an image of `size` bytes (a real PNG header) on the tab's prompt input. */
  const putImage = (kind, name, size) =>
    inputOf(f, tab).evaluate(
      (input, [kind, name, size]) => {
        const bytes = new Uint8Array(size);
        bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], name, { type: 'image/png' }));
        const e =
          kind === 'paste'
            ? new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })
            : new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
        input.dispatchEvent(e);
        return e.defaultPrevented;
      },
      [kind, name, size],
    );
  for (const [kind, done] of [
    ['paste', 'pasted'],
    ['drop', 'dropped'],
  ]) {
    await step(`a ${done} PNG becomes an attachment chip and reaches the agent as an image block`, async () => {
      await inputOf(f, tab).click();
      const name = `${done}-screenshot.png`;
      if (!(await putImage(kind, name, 2048))) throw new Error(`the ${kind} was left to the browser`);
      await waitForText(wrapperOf(f, tab), name);
      await shot(`${kind}-image-chip`);
      await inputOf(f, tab).click();
      await page.keyboard.type('what did i attach');
      await page.keyboard.press('Enter');
      const text = await waitForText(answersOf(f, tab), 'image image/png');
      if (!/You attached 1 item/.test(text.slice(text.lastIndexOf('You ')))) throw new Error(`unexpected reply: ${text.slice(-200)}`);
      await waitForText(wrapperOf(f, tab).locator('[data-testid="chat-item-prompt"]'), name);
      await shot(`${kind}-image-sent`);
    });
  }
  await step('an oversize pasted image is refused with a notice', async () => {
    await inputOf(f, tab).click();
    await putImage('paste', 'huge.png', 6 * 1024 * 1024);
    await waitForText(wrapperOf(f, tab), 'is larger than 5.0 MB');
    await animationsDone(f);
    await shot('paste-image-refused');
  });
}
