// The chat webview's HTML. Strict CSP: scripts only with this render's nonce and only from files
// (no inline script at all); styles from our files plus the inline <style> elements mynah-ui
// injects at runtime (it cannot take a nonce, and a nonce in style-src would disable
// 'unsafe-inline'); images from our files and mynah's data: icons. The activation session ID and
// flags reach the script as data- attributes, not inline JS. Pure.

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

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'unsafe-inline'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

export function chatHtml(o: ChatHtmlOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(o.styleUri)}">
<title>Symposium</title>
</head>
<body data-session-id="${escapeAttr(o.sessionId)}" data-test-mode="${o.testMode ? '1' : '0'}"${o.maxImageBytes ? ` data-max-image-bytes="${o.maxImageBytes}"` : ''}>
<div id="mynah-root"></div>
<script nonce="${escapeAttr(o.nonce)}" src="${escapeAttr(o.scriptUri)}"></script>
</body>
</html>`;
}
