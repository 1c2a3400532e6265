// The conductor's stderr in the "Symposium Agent" output channel. The conductor writes
// `LEVEL [category] message` lines (src/protocol/logLine.ts); each is logged at its own level, so
// the conductor's errors show as errors. Any other line (what a process wrote before the
// conductor's logger existed, a crash trace) is logged as info, as it is. Pure: the channel is
// anything with the five level methods (a vscode.LogOutputChannel in the extension).
import { parseLogLine, type LogLineLevel } from '../protocol/logLine';

export type LevelledChannel = Record<LogLineLevel, (message: string) => void>;

export function logConductorLine(channel: LevelledChannel, agentName: string, line: string): void {
  const parsed = parseLogLine(line);
  if (!parsed) return channel.info(`[${agentName}] ${line}`);
  channel[parsed.level](`[${agentName}] [${parsed.category}] ${parsed.message}`);
}
