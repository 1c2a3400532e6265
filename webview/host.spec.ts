import * as assert from 'node:assert/strict';
import { HOST_TO_WEBVIEW_TYPES } from '../src/protocol/webview';
import { isHostMessage } from './host';

describe('webview guard on host messages', () => {
  it('accepts every host→webview type of the protocol list, with its tab and index', () => {
    for (const type of HOST_TO_WEBVIEW_TYPES) {
      const m = type === 'context-items' ? { type, items: [] } : { type, tabId: 't', index: 1 };
      assert.ok(isHostMessage(m), type);
    }
  });

  it('rejects unknown types and messages without a tab or a whole index', () => {
    for (const m of [
      null,
      'open-tab',
      { type: 'prompt', tabId: 't', index: 1 },
      { type: 'open-tab', index: 1 },
      { type: 'open-tab', tabId: 't', index: 1.5 },
      { type: 'open-tab', tabId: 't' },
      { type: 'context-items' },
    ])
      assert.equal(isHostMessage(m), false, JSON.stringify(m));
  });
});
