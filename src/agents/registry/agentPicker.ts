// "Symposium: Choose Agent…" (also the chat view's title button and the status bar's "Switch
// agent…"): one quick pick with the user's agents first (symposium.agents and the built-in
// ElizACP, as they are), then the registry's agents (bundled + symposium.registry.urls), then the
// registry's proxies (`extensions[]`), each marked installed once it is in symposium.proxies.
// Choosing one of your agents makes it current. Choosing a registry entry says what will run and
// installs it (registryInstall.ts, the same for agents and proxies); an agent is then written to
// the user's symposium.agents (tagged `registry: id@version`) and made current, so from then on it
// is one of yours and is not asked about again; a proxy is written to symposium.proxies (tagged the
// same way), placed in symposium.enabledComponents when its entry asks for a place and the user has
// a list there, and the settings change offers Restart Agent (restartOffer.ts) as any edit would.
import * as vscode from 'vscode';
import type { Log } from '../../log/logEvent';
import type { Settings } from '../../settings/settings';
import type { Runtime } from '../../settings/agentDefinition';
import bundledRegistry from './bundledRegistry.json';
import { confirmAndInstall, type InstallContext } from './registryInstall';
import { BUNDLED_SOURCE, loadRegistries, type SourcedAgent, type SourcedExtension } from './registrySources';
import { agentSettingFor, commandLine, proxyNameFor, registryTag } from './resolveAgent';

export interface AgentPickerDeps {
  log: Log;
  runtime: Runtime;
  settings: Pick<
    Settings,
    'agentSettings' | 'setCurrentAgent' | 'registryUrls' | 'registryTags' | 'addAgent' | 'addProxy' | 'proxySettings'
  >;
  /** The extension's global storage folder: installs under agents/, registry copies under registry-cache/. */
  storageDir: string;
  /** The registry shipped with the extension (tests may pass another). */
  bundled?: unknown;
}

/** The `extensions[]` id of Symposium's own conductor package (docs/editors.md). */
const OWN_PACKAGE_ID = 'symposium-acp';

type Choice = vscode.QuickPickItem &
  ({ agentName: string } | { registry: SourcedAgent } | { proxy: SourcedExtension; installedAs: string | undefined });

export class AgentPicker {
  /** The labels of the last pick shown, in order (tests find an item's position here). */
  lastChoices: string[] = [];
  /** What the last install confirmation showed: the command and each NAME=value, or the checksum warning. */
  lastConfirmation: string[] = [];

  constructor(private readonly deps: AgentPickerDeps) {}

