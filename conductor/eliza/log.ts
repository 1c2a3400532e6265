// ElizACP's diagnostics. stdout carries protocol only, so every line goes to stderr, in the
// conductor's format `LEVEL [eliza] message` (src/protocol/logLine.ts): the conductor relays an
// agent's stderr into its own log, and the extension shows such lines at their level. Debug lines
// are opt-in (ELIZACP_LOG=debug) so test output stays readable.
import { formatLogLine } from '../../src/protocol/logLine';

const CATEGORY = 'eliza';
const debugEnabled = process.env['ELIZACP_LOG'] === 'debug';

export function logDebug(message: string): void {
  if (debugEnabled) process.stderr.write(formatLogLine('debug', CATEGORY, message) + '\n');
}

export function logError(message: string): void {
  process.stderr.write(formatLogLine('error', CATEGORY, message) + '\n');
}
