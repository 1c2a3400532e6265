// The ACP SDK as a bundle of its own (out/acp.js, esbuild.mjs), which the extension loads on the
// first agent start (acpSdk.ts imports the package; the build points that import here).
export * from '@agentclientprotocol/sdk';