  async choose(): Promise<void> {
    const { log, settings, runtime } = this.deps;
    // Remote files may take up to their timeout: say so in the status bar meanwhile.
    const loaded = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading agent registries…' }, () =>
      loadRegistries({
        bundled: this.deps.bundled ?? bundledRegistry,
        urls: settings.registryUrls(),
        cacheDir: `${this.deps.storageDir}/registry-cache`,
        log,
      }),
    );
    for (const s of loaded.stale)
      void vscode.window.showWarningMessage(`Symposium: could not reach ${s.url}; its agents are from the copy of ${s.fetchedAt}.`);
    if (loaded.problems.length)
      void vscode.window.showWarningMessage(
        `Symposium: ${loaded.problems.length} problem(s) reading agent registries (see Symposium: Show Logs): ${loaded.problems[0]}`,
      );
    const agentSettings = settings.agentSettings(runtime);
    const current = agentSettings.current.name;
    const tags = settings.registryTags('agents');
    const installed = new Set(Object.values(tags));
    const yours: Choice[] = Object.values(agentSettings.agents).map((a) => ({
      label: a.name,
      description: [a.name === current ? 'current' : '', tags[a.name] ? `from the registry (${tags[a.name]})` : '']
        .filter(Boolean)
        .join(' · '),
      detail: commandLine(a.command, a.args),
      agentName: a.name,
    }));
    const fromRegistry: Choice[] = loaded.agents
      .filter((a) => !installed.has(registryTag(a)))
      .map((a) => ({
        label: `$(cloud-download) ${a.name}`,
        description: `${a.version} · ${Object.keys(a.distribution).join('/')} · ${a.source === BUNDLED_SOURCE ? 'bundled registry' : a.source}`,
        detail: a.description,
        registry: a,
      }));
    const proxies = this.proxyChoices(loaded.extensions);
    const items: (Choice | vscode.QuickPickItem)[] = [
      ...yours,
      ...(fromRegistry.length ? [{ label: 'ACP registry', kind: vscode.QuickPickItemKind.Separator }, ...fromRegistry] : []),
      ...(proxies.length ? [{ label: 'Proxies', kind: vscode.QuickPickItemKind.Separator }, ...proxies] : []),
    ];
    this.lastChoices = [...yours, ...fromRegistry, ...proxies].map((c) => c.label);
    log.info('registry', 'choosing an agent', { choices: this.lastChoices });
    const picked = (await vscode.window.showQuickPick(items, {
      title: 'Choose the agent for new chats (Restart Agent applies it to open ones)',
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    })) as Choice | undefined;
    if (!picked) return;
    if ('agentName' in picked) {
      if (picked.agentName !== current) await settings.setCurrentAgent(picked.agentName);
      return;
    }
    if ('registry' in picked) return this.installAndUse(picked.registry);
    if (picked.installedAs === undefined) return this.installProxy(picked.proxy);
    void vscode.window.showInformationMessage(
      `Symposium: ${picked.proxy.name} is in symposium.proxies as "${picked.installedAs}"; edit or remove it there.`,
    );
  }

  /** The registry's proxies: the ones in symposium.proxies (same id@version) marked installed. */
  private proxyChoices(extensions: readonly SourcedExtension[]): Choice[] {
    const byTag = new Map(Object.entries(this.deps.settings.registryTags('proxies')).map(([name, tag]) => [tag, name]));
    // Our own npm package is listed in extensions[] for other editors; here it is the conductor
    // itself, which runs in front of the agent already and does not speak the proxy protocol.
    return extensions
      .filter((p) => p.id !== OWN_PACKAGE_ID)
      .map((p) => {
        const installedAs = byTag.get(registryTag(p));
        const from = p.source === BUNDLED_SOURCE ? 'bundled registry' : p.source;
        return {
          label: `${installedAs === undefined ? '$(plug)' : '$(check)'} ${p.name}`,
          description: [
            installedAs === undefined ? '' : `installed as "${installedAs}"`,
            p.version,
            Object.keys(p.distribution).join('/'),
            from,
          ]
            .filter(Boolean)
            .join(' · '),
          detail: p.description,
          proxy: p,
          installedAs,
        };
      });
  }

  private async installAndUse(agent: SourcedAgent): Promise<void> {
    const plan = await confirmAndInstall(agent, 'agent', this.installContext());
    if (!plan) return;
    const { log, settings } = this.deps;
    const name = this.nameFor(agent);
    await settings.addAgent(name, agentSettingFor(agent, plan));
    await settings.setCurrentAgent(name);
    // The registry's env values are not logged (only their names): they may hold keys.
    log.info('registry', 'agent added from the registry', {
      name,
      id: agent.id,
      version: agent.version,
      kind: plan.kind,
      command: plan.command,
      args: plan.args,
      env: Object.keys(plan.env),
    });
  }

  /** A proxy from the registry: installed like an agent, then added to symposium.proxies (the chain restarts on the user's word). */
  private async installProxy(proxy: SourcedExtension): Promise<void> {
    const plan = await confirmAndInstall(proxy, 'proxy', this.installContext());
    if (!plan) return;
    const { log, settings } = this.deps;
    const name = proxyNameFor(proxy, settings.registryTags('proxies'), settings.proxySettings().proxies);
    const placed = await settings.addProxy(name, agentSettingFor(proxy, plan), proxy.placeBefore);
    log.info('registry', 'proxy added from the registry', {
      name,
      id: proxy.id,
      version: proxy.version,
      kind: plan.kind,
      command: plan.command,
      args: plan.args,
      env: Object.keys(plan.env),
      placedBefore: placed ? proxy.placeBefore : null,
    });
  }

  private installContext(): InstallContext {
    return { log: this.deps.log, storageDir: this.deps.storageDir, shown: (lines) => (this.lastConfirmation = lines) };
  }

  /** The registry name, unless one of the user's own agents has it already. */
  private nameFor(agent: SourcedAgent): string {
    const { settings, runtime } = this.deps;
    const taken = settings.agentSettings(runtime).agents[agent.name];
    const tag = settings.registryTags()[agent.name];
    return taken && !tag?.startsWith(`${agent.id}@`) ? `${agent.name} (${agent.id})` : agent.name;
  }
}
