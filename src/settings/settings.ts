// Settings: the one reader (and writer) of every `symposium.*` setting, with a typed getter each.
// The security-relevant ones (agents, allowedFolders, enabledComponents) are read from user/remote
// settings only, and the user is told once when a workspace tried to set them (workspaceSettings.ts).
// A change that open chats only see after a restart (which agent runs, how, with which
// components; restartOffer.ts) offers "Restart Agent".
import * as os from 'node:os';
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
import { lmEnabledFor, onUnlessTurnedOff, parseAllowedFolders, type UserOnlySetting } from './settingsScope';
import { defaultSettingsUi, SettingsNotices, type SettingsUi } from './settingsNotices';
import { config, SECTION, WorkspaceSettings } from './workspaceSettings';

export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export class Settings implements vscode.Disposable {
  private readonly notices: SettingsNotices;
  private readonly workspace: WorkspaceSettings;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The launch settings as of the last change, to tell which ones a change touched. */
  private launch: LaunchSettings;
  /** While several settings are written as one change (addProxy), its restart offer waits for the last. */
  private holdRestartOffer = false;

  constructor(
    private readonly log: Log,
    private readonly ui: SettingsUi = defaultSettingsUi,
    /** This workspace's memory (ExtensionContext.workspaceState), which a repository cannot write. */
    workspaceMemory?: Pick<vscode.Memento, 'get' | 'update'>,
  ) {
    this.notices = new SettingsNotices(log, ui);
    this.workspace = new WorkspaceSettings(log, this.notices, workspaceMemory, () => {
      this.launch = this.launchSettings();
      this.ui.restartAgent();
    });
    this.launch = this.launchSettings();
    this.subscriptions.push(
      this.workspace,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SECTION)) return;
        this.workspace.scanSoon();
        this.launchSettingsChanged();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() =>
        this.log.info('settings', 'workspace trusted: new sessions (and Restart Agent) start the configured agent'),
      ),
    );
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
    const fresh = problems.filter((p) => this.notices.firstTime(p));
    if (fresh.length) {
      for (const p of fresh) this.log.warn('settings', p);
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
    this.notices.once('registry.urls', 'symposium.registry.urls must be a list of URLs; ignored.');
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
      this.notices.once(
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
    this.notices.once(
      `untrusted:${agentName}`,
      `This workspace is not trusted, so the agent "${agentName}" was not started; chats use the built-in ElizACP. Trust the workspace, then use Restart Agent.`,
    );
  }

  /** What decides which agent process a new chat gets (user-level where it must be). */
  private launchSettings(): LaunchSettings {
    // A workspace may name the agent (one of the user's, or the built-in one): read as VS Code resolves it.
    return {
      agents: this.read('agents'),
      currentAgent: this.workspace.currentAgent(),
      enabledComponents: this.read('enabledComponents'),
      sparkle: this.sparkleRaw(),
      proxies: this.read('proxies'),
      languageServers: this.read('languageServers'),
      allowWorkspaceLanguageServers: this.read('languageServers.allowWorkspaceBinaries'),
    };
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
    return this.workspace.read(key);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
