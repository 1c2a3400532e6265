// "Symposium: Choose Agent…" (also the chat view's title button and the status bar's "Switch
// agent…"): one quick pick with the user's agents first (symposium.agents and the built-in
// ElizACP, as they are) and then the registry's (bundled + symposium.registry.urls). Choosing one
// of yours makes it current. Choosing a registry agent says what will run (`npx -y pkg@version`, or
// the archive URL with its checksum and where it goes, and every environment variable it sets as
// NAME=value) and asks once (twice for an archive without a checksum; never for an entry that sets
// a loader or installer variable, which is refused: installRisks.ts); binaries are then
// downloaded, checked and unpacked under the extension's global storage with progress; the agent
// is written to the user's symposium.agents (tagged `registry: id@version`) and made current, so
// from then on it is one of yours and is not asked about again.
import * as vscode from 'vscode';
import type { Log } from '../../log/logEvent';
import type { Settings } from '../../settings/settings';
import type { Runtime } from '../../settings/agentDefinition';
import { installBinary } from './binaryInstall';
import { missingChecksumWarning, refusedVariables, shownVariables } from './installRisks';
import bundledRegistry from './bundledRegistry.json';
import { BUNDLED_SOURCE, loadRegistries, type SourcedAgent } from './registrySources';
import { agentSettingFor, commandLine, platformKey, registryTag, resolveAgent, ResolveError, type LaunchPlan } from './resolveAgent';
import { errorText } from '../../protocol/errorText';

export interface AgentPickerDeps {
  log: Log;
  runtime: Runtime;
  settings: Pick<Settings, 'agentSettings' | 'setCurrentAgent' | 'registryUrls' | 'registryTags' | 'addAgent'>;
  /** The extension's global storage folder: installs under agents/, registry copies under registry-cache/. */
  storageDir: string;
  /** The registry shipped with the extension (tests may pass another). */
  bundled?: unknown;
}

type Choice = vscode.QuickPickItem & ({ agentName: string } | { registry: SourcedAgent });

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
    const tags = settings.registryTags();
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
    const items: (Choice | vscode.QuickPickItem)[] = [
      ...yours,
      ...(fromRegistry.length ? [{ label: 'ACP registry', kind: vscode.QuickPickItemKind.Separator }, ...fromRegistry] : []),
    ];
    this.lastChoices = [...yours, ...fromRegistry].map((c) => c.label);
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
    await this.installAndUse(picked.registry);
  }

  private async installAndUse(agent: SourcedAgent): Promise<void> {
    const { log, settings } = this.deps;
    let plan: LaunchPlan;
    try {
      plan = resolveAgent(agent, platformKey(process.platform, process.arch), `${this.deps.storageDir}/agents`);
    } catch (e) {
      if (!(e instanceof ResolveError)) throw e;
      log.warn('registry', 'no usable distribution', { id: agent.id, reason: e.message });
      void vscode.window.showErrorMessage(`Symposium: ${e.message}`);
      return;
    }
    const refused = refusedVariables(plan.env);
    if (refused.length) {
      log.warn('registry', 'entry sets refused environment variables', { id: agent.id, refused });
      void vscode.window.showErrorMessage(
        `Symposium: ${agent.name} was not installed: its registry entry sets ${refused.map((r) => `${r.name} (${r.reason})`).join('; ')}. ` +
          'Add the agent to symposium.agents yourself if you want it so.',
      );
      return;
    }
    // Every variable is shown, as NAME=value, before anything is written to the settings.
    const variables = shownVariables(plan.env);
    const install = {
      label: '$(check) Install and use',
      description: variables.length ? `with the ${variables.length} environment variable(s) below` : '',
      detail: plan.summary,
    };
    const envItems: vscode.QuickPickItem[] = variables.length
      ? [{ label: 'Environment variables it sets', kind: vscode.QuickPickItemKind.Separator }, ...variables.map((v) => ({ label: v }))]
      : [];
    this.lastConfirmation = [install.detail, ...variables];
    const answer = await vscode.window.showQuickPick([install, { label: 'Cancel' }, ...envItems], {
      title: `Use ${agent.name} ${agent.version} from ${agent.source === BUNDLED_SOURCE ? 'the bundled registry' : agent.source}? It will run:`,
      ignoreFocusOut: true,
    });
    if (answer !== install) {
      log.info('registry', 'install declined', { id: agent.id });
      return;
    }
    const unchecked = plan.download && missingChecksumWarning(plan.download);
    if (unchecked) {
      const anyway = { label: '$(warning) Install without a checksum', detail: plan.download!.url };
      this.lastConfirmation = [unchecked];
      const second = await vscode.window.showQuickPick([{ label: 'Cancel' }, anyway], { title: unchecked, ignoreFocusOut: true });
      if (second !== anyway) {
        log.info('registry', 'install without a checksum declined', { id: agent.id });
        return;
      }
      log.warn('registry', 'installing without a checksum, as the user confirmed', { id: agent.id, url: plan.download!.url });
    }
    if (plan.download) {
      const download = plan.download;
      log.info('registry', 'installing', { id: agent.id, version: agent.version, url: download.url, sha256: download.sha256 ?? null });
      try {
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Installing ${agent.name} ${agent.version}`, cancellable: true },
          async (progress, token) => {
            const abort = new AbortController();
            const cancel = token.onCancellationRequested(() => abort.abort());
            let reported = 0;
            try {
              await installBinary(download, plan.command, {
                signal: abort.signal,
                onProgress: ({ received, total }) => {
                  const percent = total ? Math.floor((received / total) * 100) : 0;
                  const mb = (received / 1024 / 1024).toFixed(1);
                  progress.report({ message: `${mb} MB`, ...(total ? { increment: percent - reported } : {}) });
                  reported = percent;
                },
              });
            } finally {
              cancel.dispose();
            }
          },
        );
      } catch (e) {
        const reason = errorText(e);
        log.error('registry', 'install failed', { id: agent.id, reason });
        void vscode.window.showErrorMessage(`Symposium: ${agent.name} was not installed: ${reason}`);
        return;
      }
    }
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

  /** The registry name, unless one of the user's own agents has it already. */
  private nameFor(agent: SourcedAgent): string {
    const { settings, runtime } = this.deps;
    const taken = settings.agentSettings(runtime).agents[agent.name];
    const tag = settings.registryTags()[agent.name];
    return taken && !tag?.startsWith(`${agent.id}@`) ? `${agent.name} (${agent.id})` : agent.name;
  }
}
