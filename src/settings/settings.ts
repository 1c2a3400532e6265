// Settings: the one reader (and writer) of every `symposium.*` setting, with a typed getter each.
// The security-relevant ones (agents, allowedFolders, enabledComponents) are read from user/remote
// settings only (settingsScope.ts says why), and the user is told, once, when a workspace tried to
// set them: VS Code already drops machine-scoped values from workspace settings without a word,
// so besides looking at inspect() we scan the workspace's settings files ourselves; otherwise the
// user would not know why the repository's agent configuration has no effect (or that it tried).
// A change that open chats only see after a restart (which agent runs, how, with which
// components; restartOffer.ts) offers "Restart Agent".
import * as os from 'node:os';
import { readRegularFileText } from '../node/containedFile';
import * as vscode from 'vscode';
import { BUILTIN_AGENT_NAME, type Runtime } from './agentDefinition';
import { parseAgentSettings, parsePermissionPolicy, type AgentSettings, type PermissionPolicy } from './agentSettings';
import { sparkleFlags, type RawSparkleSettings, type SparkleFlags } from './sparkleSettings';
import { parseProxySettings, type ProxySettings } from './proxySettings';
import { languageServerFlags, type LanguageServerFlags } from './languageServerSettings';
import type { Log } from '../log/logEvent';
import { LIMITS } from '../protocol/webviewMessages';
import { changesNeedingRestart, offerRestart, type LaunchSettings } from './restartOffer';
import { settingProblems, type SettingProblem } from './settingProblems';
import {
  currentAgentChoice,
  lmEnabledFor,
  onUnlessTurnedOff,
  parseAllowedFolders,
  userLevel,
  userOnlyKeysIn,
  USER_ONLY_SETTINGS,
  type UserOnlySetting,
} from './settingsScope';

const SECTION = 'symposium';
const IGNORED =
  'Agents (their command, env and permission rules), allowed folders, conductor components and edit review come only from your user settings.';
/** The largest workspace settings file scanned for user-only keys. */
const SETTINGS_FILE_BYTES = 1024 * 1024;
/** workspaceState key: the agents the user let this workspace pick although they act without asking. */
const CONSENT_KEY = 'symposium.workspaceAgentConsent';

/** How Settings talks to the user (tests and the plain API pass their own). */
export interface SettingsUi {
  /** A warning (settings that were ignored or refused). */
  warn(text: string): void;
  /** A question with one action; resolves with the action if the user chose it. */
  ask(text: string, action: string): Thenable<string | undefined>;
  /** Runs the Restart Agent command. */
  restartAgent(): unknown;
}

const defaultUi: SettingsUi = {
  warn: (text) => void vscode.window.showWarningMessage(text),
  ask: (text, action) => vscode.window.showInformationMessage(text, action),
  restartAgent: () => vscode.commands.executeCommand('symposium.restartAgent'),
};

export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration(SECTION);

export class Settings implements vscode.Disposable {
  /** Notices already shown in this activation (each is shown once). */
  private readonly noticed = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private scanTimer: NodeJS.Timeout | undefined;
  /** The launch settings as of the last change, to tell which ones a change touched. */
  private launch: LaunchSettings;
  /** While several settings are written as one change (addProxy), its restart offer waits for the last. */
  private holdRestartOffer = false;

