// How the settings speak to the user: a warning or a one-action question, and notices that are
// shown once per activation (a setting that was ignored should be said where the user looks, once,
// not on every read).
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';

/** How Settings talks to the user (tests and the plain API pass their own). */
export interface SettingsUi {
  /** A warning (settings that were ignored or refused). */
  warn(text: string): void;
  /** A question with one action; resolves with the action if the user chose it. */
  ask(text: string, action: string): Thenable<string | undefined>;
  /** Runs the Restart Agent command. */
  restartAgent(): unknown;
}

export const defaultSettingsUi: SettingsUi = {
  warn: (text) => void vscode.window.showWarningMessage(text),
  ask: (text, action) => vscode.window.showInformationMessage(text, action),
  restartAgent: () => vscode.commands.executeCommand('symposium.restartAgent'),
};

export class SettingsNotices {
  /** Notices already shown in this activation. */
  private readonly shown = new Set<string>();

  constructor(
    private readonly log: Log,
    readonly ui: SettingsUi,
  ) {}

  /** True the first time `id` is asked about (and marks it shown). */
  firstTime(id: string): boolean {
    if (this.shown.has(id)) return false;
    this.shown.add(id);
    return true;
  }

  /** A warning in the log and in a notification, the first time only. */
  once(id: string, text: string, data?: Record<string, unknown>): void {
    if (!this.firstTime(id)) return;
    this.log.warn('settings', text, { notice: id, ...data });
    this.ui.warn(`Symposium: ${text}`);
  }
}
