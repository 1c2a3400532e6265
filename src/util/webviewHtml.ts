// The one page shell of our webviews (the chat, the traffic viewer): a strict Content-Security-
// Policy that starts from `default-src 'none'` and lets scripts run only with this render's nonce;
// the one script from our file; every attribute value escaped. Each webview adds its own policy
// lines, head and body. Pure.

export const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface WebviewPage {
  title: string;
  /** This render's nonce: the only scripts (and styles, where a page says so) that run. */
  nonce: string;
  scriptUri: string;
  /** Policy lines after `default-src 'none'; script-src 'nonce-…'` (styles, images, fonts). */
  policy: string[];
  /** Inside <head>, after the policy: stylesheets or a nonce'd <style>. */
  head: string;
  /** Attributes of <body> (values escaped here): what the script reads instead of inline JS. */
  bodyData: Record<string, string>;
  /** The markup the script starts from. */
  body: string;
}

export function contentSecurityPolicy(nonce: string, policy: readonly string[]): string {
  return ["default-src 'none'", `script-src 'nonce-${nonce}'`, ...policy].join('; ');
}

export function webviewHtml(p: WebviewPage): string {
  const attrs = Object.entries(p.bodyData)
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(p.nonce, p.policy))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${p.head}
<title>${escapeAttr(p.title)}</title>
</head>
<body${attrs}>
${p.body}
<script nonce="${escapeAttr(p.nonce)}" src="${escapeAttr(p.scriptUri)}"></script>
</body>
</html>`;
}
