import * as assert from 'node:assert/strict';
import { HOST_TO_WEBVIEW_TYPES } from './webview';
import { isUuidV4, parseWebviewMessage } from './webviewMessages';

const TAB = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
const MSG = '6f1e2d3c-4b5a-4c6d-8e7f-0a1b2c3d4e5f';

describe('webview protocol validation', () => {
  it('accepts well-formed messages', () => {
    for (const m of [
      { type: 'webview-ready', lastSeenIndex: { [TAB]: 3 }, openTabs: [TAB] },
      { type: 'new-tab', tabId: TAB },
      { type: 'prompt', tabId: TAB, messageId: MSG, text: 'hello' },
      { type: 'prompt', tabId: TAB, messageId: MSG, text: 'edited', resendOf: MSG },
      { type: 'checkpoint-action', tabId: TAB, messageId: MSG, action: 'revert', folder: '/w', path: 'a.txt' },
      { type: 'checkpoint-action', tabId: TAB, messageId: MSG, action: 'restore' },
      { type: 'cancel', tabId: TAB },
      { type: 'withdraw-queued', tabId: TAB },
      { type: 'close-tab', tabId: TAB },
      { type: 'restart-agent', tabId: TAB },
      { type: 'continue-in-new-session', tabId: TAB },
      { type: 'export-conversation', tabId: TAB },
      { type: 'open-settings', tabId: TAB, target: 'remote' },
      { type: 'ack', lastSeenIndex: {} },
      { type: 'rendered', tabId: TAB, requestId: 'r1', items: [{ type: 'answer', messageId: 'x', body: 'b' }] },
      { type: 'log', level: 'error', message: 'boom' },
    ]) {
      const r = parseWebviewMessage(m);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(r.message, m);
    }
  });

  it('rejects anything else with a reason', () => {
    const bad: unknown[] = [
      null,
      'prompt',
      [],
      {},
      { type: 'nope' },
      { type: 'new-tab', tabId: 'not-a-uuid' },
      { type: 'continue-in-new-session', tabId: 'not-a-uuid' },
      { type: 'open-settings', tabId: TAB, target: 'workbench.action.terminal.new' },
      { type: 'open-settings', tabId: TAB },
      { type: 'export-conversation' },
      { type: 'withdraw-queued', tabId: 'not-a-uuid' },
      { type: 'new-tab', tabId: '1b4e28ba-2fa1-1d3b-a3f5-ef19b5a7633b' }, // v1, not v4
      { type: 'prompt', tabId: TAB, messageId: MSG },
      { type: 'prompt', tabId: TAB, messageId: MSG, text: 'x'.repeat(300_000) },
      { type: 'prompt', tabId: TAB, messageId: MSG, text: 'x', resendOf: 'turn-1' },
      { type: 'checkpoint-action', tabId: TAB, messageId: MSG, action: 'delete-everything' },
      { type: 'checkpoint-action', tabId: TAB, messageId: MSG, action: 'revert' },
      { type: 'webview-ready', lastSeenIndex: { [TAB]: -1 }, openTabs: [] },
      { type: 'webview-ready', lastSeenIndex: { [TAB]: 1.5 }, openTabs: [] },
      { type: 'webview-ready', lastSeenIndex: {}, openTabs: ['x'] },
      { type: 'log', level: 'fatal', message: 'x' },
    ];
    for (const m of bad) {
      const r = parseWebviewMessage(m);
      assert.equal(r.ok, false, JSON.stringify(m)?.slice(0, 80));
      assert.ok(!r.ok && r.error.length > 0);
    }
  });

  it('drops unknown extra fields', () => {
    const r = parseWebviewMessage({ type: 'cancel', tabId: TAB, evil: true });
    assert.ok(r.ok);
    assert.deepEqual(r.message, { type: 'cancel', tabId: TAB });
  });

  it('recognizes UUID v4', () => {
    assert.ok(isUuidV4(TAB));
    assert.ok(!isUuidV4(TAB.toUpperCase().replace('4D3B', '5D3B')));
  });

  it('lists each host→webview type once (the compiler checks the list covers the union)', () => {
    assert.equal(new Set(HOST_TO_WEBVIEW_TYPES).size, HOST_TO_WEBVIEW_TYPES.length);
    assert.ok(HOST_TO_WEBVIEW_TYPES.includes('prompt-started') && HOST_TO_WEBVIEW_TYPES.includes('context-items'));
  });
});
