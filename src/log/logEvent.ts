// Structured log events: every log line is also an event that tests can subscribe to and filter
// by category/message instead of scraping text. Pure, so vscode-free modules (the agent actor)
// can log through the `Log` interface.

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface LogEvent {
  timestamp: string;
  level: LogLevel;
  /** Subsystem: 'activation', 'webview', 'agent', 'session', 'prompt', 'test', … */
  category: string;
  message: string;
  data?: unknown;
}

/** What components log through; the vscode implementation is log/logger.ts. */
export interface Log {
  trace(category: string, message: string, data?: unknown): void;
  debug(category: string, message: string, data?: unknown): void;
  info(category: string, message: string, data?: unknown): void;
  warn(category: string, message: string, data?: unknown): void;
  error(category: string, message: string, data?: unknown): void;
}

/** A Log that drops everything: for unit tests of code that logs. */
export const silentLog: Log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** Renders `data` for a text channel: errors with their stack, the rest as compact JSON. */
export function formatData(data: unknown): string {
  if (data === undefined) return '';
  if (data instanceof Error) return ` ${data.stack ?? data.message}`;
  try {
    const s = JSON.stringify(data, (_k, v: unknown) => (v instanceof Error ? { message: v.message, stack: v.stack } : v));
    return s === undefined ? '' : ` ${s.length > 2_000 ? `${s.slice(0, 2_000)}…` : s}`;
  } catch {
    return ` ${String(data)}`;
  }
}
