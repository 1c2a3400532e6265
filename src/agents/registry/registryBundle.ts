// The entry point of out/registry.js: the agent picker with the registry reader, the resolution,
// the binary install and the archive extraction (tar.gz, zip). A bundle of its own, loaded the
// first time "Choose Agent…" runs (lazyPicker.ts), so the extension's activation bundle stays
// within its size budget and activation does not parse it.
export { AgentPicker } from './agentPicker';
