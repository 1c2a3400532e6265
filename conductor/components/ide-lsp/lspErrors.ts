// What the ide-lsp code outside the LSP client needs of it without loading it: the time limits and
// the error of a request a server did not answer. The client itself (lspClient.ts, with
// vscode-languageserver-protocol) loads when the first language server starts (supervisor.ts), so
// a conductor whose editor answers IDE operations itself never evaluates it.

/** Per-method time limits (ms), agent-lsp's table scaled to fit inside one tool call's budget. */
export interface LspTimeouts {
  initialize: number;
  /** References and workspace symbols: the whole workspace may be searched. */
  workspaceWide: number;
  /** Every other request. */
  request: number;
  shutdown: number;
}

export const DEFAULT_TIMEOUTS: LspTimeouts = { initialize: 25_000, workspaceWide: 20_000, request: 15_000, shutdown: 2_000 };

/** A request the server did not answer: timed out, died, or answered with an error. */
export class LanguageServerError extends Error {}
