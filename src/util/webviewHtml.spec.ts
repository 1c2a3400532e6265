// The page shell both webviews share: one policy shape, the nonce on the script, escaped attributes.
import * as assert from 'node:assert/strict';
import { trafficHtml } from '../traffic/trafficHtml';
import { webviewHtml } from './webviewHtml';

describe('webview page shell (src/util/webviewHtml.ts)', () => {
  it('starts the policy from nothing, runs only the nonce’d script, escapes body data', () => {
    const html = webviewHtml({
      title: 'T',
      nonce: 'n0',
      scriptUri: 's.js',
      policy: ['img-src x'],
      head: '',
      bodyData: { 'data-x': '"><b>' },
      body: '',
    });
    assert.match(html, /content="default-src 'none'; script-src 'nonce-n0'; img-src x"/);
    assert.match(html, /<script nonce="n0" src="s\.js"><\/script>/);
    assert.match(html, /data-x="&quot;&gt;&lt;b&gt;"/);
  });

  it('the traffic viewer: its one <style> carries the nonce the policy allows, nothing inline otherwise', () => {
    const html = trafficHtml({ nonce: 'abc', scriptUri: 'v.js', testMode: true });
    assert.match(html, /content="default-src 'none'; script-src 'nonce-abc'; style-src 'nonce-abc'"/);
    assert.match(html, /<style nonce="abc">/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.match(html, /data-test-mode="1"/);
  });
});
