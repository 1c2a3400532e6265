// Browser steps for ACP's newer stable messages in the chat (run by webview-e2e.mjs): the context
// meter from `usage_update` (its warning colour past 80 %, the cost) and a boolean config option as a
// switch under the prompt that reaches the agent; an approval card's Reject with the user's words
// (ElizACP here does not steer, so the card says they go before the next prompt, and they do).
// ElizACP's hooks (docs/eliza.md) send them.
import { answersOf, inputOf, waitForText, wrapperOf } from './chatPage.mjs';

/** Runs the steps in tab `tab` of the chat frame `f`. */
export async function stableSchemaSteps({ page, f, tab, step, shot }) {
  const send = async (text) => {
    await inputOf(f, tab).click();
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };

  await step('usage_update shows a context meter by the prompt, in the warning colour past 80 %, with the cost', async () => {
    const meter = wrapperOf(f, tab).locator('.mynah-progress-indicator-wrapper').first();
    await send('report usage 1000 of 200000');
    await waitForText(meter, 'Context 1k of 200k tokens (1 %)');
    if ((await meter.getAttribute('progress-status')) !== 'default') throw new Error('a 1 % meter is not in the default colour');
    await send('report usage 170000 of 200000 costing 0.42 USD');
    await waitForText(meter, 'Cost 0.42 USD');
    const status = await meter.getAttribute('progress-status');
    if (status !== 'warning') throw new Error(`85 % is not shown as a warning: ${status}`);
    const width = await meter.locator('.mynah-progress-indicator-value-bar').getAttribute('style');
    if (!/width: 85%/.test(width ?? '')) throw new Error(`the bar is not 85 % wide: ${width}`);
    await shot('usage-meter');
  });

  await step("a boolean config option is a switch under the prompt; clicking it sets the agent's option", async () => {
    await send('offer a toggle');
    await waitForText(answersOf(f, tab), 'I added the toggle');
    const toggle = wrapperOf(f, tab).locator('.mynah-form-input-switch-wrapper .mynah-form-input-switch-check').first();
    await toggle.waitFor();
    await shot('boolean-option');
    await toggle.click();
    // set_config_option leaves before the prompt on the same pipe, so the agent has it by then.
    await send('what mode');
    await waitForText(answersOf(f, tab), 'Brief replies: on.');
  });

  await step(
    'Reject with feedback: the words typed on the approval card go to the agent with the rejection, and the card says how',
    async () => {
      await send('request permission for drop the production table kind delete');
      await waitForText(answersOf(f, tab), 'Permission needed: drop the production table');
      const field = wrapperOf(f, tab)
        .locator('[data-testid="chat-item-form-item-text-input"] input, input[data-testid="chat-item-form-item-text-input"]')
        .last();
      await field.fill('use the test database instead');
      await shot('reject-with-feedback');
      await wrapperOf(f, tab).locator('button', { hasText: 'Reject once' }).last().click();
      await waitForText(answersOf(f, tab), 'Permission outcome: selected reject-once');
      await waitForText(answersOf(f, tab), 'your feedback goes before your next prompt: "use the test database instead"');
      await send('hello');
      await send('what was my previous prompt');
      // The reply is the prompt's text blocks as JSON: the note came first.
      await waitForText(answersOf(f, tab), '["About the tool call I rejected (');
    },
  );

  await step(
    'an elicitation form is a card: filled and submitted, the agent gets the typed answer; a URL card opens only on a click',
    async () => {
      await send('ask me a form');
      await waitForText(answersOf(f, tab), 'Project details');
      const w = wrapperOf(f, tab);
      // The form's fields in schema order: the name (its one text field), then the team size and the budget (numbers).
      await w.locator('input[data-testid="chat-item-form-item-text-input"]:not([type="number"])').last().fill('symposium');
      const numbers = w.locator('input[type="number"]');
      await numbers.nth((await numbers.count()) - 2).fill('4');
      await shot('elicitation-form');
      await w.locator('button', { hasText: 'Submit' }).last().click();
      await waitForText(answersOf(f, tab), 'Form answer: accept {"name":"symposium","language":"rust","size":4');
      await send('ask me to open a url https://example.com/sign-in');
      const open = w.locator('button', { hasText: 'Open example.com' }).last();
      await open.waitFor();
      await waitForText(answersOf(f, tab), 'https://example.com/sign-in');
      await shot('elicitation-url');
      await w.locator('button', { hasText: 'Decline' }).last().click();
      await waitForText(answersOf(f, tab), 'URL answer: decline');
    },
  );
}
