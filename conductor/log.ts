// The conductor's logger. stdout carries protocol only, so every log line goes to stderr, one
// line per event: `LEVEL [category] message {data}` (src/protocol/logLine.ts). The extension
// logs these lines in its agent log channel, each at its level.
import { formatLogLine, type LogLineLevel } from '../src/protocol/logLine';

export type LogLevel = LogLineLevel | 'off';
const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, off: 5 };

export function isLogLevel(value: string): value is LogLevel {
  return value in ORDER;
}

export interface Logger {
  trace(message: string, data?: unknown): void;
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
  child(category: string): Logger;
  enabled(level: LogLevel): boolean;
}

export type LogSink = (line: string) => void;

export function createLogger(level: LogLevel, category = 'conductor', sink: LogSink = (l) => process.stderr.write(l + '\n')): Logger {
  const threshold = ORDER[level];
  const emit = (lvl: LogLineLevel, message: string, data?: unknown): void => {
    if (ORDER[lvl] < threshold) return;
    let suffix = '';
    if (data !== undefined) {
      try {
        suffix = ' ' + (data instanceof Error ? data.message : JSON.stringify(data));
      } catch {
        suffix = ' <unserializable>';
      }
    }
    sink(formatLogLine(lvl, category, message + suffix));
  };
  return {
    trace: (m, d) => emit('trace', m, d),
    debug: (m, d) => emit('debug', m, d),
    info: (m, d) => emit('info', m, d),
    warn: (m, d) => emit('warn', m, d),
    error: (m, d) => emit('error', m, d),
    child: (sub) => createLogger(level, `${category}/${sub}`, sink),
    enabled: (lvl) => ORDER[lvl] >= threshold,
  };
}