  constructor(
    private readonly log: Log,
    private readonly ui: SettingsUi = defaultUi,
    /** This workspace's memory (ExtensionContext.workspaceState), which a repository cannot write. */
    private readonly workspaceMemory?: Pick<vscode.Memento, 'get' | 'update'>,
  ) {
    this.launch = this.launchSettings();
    const scanSoon = (): void => {
      clearTimeout(this.scanTimer);
      this.scanTimer = setTimeout(() => void this.scanWorkspace(), 200);
    };
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json');
    this.subscriptions.push(
      watcher,
      watcher.onDidCreate(scanSoon),
      watcher.onDidChange(scanSoon),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SECTION)) return;
        scanSoon();
        this.launchSettingsChanged();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(scanSoon),
      vscode.workspace.onDidGrantWorkspaceTrust(() =>
        this.log.info('settings', 'workspace trusted: new sessions (and Restart Agent) start the configured agent'),
      ),
    );
    scanSoon();
  }

  /** symposium.agents, symposium.currentAgent and symposium.enabledComponents, parsed (problems included). */
  agentSettings(rt: Runtime): AgentSettings {
    return parseAgentSettings(this.launchSettings(), rt);
  }

  /** The permission rules of one agent (symposium.agents.<name>); read per request, so edits apply at once. */
  permissionPolicy(agentName: string): PermissionPolicy {
    return parsePermissionPolicy(this.read('agents'), agentName);
  }

  /** symposium.allowedFolders, absolute with `~` expanded; other entries are refused, once. */
  allowedFolders(): string[] {
    const { folders, problems } = parseAllowedFolders(this.read('allowedFolders'), os.homedir());
    const fresh = problems.filter((p) => !this.noticed.has(p));
    if (fresh.length) {
      for (const p of fresh) {
        this.noticed.add(p);
        this.log.warn('settings', p);
      }
      this.ui.warn(`Symposium: ${fresh.join('; ')}. Use absolute paths (or ~/…).`);
    }
    return folders;
  }

  /** symposium.sparkle.* as conductor flags (window scope: a workspace may choose its sparkler or core mode). */
  sparkleSettings(): SparkleFlags {
    return sparkleFlags(this.sparkleRaw());
  }

  /** symposium.proxies: external proxy processes for the conductor's chain; user settings only. */
  proxySettings(): ProxySettings {
    return parseProxySettings(this.read('proxies'));
  }

  /**
   * symposium.languageServers as the conductor's --language-servers flag, and
   * symposium.languageServers.allowWorkspaceBinaries as --allow-workspace-language-servers; user settings only.
   */
  languageServerSettings(): LanguageServerFlags {
    return languageServerFlags(this.read('languageServers'), this.read('languageServers.allowWorkspaceBinaries'));
  }

  private sparkleRaw(): RawSparkleSettings {
    const c = config();
    return { sparkler: c.get('sparkle.sparkler'), mode: c.get('sparkle.mode'), checkpointEvery: c.get('sparkle.checkpointEvery') };
  }

  /** symposium.maxImageBytes: the largest image a user may paste or drop into a prompt (default 5 MB). */
  maxImageBytes(): number {
    const v = config().get<unknown>('maxImageBytes');
    return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? Math.min(v, LIMITS.imageBytes) : DEFAULT_MAX_IMAGE_BYTES;
  }

  /**
   * symposium.mcpServers.enabled (default true): whether sessions get the user's MCP servers
   * (src/mcp/). A workspace may turn it off, never on against the user's own setting.
   */
  mcpServersEnabled(): boolean {
    return onUnlessTurnedOff(config().inspect<unknown>('mcpServers.enabled'));
  }

  /** symposium.history.maxConversations: stored conversations kept per workspace (default 200). */
  historyMaxConversations(): number {
    const v = config().get<unknown>('history.maxConversations');
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? Math.min(v, 10_000) : 200;
  }

  /** symposium.checkpoints.enabled: a checkpoint of the session's folders before every prompt (default on). */
  checkpointsEnabled(): boolean {
    return config().get<unknown>('checkpoints.enabled') !== false;
  }

  /** symposium.checkpoints.maxMegabytes: the most a folder's checkpoints take on disk (default 500 MB). */
  checkpointsMaxBytes(): number {
    const v = config().get<unknown>('checkpoints.maxMegabytes');
    return (typeof v === 'number' && Number.isFinite(v) && v >= 10 ? Math.min(v, 100_000) : 500) * 1024 * 1024;
  }

  /**
   * symposium.allFoldersInSession (default on): in a multi-root workspace a session also gets the
   * other workspace folders (ACP `additionalDirectories`), and the agent may read and write there.
   * A workspace may turn it off for itself, never on against the user's setting: it widens what an
   * agent may touch.
   */
  allFoldersInSession(): boolean {
    return onUnlessTurnedOff(config().inspect<unknown>('allFoldersInSession'));
  }

  /** symposium.restoreTabs: reopen the chats that were open when the window closed (never, ask, always). */
  restoreTabs(): 'never' | 'ask' | 'always' {
    const v = config().get<unknown>('restoreTabs');
    return v === 'ask' || v === 'always' ? v : 'never';
  }

  /** Switches symposium.currentAgent in user settings (the status bar's "Switch agent"). */
  async setCurrentAgent(name: string): Promise<void> {
    await config().update('currentAgent', name, vscode.ConfigurationTarget.Global);
  }

  /** symposium.registry.urls: the user's ACP registry files (http(s) or file URLs); user settings only. */
  registryUrls(): string[] {
    const raw = this.read('registry.urls');
    if (raw === undefined || raw === null) return [];
    if (Array.isArray(raw) && raw.every((u) => typeof u === 'string')) return raw.map((u) => u.trim()).filter(Boolean);
    this.noticeOnce('registry.urls', 'symposium.registry.urls must be a list of URLs; ignored.');
    return [];
  }

  /** The `registry` tags (`id@version`) of the user's agents (or proxies) that came from the registry, by name. */
  registryTags(key: 'agents' | 'proxies' = 'agents'): Record<string, string> {
    const entries = this.read(key);
    const tags: Record<string, string> = {};
    if (typeof entries !== 'object' || entries === null) return tags;
    for (const [name, entry] of Object.entries(entries as Record<string, unknown>)) {
      const tag = (entry as { registry?: unknown } | null)?.registry;
      if (typeof tag === 'string') tags[name] = tag;
    }
    return tags;
  }

  /** Adds (or replaces) one agent in the user's symposium.agents, keeping the others. */
  async addAgent(name: string, entry: Record<string, unknown>): Promise<void> {
    const cfg = config();
    const user = cfg.inspect<Record<string, unknown>>('agents')?.globalValue ?? {};
    await cfg.update('agents', { ...user, [name]: entry }, vscode.ConfigurationTarget.Global);
  }

  /**
   * Adds (or replaces) one proxy in the user's symposium.proxies, keeping the others; with
   * `before`, it is put in front of that component in the user's symposium.enabledComponents when
   * that is a list naming it (without a list, proxies go first, in front of every component).
   * Both writes make one settings change: one Restart Agent offer. True if it was placed.
   */
  async addProxy(name: string, entry: Record<string, unknown>, before?: string): Promise<boolean> {
    const cfg = config();
    const components = cfg.inspect<unknown>('enabledComponents')?.globalValue;
    const place = before !== undefined && Array.isArray(components) && components.includes(before) && !components.includes(name);
    this.holdRestartOffer = true;
    try {
      if (place) {
        const list = components as unknown[];
        const at = list.indexOf(before);
        await cfg.update('enabledComponents', [...list.slice(0, at), name, ...list.slice(at)], vscode.ConfigurationTarget.Global);
      }
      const user = cfg.inspect<Record<string, unknown>>('proxies')?.globalValue ?? {};
      await cfg.update('proxies', { ...user, [name]: entry }, vscode.ConfigurationTarget.Global);
    } finally {
      this.holdRestartOffer = false;
    }
    this.launchSettingsChanged();
    return place;
  }

  /**
   * symposium.enableExperimentalLM: the Symposium language models (src/lm/) are registered. In an
   * untrusted workspace only the user's own value counts (settingsScope.ts), and the user is told
   * once when the workspace's was ignored.
   */
  enableExperimentalLM(trusted = vscode.workspace.isTrusted): boolean {
    const { enabled, ignored } = lmEnabledFor(config().inspect<boolean>('enableExperimentalLM'), trusted);
    if (ignored)
      this.noticeOnce(
        'untrusted:enableExperimentalLM',
        "This workspace is not trusted, so its setting symposium.enableExperimentalLM was ignored; your user setting applies. Trust the workspace to use the workspace's value.",
      );
    return enabled;
  }

  /**
   * symposium.lm.maxInputTokens / maxOutputTokens: the limits the Symposium models announce (ACP
   * agents manage their own context; these only bound what consumers send). Bad values → defaults.
   */
  lmTokenLimits(defaults: { maxInputTokens: number; maxOutputTokens: number }): { maxInputTokens: number; maxOutputTokens: number } {
    const read = (key: string, fallback: number): number => {
      const v = config().get<unknown>(key);
      return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback;
    };
    return {
      maxInputTokens: read('lm.maxInputTokens', defaults.maxInputTokens),
      maxOutputTokens: read('lm.maxOutputTokens', defaults.maxOutputTokens),
    };
  }

  /** symposium.reviewAgentEdits: agent writes wait in a diff view for Accept / Reject. */
  reviewAgentEdits(): boolean {
    return this.read('reviewAgentEdits') === true;
  }

  /** "Bypass Permissions": sets `symposium.agents.<agent>.bypassPermissions: true` in user settings, keeping the rest. */
  async enableBypass(agentName: string): Promise<void> {
    const cfg = config();
    const user = cfg.inspect<Record<string, unknown>>('agents')?.globalValue ?? {};
    const entry = (user[agentName] ?? {}) as Record<string, unknown>;
    // Agents come from user settings only, so the entry (with its command) is already there; the
    // built-in agent's entry holds only permission settings. Nothing is copied from the workspace.
    if (agentName !== BUILTIN_AGENT_NAME && entry.command === undefined)
      throw new Error(`${agentName} is not an agent of your user settings`);
    await cfg.update('agents', { ...user, [agentName]: { ...entry, bypassPermissions: true } }, vscode.ConfigurationTarget.Global);
  }

  /** What new chats cannot honour of the user's settings now (the status bar shows it; resolveConfiguration.ts tells each chat). */
  settingProblems(rt: Runtime): SettingProblem[] {
    const s = this.agentSettings(rt);
    const untrusted = !vscode.workspace.isTrusted && s.current.name !== BUILTIN_AGENT_NAME;
    return settingProblems({
      ...(s.missing !== undefined ? { missingAgent: s.missing } : {}),
      ...(untrusted ? { untrustedAgent: s.current.name } : {}),
      using: untrusted ? BUILTIN_AGENT_NAME : s.current.name,
      remote: vscode.env.remoteName !== undefined,
    });
  }

  /** An untrusted workspace got the built-in agent instead of `agentName`. */
  heldBack(agentName: string): void {
    this.noticeOnce(
      `untrusted:${agentName}`,
      `This workspace is not trusted, so the agent "${agentName}" was not started; chats use the built-in ElizACP. Trust the workspace, then use Restart Agent.`,
    );
  }

  /** Looks at the workspace's settings files for user-only settings (VS Code ignores them silently). */
  async scanWorkspace(): Promise<void> {
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
      for (const key of userOnlyKeysIn(text, section)) this.workspaceTried(key, uri.fsPath);
    }
    // Also what VS Code itself reports, for versions or setups that do pass workspace values on.
    for (const key of USER_ONLY_SETTINGS) this.read(key);
  }

  /** What decides which agent process a new chat gets (user-level where it must be). */
  private launchSettings(): LaunchSettings {
    // A workspace may name the agent (one of the user's, or the built-in one): read as VS Code resolves it.
    return {
      agents: this.read('agents'),
      currentAgent: this.currentAgent(),
      enabledComponents: this.read('enabledComponents'),
      sparkle: this.sparkleRaw(),
      proxies: this.read('proxies'),
      languageServers: this.read('languageServers'),
      allowWorkspaceLanguageServers: this.read('languageServers.allowWorkspaceBinaries'),
    };
  }

  /** symposium.currentAgent, a workspace's pick of an agent that acts without asking held back until the user agrees. */
  private currentAgent(): unknown {
    const agents = this.read('agents');
    const consented = (name: string): boolean => (this.workspaceMemory?.get<string[]>(CONSENT_KEY) ?? []).includes(name);
    const { value, heldBack } = currentAgentChoice(config().inspect('currentAgent'), agents, consented);
    if (heldBack !== undefined) this.askWorkspaceAgent(heldBack);
    return value;
  }

  private askWorkspaceAgent(name: string): void {
    const id = `workspace-agent:${name}`;
    if (this.noticed.has(id)) return;
    this.noticed.add(id);
    const text = `This workspace picks the agent "${name}", which your settings allow to act without asking (bypassPermissions or autoApprove). Chats use your own choice until you allow it here.`;
    this.log.warn('settings', text, { notice: id });
    void Promise.resolve(this.ui.ask(`Symposium: ${text}`, `Use "${name}" in This Workspace`)).then(async (picked) => {
      if (!picked || !this.workspaceMemory) return;
      const list = this.workspaceMemory.get<string[]>(CONSENT_KEY) ?? [];
      await this.workspaceMemory.update(CONSENT_KEY, [...new Set([...list, name])]);
      this.log.info('settings', 'the workspace may pick this agent', { agent: name });
      this.launch = this.launchSettings();
      this.ui.restartAgent();
    });
  }

  private launchSettingsChanged(): void {
    if (this.holdRestartOffer) return;
    const before = this.launch;
    this.launch = this.launchSettings();
    const keys = changesNeedingRestart(before, this.launch);
    if (keys.length === 0) return;
    this.log.info('settings', 'changed; open chats use it after a restart', { restartKeys: keys });
    void offerRestart(keys, this.ui.ask, this.ui.restartAgent);
  }

  /** `symposium.<key>` as the user set it (user or remote settings), else its default. */
  private read(key: UserOnlySetting): unknown {
    const { value, fromWorkspace } = userLevel(config().inspect(key));
    if (fromWorkspace) this.workspaceTried(key, 'the workspace settings');
    return value;
  }

  private workspaceTried(key: UserOnlySetting, source: string): void {
    this.noticeOnce(`workspace:${key}`, `This workspace's settings set symposium.${key}; it was ignored. ${IGNORED}`, { key, source });
  }

  private noticeOnce(id: string, text: string, data?: Record<string, unknown>): void {
    if (this.noticed.has(id)) return;
    this.noticed.add(id);
    this.log.warn('settings', text, { notice: id, ...data });
    this.ui.warn(`Symposium: ${text}`);
  }

  dispose(): void {
    clearTimeout(this.scanTimer);
    for (const s of this.subscriptions) s.dispose();
  }
}
