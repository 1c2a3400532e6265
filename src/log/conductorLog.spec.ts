// Conductor stderr lines reach the agent channel at the level they were written at.
import * as assert from 'node:assert/strict';
import { logConductorLine, type LevelledChannel } from './conductorLog';

describe('conductor log lines in the agent channel', () => {
  it('keeps the level of a conductor line, and logs any other line as info', () => {
    const seen: string[] = [];
    const channel = Object.fromEntries(
      ['trace', 'debug', 'info', 'warn', 'error'].map((l) => [l, (m: string) => void seen.push(`${l}: ${m}`)]),
    ) as LevelledChannel;
    logConductorLine(channel, 'Codex', 'ERROR [conductor] the agent exited with code 1');
    logConductorLine(channel, 'Codex', 'WARN [conductor/agent-edge] no answer after cancel');
    logConductorLine(channel, 'Codex', 'INFO [conductor/agent/stderr] ERROR [eliza] relayed');
    logConductorLine(channel, 'Codex', 'Error: something the process printed itself');
    assert.deepEqual(seen, [
      'error: [Codex] [conductor] the agent exited with code 1',
      'warn: [Codex] [conductor/agent-edge] no answer after cancel',
      'info: [Codex] [conductor/agent/stderr] ERROR [eliza] relayed',
      'info: [Codex] Error: something the process printed itself',
    ]);
  });
});
