// Identity ElizACP reports in `initialize` (agentInfo) and to MCP servers (clientInfo).
export const ELIZA_NAME = 'elizacp';
export const ELIZA_VERSION = '0.1.0';

// stdout carries protocol only; every diagnostic goes to stderr. Debug lines are opt-in
// (ELIZACP_LOG=debug) so test output stays readable.
const debugEnabled = process.env['ELIZACP_LOG'] === 'debug';
export function logDebug(message: string): void {
  if (debugEnabled) process.stderr.write(`eliza: ${message}\n`);
}
export function logError(message: string): void {
  process.stderr.write(`eliza: ${message}\n`);
}
