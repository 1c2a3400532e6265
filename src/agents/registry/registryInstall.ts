// Installing one registry entry, an agent or a proxy (an `extensions[]` entry) alike: say what will
// run (`npx -y pkg@version`, or the archive URL with its checksum and where it goes, and every
// environment variable it sets as NAME=value) and ask once (twice for an archive without a
// checksum; never for an entry that sets a loader or installer variable, which is refused:
// installRisks.ts); a binary is then downloaded, checked and unpacked under the extension's global
// storage with progress. The caller writes the result into the user's settings.
import * as vscode from 'vscode';
import type { Log } from '../../log/logEvent';
import { errorText } from '../../protocol/errorText';
import { installBinary } from './binaryInstall';
import { missingChecksumWarning, refusedVariables, shownVariables } from './installRisks';
import { BUNDLED_SOURCE, type SourcedAgent } from './registrySources';
import { platformKey, resolveAgent, ResolveError, type LaunchPlan } from './resolveAgent';

/** What is installed: an agent (symposium.agents) or a proxy (symposium.proxies). */
export type EntryKind = 'agent' | 'proxy';

export interface InstallContext {
  log: Log;
  /** The extension's global storage folder: installs go under agents/<id>/<version>/. */
  storageDir: string;
  /** Receives what the confirmation showed: the command and each NAME=value, or the checksum warning. */
  shown(lines: string[]): void;
}

const SETTING: Record<EntryKind, string> = { agent: 'symposium.agents', proxy: 'symposium.proxies' };

/**
 * Asks about `entry` and installs what it needs. Resolves with the plan to write into the
 * settings, or undefined when it was refused, declined or failed (the user has been told).
 */
export async function confirmAndInstall(entry: SourcedAgent, kind: EntryKind, cx: InstallContext): Promise<LaunchPlan | undefined> {
  const { log } = cx;
  let plan: LaunchPlan;
  try {
    plan = resolveAgent(entry, platformKey(process.platform, process.arch), `${cx.storageDir}/agents`);
  } catch (e) {
    if (!(e instanceof ResolveError)) throw e;
    log.warn('registry', 'no usable distribution', { id: entry.id, reason: e.message });
    void vscode.window.showErrorMessage(`Symposium: ${e.message}`);
    return undefined;
  }
  const refused = refusedVariables(plan.env);
  if (refused.length) {
    log.warn('registry', 'entry sets refused environment variables', { id: entry.id, refused });
    void vscode.window.showErrorMessage(
      `Symposium: ${entry.name} was not installed: its registry entry sets ${refused.map((r) => `${r.name} (${r.reason})`).join('; ')}. ` +
        `Add it to ${SETTING[kind]} yourself if you want it so.`,
    );
    return undefined;
  }
  // Every variable is shown, as NAME=value, before anything is written to the settings.
  const variables = shownVariables(plan.env);
  const install = {
    label: kind === 'agent' ? '$(check) Install and use' : '$(check) Install and add to the chain',
    description: variables.length ? `with the ${variables.length} environment variable(s) below` : '',
    detail: plan.summary,
  };
  const envItems: vscode.QuickPickItem[] = variables.length
    ? [{ label: 'Environment variables it sets', kind: vscode.QuickPickItemKind.Separator }, ...variables.map((v) => ({ label: v }))]
    : [];
  cx.shown([install.detail, ...variables]);
  const from = entry.source === BUNDLED_SOURCE ? 'the bundled registry' : entry.source;
  const answer = await vscode.window.showQuickPick([install, { label: 'Cancel' }, ...envItems], {
    title:
      kind === 'agent'
        ? `Use ${entry.name} ${entry.version} from ${from}? It will run:`
        : `Put the proxy ${entry.name} ${entry.version} from ${from} between the editor and every agent${placement(entry)}? It will run:`,
    ignoreFocusOut: true,
  });
  if (answer !== install) {
    log.info('registry', 'install declined', { id: entry.id });
    return undefined;
  }
  const unchecked = plan.download && missingChecksumWarning(plan.download);
  if (unchecked) {
    const anyway = { label: '$(warning) Install without a checksum', detail: plan.download!.url };
    cx.shown([unchecked]);
    const second = await vscode.window.showQuickPick([{ label: 'Cancel' }, anyway], { title: unchecked, ignoreFocusOut: true });
    if (second !== anyway) {
      log.info('registry', 'install without a checksum declined', { id: entry.id });
      return undefined;
    }
    log.warn('registry', 'installing without a checksum, as the user confirmed', { id: entry.id, url: plan.download!.url });
  }
  if (plan.download && !(await download(entry, plan, log))) return undefined;
  return plan;
}

/** Where a proxy entry asks to sit, in words (empty: first, as every unplaced proxy). */
function placement(entry: SourcedAgent & { placeBefore?: string }): string {
  return entry.placeBefore ? ` (in front of ${entry.placeBefore} when symposium.enabledComponents lists it)` : '';
}

/** Downloads, checks and unpacks a binary entry with progress (cancellable); false if it failed (said). */
async function download(entry: SourcedAgent, plan: LaunchPlan, log: Log): Promise<boolean> {
  const target = plan.download!;
  log.info('registry', 'installing', { id: entry.id, version: entry.version, url: target.url, sha256: target.sha256 ?? null });
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Installing ${entry.name} ${entry.version}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        let reported = 0;
        try {
          await installBinary(target, plan.command, {
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
    return true;
  } catch (e) {
    const reason = errorText(e);
    log.error('registry', 'install failed', { id: entry.id, reason });
    void vscode.window.showErrorMessage(`Symposium: ${entry.name} was not installed: ${reason}`);
    return false;
  }
}
