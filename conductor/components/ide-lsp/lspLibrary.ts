// The language-server protocol library (vscode-languageserver-protocol on vscode-jsonrpc), as the
// bundle of its own that the shipped conductor loads when its first language server starts
// (out/conductor-lsp.js, esbuild.mjs). lspClient.ts imports the package itself; the build points
// that import here.
export * from 'vscode-languageserver-protocol/node';
