// What a workspace may not set. The security-relevant settings (agents, allowedFolders,
// enabledComponents…) come from user/remote settings only (settingsScope.ts says why), and the user
// is told, once, when a workspace tried to set them: VS Code already drops machine-scoped values
// from workspace settings without a word, so besides looking at inspect() the workspace's settings
// files are scanned here; otherwise the user would not know why the repository's agent
// configuration has no effect (or that it tried). A workspace may pick symposium.currentAgent, but
// not an agent that acts without asking until the user agrees, in this workspace's own memory.
import * as vscode from 'vscode';
import { readRegularFileText } from '../node/containedFile';
import type { Log } from '../log/logEvent';
import type { SettingsNotices } from './settingsNotices';
import { currentAgentChoice, userLevel, userOnlyKeysIn, USER_ONLY_SETTINGS, type UserOnlySetting } from './settingsScope';

export const SECTION = 'symposium';
export const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration(SECTION);

const IGNORED =
  'Agents (their command, env and permission rules), allowed folders, conductor components and edit review come only from your user settings.';
/** The largest workspace settings file scanned for user-only keys. */
const SETTINGS_FILE_BYTES = 1024 * 1024;
/** workspaceState key: the agents the user let this workspace pick although they act without asking. */
const CONSENT_KEY = 'symposium.workspaceAgentConsent';

export class WorkspaceSettings implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private scanTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Log,
    private readonly notices: SettingsNotices,
    /** This workspace's memory (ExtensionContext.workspaceState), which a repository cannot write. */
    private readonly workspaceMemory: Pick<vscode.Memento, 'get' | 'update'> | undefined,
    /** The user let this workspace pick an agent: the launch settings changed. */
    private readonly onConsent: () => void,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json');
    const scanSoon = (): void => this.scanSoon();
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate(scanSoon),
      watcher.onDidChange(scanSoon),
      vscode.workspace.onDidChangeWorkspaceFolders(scanSoon),
    );
    this.scanSoon();
  }

  scanSoon(): void {
    clearTimeout(this.scanTimer);
    this.scanTimer = setTimeout(() => void this.scan(), 200);
  }

  /** `symposium.<key>` as the user set it (user or remote settings), else its default. */
  read(key: UserOnlySetting): unknown {
    const { value, fromWorkspace } = userLevel(config().inspect(key));
    if (fromWorkspace) this.tried(key, 'the workspace settings');
    return value;
  }

  /** symposium.currentAgent, a workspace's pick of an agent that acts without asking held back until the user agrees. */
  currentAgent(): unknown {
    const agents = this.read('agents');
    const consented = (name: string): boolean => (this.workspaceMemory?.get<string[]>(CONSENT_KEY) ?? []).includes(name);
    const { value, heldBack } = currentAgentChoice(config().inspect('currentAgent'), agents, consented);
    if (heldBack !== undefined) this.askWorkspaceAgent(heldBack);
    return value;
  }

  /** Looks at the workspace's settings files for user-only settings (VS Code ignores them silently). */
  async scan(): Promise<void> {
    const files: { uri: vscode.Uri; section?: 'settings' }[] = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      uri: vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'),
    }));
    const wsFile = vscode.workspace.workspaceFile;
    if (wsFile && wsFile.scheme !== 'untitled') files.push({ uri: wsFile, section: 'settings' });
    for (const { uri, section } of files) {
      let text: string;
      try {
        // A repository decides what its settings file is: a regular file, read up to a cap, or nothing.
        if (uri.scheme !== 'file') continue;
        text = (await readRegularFileText(uri.fsPath, { maxBytes: SETTINGS_FILE_BYTES })).text;
      } catch {
        continue;
      }
      for (const key of userOnlyKeysIn(text, section)) this.tried(key, uri.fsPath);
    }
    // Also what VS Code itself reports, for versions or setups that do pass workspace values on.
    for (const key of USER_ONLY_SETTINGS) this.read(key);
  }

  private askWorkspaceAgent(name: string): void {
    const id = `workspace-agent:${name}`;
    if (!this.notices.firstTime(id)) return;
    const text = `This workspace picks the agent "${name}", which your settings allow to act without asking (bypassPermissions or autoApprove). Chats use your own choice until you allow it here.`;
    this.log.warn('settings', text, { notice: id });
    void Promise.resolve(this.notices.ui.ask(`Symposium: ${text}`, `Use "${name}" in This Workspace`)).then(async (picked) => {
      if (!picked || !this.workspaceMemory) return;
      const list = this.workspaceMemory.get<string[]>(CONSENT_KEY) ?? [];
      await this.workspaceMemory.update(CONSENT_KEY, [...new Set([...list, name])]);
      this.log.info('settings', 'the workspace may pick this agent', { agent: name });
      this.onConsent();
    });
  }

  private tried(key: UserOnlySetting, source: string): void {
    this.notices.once(`workspace:${key}`, `This workspace's settings set symposium.${key}; it was ignored. ${IGNORED}`, { key, source });
  }

  dispose(): void {
    clearTimeout(this.scanTimer);
    for (const s of this.subscriptions) s.dispose();
  }
}
