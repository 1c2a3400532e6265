// The entry point of out/lm.js: the part of the LM provider that carries vscode-jsonrpc (the
// channel to the `conductor vscodelm` process). It is a bundle of its own, loaded by
// registration.ts only once `symposium.enableExperimentalLM` is on, so the extension's
// activation bundle stays small (the size budget) and activation does not parse it.
export { LmProcess } from './lmProcess';
