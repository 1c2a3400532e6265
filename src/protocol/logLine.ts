// The one log line format of the conductor (and ElizACP), on stderr: `LEVEL [category] message`,
// e.g. `WARN [conductor/agent-edge] the agent did not answer…`. Written here and read here, so
// the extension host can log each line at the level it was written at instead of all as info.
// Pure: no vscode, DOM or Node imports.

export type LogLineLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  level: LogLineLevel;
  category: string;
  message: string;
}

const LINE = /^(TRACE|DEBUG|INFO|WARN|ERROR) \[([^\]\n]+)\] (.*)$/s;

export function formatLogLine(level: LogLineLevel, category: string, message: string): string {
  return `${level.toUpperCase()} [${category}] ${message}`;
}

/** The parts of a line formatLogLine wrote; undefined for any other line (an agent's own output). */
export function parseLogLine(line: string): LogLine | undefined {
  const m = LINE.exec(line);
  if (!m) return undefined;
  return { level: m[1]!.toLowerCase() as LogLineLevel, category: m[2]!, message: m[3]! };
}
