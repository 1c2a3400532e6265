// The traffic viewer's HTML. Strict CSP as the chat's (src/chat/chatHtml.ts): the script only from
// our file with this render's nonce, the one <style> element with the same nonce, nothing else.
// Colours come from VS Code's theme variables, so light, dark and high-contrast themes work. Pure.

import { escapeAttr, webviewHtml } from '../util/webviewHtml';

export interface TrafficHtmlOptions {
  nonce: string;
  scriptUri: string;
  /** The viewer reports what it shows (`rendered`) for the host tests. */
  testMode: boolean;
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 8px; }
header { position: sticky; top: 0; background: var(--vscode-editor-background); padding: 6px 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; z-index: 1; }
header h1 { font-size: 1em; margin: 0; flex: 1 1 100%; }
input { flex: 1; min-width: 12em; background: var(--vscode-input-background); color: var(--vscode-input-foreground); border: 1px solid var(--vscode-input-border, transparent); padding: 3px 6px; }
button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); border: none; padding: 4px 10px; cursor: pointer; }
.notice { color: var(--vscode-descriptionForeground); }
table { border-collapse: collapse; width: 100%; table-layout: fixed; font-family: var(--vscode-editor-font-family); font-size: 0.92em; }
td:nth-child(1) { width: 6.5em; } td:nth-child(2) { width: 17em; } td:nth-child(3) { width: 16em; } td:nth-child(4) { width: 5.5em; }
td.hop, td.method { overflow: hidden; text-overflow: ellipsis; }
td { border-bottom: 1px solid var(--vscode-panel-border, #8884); padding: 2px 6px; vertical-align: top; }
td.time, td.dur { text-align: right; white-space: nowrap; color: var(--vscode-descriptionForeground); }
td.hop { white-space: nowrap; }
tr.error td.method { color: var(--vscode-errorForeground); }
.kind-request .arrow::before { content: '→ '; }
.kind-response .arrow::before { content: '← '; }
.kind-notification .arrow::before { content: '• '; }
pre { margin: 2px 0; white-space: pre-wrap; word-break: break-all; max-height: 40em; overflow: auto; }
details summary { cursor: pointer; color: var(--vscode-textLink-foreground); font-family: var(--vscode-editor-font-family); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
td.payload code { font-family: var(--vscode-editor-font-family); word-break: break-all; }
`;

export function trafficHtml(o: TrafficHtmlOptions): string {
  return webviewHtml({
    title: 'Protocol Traffic',
    nonce: o.nonce,
    scriptUri: o.scriptUri,
    policy: [`style-src 'nonce-${o.nonce}'`],
    head: `<style nonce="${escapeAttr(o.nonce)}">${STYLE}</style>`,
    bodyData: { 'data-test-mode': o.testMode ? '1' : '0' },
    body: `<header>
<h1 id="title">Protocol traffic</h1>
<input id="filter" type="search" placeholder="Filter: words in hop, method, kind or id (e.g. prompt agent)" aria-label="Filter">
<button id="save" type="button">Save trace…</button>
<span id="count" class="notice"></span>
</header>
<table><tbody id="rows"></tbody></table>`,
  });
}
