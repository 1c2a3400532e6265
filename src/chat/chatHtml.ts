// The chat webview's HTML. Strict CSP: scripts only with this render's nonce and only from files
// (no inline script at all); styles from our files plus the inline <style> elements mynah-ui
// injects at runtime (it cannot take a nonce, and a nonce in style-src would disable
// 'unsafe-inline'); images from our files and mynah's data: icons. The activation session ID and
// flags reach the script as data- attributes, not inline JS (the shell: src/util/webviewHtml.ts). Pure.

import { escapeAttr, webviewHtml } from '../util/webviewHtml';

export interface ChatHtmlOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** Generated once per activation: the webview restores saved tabs only when it matches. */
  sessionId: string;
  /** Adds mynah-ui's data-testid attributes for browser tests. */
  testMode: boolean;
  /** symposium.maxImageBytes: the webview sends no bytes of a larger pasted image. */
  maxImageBytes?: number;
}

export function chatHtml(o: ChatHtmlOptions): string {
  return webviewHtml({
    title: 'Symposium',
    nonce: o.nonce,
    scriptUri: o.scriptUri,
    policy: [`style-src ${o.cspSource} 'unsafe-inline'`, `img-src ${o.cspSource} data:`, `font-src ${o.cspSource}`],
    head: `<link rel="stylesheet" href="${escapeAttr(o.styleUri)}">`,
    bodyData: {
      'data-session-id': o.sessionId,
      'data-test-mode': o.testMode ? '1' : '0',
      ...(o.maxImageBytes ? { 'data-max-image-bytes': String(o.maxImageBytes) } : {}),
    },
    body: '<div id="mynah-root"></div>',
  });
}
