// Pasted images: the validated `attach-image` message, the host-side store and its refusals, and
// the resolution of a pasted image into an ACP `image` block.
import * as assert from 'node:assert/strict';
import { type AttachImage } from '../protocol/webview';
import { parseWebviewMessage } from '../protocol/webviewMessages';
import { PastedImages } from './pastedImages';

const TAB = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
const b64 = (n: number): string => Buffer.alloc(n, 7).toString('base64');
const msg = (over: Partial<AttachImage> = {}): AttachImage => ({
  type: 'attach-image',
  tabId: TAB,
  name: 'a.png',
  mimeType: 'image/png',
  size: 10,
  data: b64(10),
  ...over,
});

describe('pasted images', () => {
  it('validates attach-image: image MIME types, size matching the base64, optional data', () => {
    assert.ok(parseWebviewMessage(msg()).ok);
    assert.ok(parseWebviewMessage({ ...msg(), data: undefined, size: 99_999_999 }).ok, 'over the limit: no data, size only');
    for (const bad of [
      { ...msg(), mimeType: 'text/html' },
      { ...msg(), size: 11 },
      { ...msg(), data: 'not base64!' },
      { ...msg(), size: 0, data: '' },
      { ...msg(), size: 30 * 1024 * 1024, data: 'AAAA' },
      { ...msg(), tabId: 'x' },
    ])
      assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad).slice(0, 100));
  });

  it('accepts pasted-image context items only with their own scheme and a UUID', () => {
    const prompt = (uri: string): unknown => ({
      type: 'prompt',
      tabId: TAB,
      messageId: '6f1e2d3c-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
      text: 'x',
      context: [{ kind: 'image', uri, name: 'a.png' }],
    });
    assert.ok(parseWebviewMessage(prompt('symposium-image:6f1e2d3c-4b5a-4c6d-8e7f-0a1b2c3d4e5f')).ok);
    assert.equal(parseWebviewMessage(prompt('symposium-image:../../etc')).ok, false);
    assert.equal(parseWebviewMessage(prompt('http://example.com/a.png')).ok, false);
  });

  it('keeps an image and resolves it to an image block; refuses oversize, byteless and imageless agents', async () => {
    const store = new PastedImages();
    const ok = store.attach(msg(), { image: true }, 100);
    assert.ok(ok.ok);
    assert.ok(store.handles(ok.item));
    assert.deepEqual(await store.resolve([ok.item], { image: true }), [{ type: 'image', data: b64(10), mimeType: 'image/png' }]);
    await assert.rejects(store.resolve([ok.item], {}), /does not accept images/);
    const big = store.attach(msg(), { image: true }, 5);
    assert.ok(!big.ok && /larger than 5 bytes \(symposium\.maxImageBytes\)/.test(big.notice));
    const noData = store.attach({ ...msg(), data: undefined }, { image: true }, 100);
    assert.ok(!noData.ok);
    const noImages = store.attach(msg(), { image: false }, 100);
    assert.ok(!noImages.ok && /does not accept images/.test(noImages.notice));
    assert.ok(store.attach(msg(), undefined, 100).ok, 'caps not known yet: accepted, checked when sent');
  });
});
