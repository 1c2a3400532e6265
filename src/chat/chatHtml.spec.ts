import * as assert from 'node:assert/strict';
import { chatHtml } from './chatHtml';

const opts = {
  cspSource: 'https://webview.test',
  nonce: 'abcDEF123',
  scriptUri: 'https://webview.test/out/webview.js',
  styleUri: 'https://webview.test/out/webview.css',
  sessionId: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
  testMode: false,
};

describe('chat webview HTML', () => {
  const html = chatHtml(opts);
  it('has a strict CSP with a script nonce', () => {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
    assert.equal(
      csp,
      "default-src 'none'; script-src 'nonce-abcDEF123'; style-src https://webview.test 'unsafe-inline'; img-src https://webview.test data:; font-src https://webview.test",
    );
  });
  it('has no inline script: every <script> is a nonce-carrying file', () => {
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    for (const [, attrs, body] of scripts) {
      assert.match(attrs!, /nonce="abcDEF123"/);
      assert.match(attrs!, /src="https:\/\/webview.test\/out\/webview.js"/);
      assert.equal(body!.trim(), '');
    }
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handlers');
  });
  it('passes the activation session ID as a data attribute', () => {
    assert.match(html, /<body data-session-id="1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b" data-test-mode="0">/);
  });
  it('escapes attribute values', () => {
    assert.match(chatHtml({ ...opts, sessionId: '"><script>' }), /data-session-id="&quot;&gt;&lt;script&gt;"/);
  });
});
