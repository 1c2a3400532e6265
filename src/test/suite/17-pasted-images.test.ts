// Pasted and dropped images in the real host: the webview's `attach-image` (fed through the same
// validation as the page's) becomes an attachment chip in the tab, the next prompt carries it as an
// ACP `image` block (ElizACP's `what did i attach` lists it), and an image over
// symposium.maxImageBytes, or one the webview sent without its bytes, is refused with a notice.
// The real paste and drop events on the mynah prompt are exercised by the browser e2e.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answerText, cmd, newTab, openChat, rendered, renderedTabStore, waitFor, waitForIdle } from '../helpers';

const png = (size: number): string => {
  const bytes = Buffer.alloc(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes.toString('base64');
};
const noticeTexts = async (tabId: string): Promise<string> =>
  ((await rendered(tabId)) ?? [])
    .filter((i) => i.messageId.includes('notice'))
    .map((i) => i.body.replace(/\\/g, ''))
    .join('\n');

suite('pasted images', () => {
  suiteSetup(async () => {
    await openChat();
  });

  test('a pasted PNG becomes an attachment chip and reaches ElizACP as an image block with the prompt', async () => {
    const tabId = await newTab();
    await cmd('postFromWebview', { type: 'attach-image', tabId, name: 'shot.png', mimeType: 'image/png', size: 64, data: png(64) });
    await waitFor('the chip', async () => ((await renderedTabStore(tabId))?.attached ?? []).includes('shot.png'));
    // The context item the chip stands for (the webview sends it with the prompt), from the host's log.
    const log = await cmd<{ message: string; data?: { tabId?: string; uri?: string } }[]>('getLogEvents');
    const uri = log.find((e) => e.message === 'image attached' && e.data?.tabId === tabId)?.data?.uri;
    assert.match(uri ?? '', /^symposium-image:/);
    const messageId = await cmd<string>('sendPrompt', tabId, 'what did i attach', [{ kind: 'image', uri, name: 'shot.png' }]);
    await waitForIdle(tabId);
    assert.match(answerText((await rendered(tabId))!, messageId), /You attached 1 item:\s*\n?- image image\/png/);
  });

  test('an oversize image is refused with a notice, on both sides of the limit', async () => {
    const tabId = await newTab();
    const config = vscode.workspace.getConfiguration('symposium');
    await config.update('maxImageBytes', 1000, vscode.ConfigurationTarget.Global);
    try {
      // The webview knew the limit and sent no bytes.
      await cmd('postFromWebview', { type: 'attach-image', tabId, name: 'big.png', mimeType: 'image/png', size: 5000 });
      await waitFor('the notice', async () => /big\.png.*larger than 1000 bytes/s.test(await noticeTexts(tabId)));
      // A webview that sends the bytes anyway is refused by the host's own check.
      await cmd('postFromWebview', { type: 'attach-image', tabId, name: 'sneaky.png', mimeType: 'image/png', size: 1500, data: png(1500) });
      await waitFor('the second notice', async () => /sneaky\.png.*larger than 1000 bytes/s.test(await noticeTexts(tabId)));
      assert.deepEqual((await renderedTabStore(tabId))?.attached ?? [], [], 'nothing attached');
    } catch (e) {
      throw new Error(`${(e as Error).message}; rendered: ${JSON.stringify(await rendered(tabId))}`);
    } finally {
      await config.update('maxImageBytes', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
