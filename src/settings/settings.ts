// Reads the security-relevant `symposium.*` settings from user/remote settings only (see
// settingsScope.ts for why), and tells the user, once, when a workspace tried to set them. VS Code
// already drops machine-scoped values from workspace settings without a word, so besides looking
// at inspect() we scan the workspace's settings files ourselves: otherwise the user would not know
// why the repository's agent configuration has no effect (or that it tried).
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Log } from '../log/logEvent';
import { parseAllowedFolders, userLevel, userOnlyKeysIn, USER_ONLY_SETTINGS, type UserOnlySetting } from './settingsScope';

const IGNORED = 'Agents (their command, env and permission rules), allowed folders and conductor components come only from your user settings.';

export class UserSettings implements vscode.Disposable {
  /** Notices already shown in this activation (each is shown once). */
  private readonly noticed = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private scanTimer: NodeJS.Timeout | undefined;

  constructor(private readonly log: Log, private readonly notify: (text: string) => void = (text) => void vscode.window.showWarningMessage(text)) {
    const scanSoon = (): void => { clearTimeout(this.scanTimer); this.scanTimer = setTimeout(() => void this.scanWorkspace(), 200); };
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json');
    this.subscriptions.push(
      watcher, watcher.onDidCreate(scanSoon), watcher.onDidChange(scanSoon),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('symposium')) scanSoon(); }),
      vscode.workspace.onDidChangeWorkspaceFolders(scanSoon),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.log.info('settings', 'workspace trusted: new sessions (and Restart Agent) start the configured agent')),
    );
    scanSoon();
  }

  /** `symposium.<key>` as the user set it (user or remote settings), else its default. */
  read(key: UserOnlySetting): unknown {
    const { value, fromWorkspace } = userLevel(vscode.workspace.getConfiguration('symposium').inspect(key));
    if (fromWorkspace) this.workspaceTried(key, 'the workspace settings');
    return value;
  }

  /** A workspace may name the agent (one of the user's, or the built-in one). */
  currentAgent(): unknown {
    return vscode.workspace.getConfiguration('symposium').get('currentAgent');
  }

  /** `symposium.allowedFolders`, absolute with `~` expanded; other entries are refused, once. */
  allowedFolders(): string[] {
    const { folders, problems } = parseAllowedFolders(this.read('allowedFolders'), os.homedir());
    const fresh = problems.filter((p) => !this.noticed.has(p));
    if (fresh.length) {
      for (const p of fresh) { this.noticed.add(p); this.log.warn('settings', p); }
      this.notify(`Symposium: ${fresh.join('; ')}. Use absolute paths (or ~/…).`);
    }
    return folders;
  }

  /** An untrusted workspace got the built-in agent instead of `agentName`. */
  heldBack(agentName: string): void {
    this.noticeOnce(`untrusted:${agentName}`, `This workspace is not trusted, so the agent "${agentName}" was not started; chats use the built-in ElizACP. Trust the workspace, then use Restart Agent.`);
  }

  /** Looks at the workspace's settings files for user-only settings (VS Code ignores them silently). */
  async scanWorkspace(): Promise<void> {
    const files: { uri: vscode.Uri; section?: 'settings' }[] = (vscode.workspace.workspaceFolders ?? [])
      .map((f) => ({ uri: vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json') }));
    const wsFile = vscode.workspace.workspaceFile;
    if (wsFile && wsFile.scheme !== 'untitled') files.push({ uri: wsFile, section: 'settings' });
    for (const { uri, section } of files) {
      let text: string;
      try { text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)); } catch { continue; }
      for (const key of userOnlyKeysIn(text, section)) this.workspaceTried(key, uri.fsPath);
    }
    // Also what VS Code itself reports, for versions or setups that do pass workspace values on.
    for (const key of USER_ONLY_SETTINGS) this.read(key);
  }

  private workspaceTried(key: UserOnlySetting, source: string): void {
    this.noticeOnce(`workspace:${key}`, `This workspace's settings set symposium.${key}; it was ignored. ${IGNORED}`, { key, source });
  }

  private noticeOnce(id: string, text: string, data?: Record<string, unknown>): void {
    if (this.noticed.has(id)) return;
    this.noticed.add(id);
    this.log.warn('settings', text, { notice: id, ...data });
    this.notify(`Symposium: ${text}`);
  }

  dispose(): void {
    clearTimeout(this.scanTimer);
    for (const s of this.subscriptions) s.dispose();
  }
}
