// Builds the agent configuration for a new session from the current `symposium.*` settings and a
// workspace folder: the only folder, or the one the user picks in a quick pick when there are
// several; with symposium.allFoldersInSession the others go with the session as its additional
// directories. On restart the tab keeps its folder. Agents and components come from user settings
// only (a workspace may only name the agent), and an untrusted workspace gets the built-in agent
// (settingsScope.ts).
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import { type AgentConfiguration } from './agentConfiguration';
import { BUILTIN_AGENT_NAME, type Runtime } from '../settings/agentDefinition';
import type { Settings } from '../settings/settings';
import { settingProblems } from '../settings/settingProblems';
import { agentForTrust } from '../settings/settingsScope';

export async function resolveConfiguration(
  rt: Runtime,
  log: Log,
  user: Pick<Settings, 'agentSettings' | 'heldBack'> &
    Partial<Pick<Settings, 'sparkleSettings' | 'proxySettings' | 'languageServerSettings' | 'allFoldersInSession'>>,
  previousFolder?: string,
  /** A conversation reopened from the history asks for the agent it had (if still configured). */
  agentName?: string,
): Promise<AgentConfiguration | undefined> {
  const settings = user.agentSettings(rt);
  for (const p of settings.problems) log.warn('settings', p);
  const wanted = agentName === undefined ? undefined : settings.agents[agentName];
  const { agent, heldBack } = agentForTrust(wanted ?? settings.current, settings.agents[BUILTIN_AGENT_NAME]!, vscode.workspace.isTrusted);
  if (heldBack) user.heldBack(heldBack);
  const problems = settingProblems({
    ...(agentName === undefined && settings.missing !== undefined ? { missingAgent: settings.missing } : {}),
    ...(heldBack !== undefined ? { untrustedAgent: heldBack } : {}),
    using: agent.name,
    remote: vscode.env.remoteName !== undefined,
  });
  const workspaceFolder = previousFolder ?? (await pickFolder(log));
  if (!workspaceFolder) return undefined;
  const sparkle = user.sparkleSettings?.();
  for (const p of sparkle?.problems ?? []) log.warn('settings', p);
  // Proxies are processes the user configured, like agents: an untrusted workspace runs none.
  const proxySettings = user.proxySettings?.();
  for (const p of proxySettings?.problems ?? []) log.warn('settings', p);
  const proxies = vscode.workspace.isTrusted ? (proxySettings?.proxies ?? []) : [];
  if (!vscode.workspace.isTrusted && proxySettings?.proxies.length)
    log.info('settings', 'untrusted workspace: symposium.proxies not started');
  // Language servers are programs the user chose, like proxies: not in an untrusted workspace.
  const languageServers = user.languageServerSettings?.();
  for (const p of languageServers?.problems ?? []) log.warn('settings', p);
  const lsFlags = vscode.workspace.isTrusted ? (languageServers?.flags ?? []) : [];
  // The other folders of a multi-root workspace go with the session (the agent may take them).
  const additionalDirectories = user.allFoldersInSession?.()
    ? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath).filter((f) => f !== workspaceFolder)
    : [];
  return {
    agent,
    workspaceTrusted: vscode.workspace.isTrusted,
    components: settings.components,
    workspaceFolder,
    ...(additionalDirectories.length ? { additionalDirectories } : {}),
    ...(sparkle?.flags.length ? { sparkle: sparkle.flags } : {}),
    ...(proxies.length ? { proxies } : {}),
    ...(lsFlags.length ? { languageServers: lsFlags } : {}),
    ...(problems.length ? { settingProblems: problems } : {}),
  };
}

async function pickFolder(log: Log): Promise<string | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 1) return folders[0]!.uri.fsPath;
  if (folders.length === 0) {
    // ACP needs an absolute cwd; without a folder the home directory is the least surprising one.
    log.info('session', 'no workspace folder; using the home directory');
    return os.homedir();
  }
  // Logged before and after the pick: tests wait for the first event to know the real quick pick is
  // (about to be) showing, and answer it through the quick-input commands.
  log.info('session', 'asking for a workspace folder', { folders: folders.map((f) => f.uri.fsPath) });
  // Not showWorkspaceFolderPick: it hands its options to the workbench's pick() unchanged, and
  // pick() reads `ignoreFocusLost`, so its `ignoreFocusOut` has no effect (seen in VS Code 1.139).
  // The pick then closes as soon as focus moves, e.g. when the chat webview focuses the tab it has
  // just opened for this very session. showQuickPick maps ignoreFocusOut properly.
  const items = folders.map((folder) => ({ label: folder.name, description: folder.uri.fsPath, folder }));
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder: 'Workspace folder for this chat (the agent works there)',
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  if (picked) log.info('session', 'workspace folder chosen', { folder: picked.folder.uri.fsPath });
  else log.info('session', 'no workspace folder chosen');
  return picked?.folder.uri.fsPath;
}
