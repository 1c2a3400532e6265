// What every feature of the extension is built on, made first at activation: the log and its
// channels, the settings, the record of permission decisions, and where the extension runs.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Runtime } from '../settings/agentDefinition';
import { Logger } from '../log/logger';
import { DecisionLog } from '../permissions/decisionLog';
import { Settings } from '../settings/settings';
import { workspaceOwnStorage } from './workspaceStorage';

export interface ExtensionCore {
  context: vscode.ExtensionContext;
  log: Logger;
  /** "Symposium": the extension's own log. */
  channel: vscode.LogOutputChannel;
  /** "Symposium Agent": what the conductors and agents write to stderr. */
  agentChannel: vscode.LogOutputChannel;
  /** Every symposium.* setting; the security-relevant ones from user settings only. */
  settings: Settings;
  decisions: DecisionLog;
  runtime: Runtime;
  version: string;
  /** New per activation: the webview restores saved tabs only within the same activation. */
  sessionId: string;
  /** Outside production mode: the symposium.test.* commands exist. */
  testMode: boolean;
  /**
   * The extension's folder for this workspace's data (history, checkpoints): the workspace's own
   * storage, also when VS Code gave this window `<id>-1`; no workspace: global storage's `no-workspace`.
   */
  workspaceStorage: string;
  /** symposium.allowedFolders: besides a session's folder, where the agent may read and write. */
  allowedFolders(): string[];
}

export function createCore(context: vscode.ExtensionContext): ExtensionCore {
  const channel = vscode.window.createOutputChannel('Symposium', { log: true });
  const agentChannel = vscode.window.createOutputChannel('Symposium Agent', { log: true });
  const log = new Logger(channel);
  const sessionId = randomUUID();
  const testMode = context.extensionMode !== vscode.ExtensionMode.Production;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  log.info('activation', 'activated', { sessionId, mode: vscode.ExtensionMode[context.extensionMode], version, vscode: vscode.version });
  const runtime: Runtime = {
    execPath: process.execPath,
    extensionPath: context.extensionPath,
    compileCacheDir: vscode.Uri.joinPath(context.globalStorageUri, 'compile-cache').fsPath,
  };
  // A workspace's security-relevant settings are ignored, with a notice.
  const settings = new Settings(log, undefined, context.workspaceState);
  const decisions = new DecisionLog();
  const own = context.storageUri && workspaceOwnStorage(context.storageUri.fsPath);
  if (own && own !== context.storageUri?.fsPath)
    log.info('activation', "another window holds this workspace's storage; its data stays in the workspace's own", { folder: own });
  const workspaceStorage = own ?? vscode.Uri.joinPath(context.globalStorageUri, 'no-workspace').fsPath;
  context.subscriptions.push(channel, agentChannel, log, settings, decisions);
  return {
    context,
    log,
    channel,
    agentChannel,
    settings,
    decisions,
    runtime,
    version,
    sessionId,
    testMode,
    workspaceStorage,
    allowedFolders: () => settings.allowedFolders(),
  };
}
