// Builds the agent configuration for a new session from the current `symposium.*` settings and a
// workspace folder: the only folder, or the one the user picks when there are several (seed
// "Workspace folder selection"). On restart the tab keeps its folder.
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import type { AgentConfiguration, Runtime } from './agentConfiguration';
import { parseAgentSettings } from './agentSettings';

export async function resolveConfiguration(rt: Runtime, log: Log, previousFolder?: string): Promise<AgentConfiguration | undefined> {
  const cfg = vscode.workspace.getConfiguration('symposium');
  const settings = parseAgentSettings({ agents: cfg.get('agents'), currentAgent: cfg.get('currentAgent'), enabledComponents: cfg.get('enabledComponents') }, rt);
  for (const p of settings.problems) log.warn('settings', p);
  const workspaceFolder = previousFolder ?? (await pickFolder(log));
  if (!workspaceFolder) return undefined;
  return { agent: settings.current, components: settings.components, workspaceFolder };
}

async function pickFolder(log: Log): Promise<string | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 1) return folders[0]!.uri.fsPath;
  if (folders.length === 0) {
    // ACP needs an absolute cwd; without a folder the home directory is the least surprising one.
    log.info('session', 'no workspace folder; using the home directory');
    return os.homedir();
  }
  const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Workspace folder for this chat (the agent works there)', ignoreFocusOut: true });
  return picked?.uri.fsPath;
}
