// The extension's logger: a LogOutputChannel ("Symposium") with a category prefix per line, plus an
// event stream of structured LogEvents for tests (exported from activate() and readable through
// symposium.test.getLogEvents).
import * as vscode from 'vscode';
import { formatData, type Log, type LogEvent, type LogLevel } from './logEvent';

const RECENT_EVENTS = 5_000;

export class Logger implements Log, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<LogEvent>();
  private readonly recent: LogEvent[] = [];
  readonly onLog: vscode.Event<LogEvent> = this.emitter.event;

  constructor(readonly channel: vscode.LogOutputChannel) {}

  trace(category: string, message: string, data?: unknown): void {
    this.log('trace', category, message, data);
  }
  debug(category: string, message: string, data?: unknown): void {
    this.log('debug', category, message, data);
  }
  info(category: string, message: string, data?: unknown): void {
    this.log('info', category, message, data);
  }
  warn(category: string, message: string, data?: unknown): void {
    this.log('warn', category, message, data);
  }
  error(category: string, message: string, data?: unknown): void {
    this.log('error', category, message, data);
  }

  /** The last few thousand events, oldest first. */
  events(): readonly LogEvent[] {
    return this.recent;
  }

  private log(level: LogLevel, category: string, message: string, data?: unknown): void {
    const event: LogEvent = { timestamp: new Date().toISOString(), level, category, message, ...(data === undefined ? {} : { data }) };
    this.recent.push(event);
    if (this.recent.length > RECENT_EVENTS) this.recent.splice(0, this.recent.length - RECENT_EVENTS);
    this.emitter.fire(event);
    try {
      this.channel[level](`[${category}] ${message}${formatData(data)}`);
    } catch {
      // The channel may already be disposed while the extension host shuts down.
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
