// Which settings changes need "Restart Agent". A chat keeps the agent process it started with, so
// changing which agent runs (currentAgent), how it is launched (an agent's command, args or env
// in `agents`) or which conductor components sit in front of it (enabledComponents, and Sparkle's
// settings, symposium.sparkle.*, and the external proxies, symposium.proxies: conductor flags) reaches open
// chats only after a restart; new chats get it at once. Permission rules (bypassPermissions,
// autoApprove), allowedFolders, reviewAgentEdits and checkpoints.* are read on every use and need none (nor does
// enableExperimentalLM: the LM provider follows it live), so
// "Bypass Permissions" writing `agents` does not ask for a restart. Pure.
import { isObject } from '../protocol/guards';

/** The raw values of the settings that decide an agent process (as Settings reads them). */
export interface LaunchSettings {
  agents: unknown;
  currentAgent: unknown;
  enabledComponents: unknown;
  /** symposium.sparkle.* (the conductor's --sparkle-* flags). */
  sparkle?: unknown;
  /** symposium.proxies (the conductor's --proxy flags). */
  proxies?: unknown;
  /** symposium.languageServers (the conductor's --language-servers flag). */
  languageServers?: unknown;
  /** symposium.languageServers.allowWorkspaceBinaries (the conductor's --allow-workspace-language-servers flag). */
  allowWorkspaceLanguageServers?: unknown;
}

/** JSON with object keys sorted, so that equal values compare equal. */
function canonical(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x: unknown) =>
      isObject(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x,
    ) ?? 'undefined'
  );
}

/**
 * Each agent's launch definition (command, args, env), without its permission rules. An entry
 * with none of them (the built-in agent's permission settings) defines no launch.
 */
function launchDefinitions(agents: unknown): string {
  if (typeof agents !== 'object' || agents === null || Array.isArray(agents)) return canonical(agents);
  return canonical(
    Object.fromEntries(
      Object.entries(agents as Record<string, unknown>).flatMap(([name, def]) => {
        if (typeof def !== 'object' || def === null) return [[name, def]];
        const { command, args, env } = def as Record<string, unknown>;
        return command === undefined && args === undefined && env === undefined ? [] : [[name, { command, args, env }]];
      }),
    ),
  );
}

/** The settings (names under `symposium.`) whose change open chats only see after a restart. */
export function changesNeedingRestart(before: LaunchSettings, after: LaunchSettings): string[] {
  const keys: string[] = [];
  if (launchDefinitions(before.agents) !== launchDefinitions(after.agents)) keys.push('agents');
  if (canonical(before.currentAgent) !== canonical(after.currentAgent)) keys.push('currentAgent');
  if (canonical(before.enabledComponents) !== canonical(after.enabledComponents)) keys.push('enabledComponents');
  if (canonical(before.sparkle) !== canonical(after.sparkle)) keys.push('sparkle');
  if (canonical(before.proxies) !== canonical(after.proxies)) keys.push('proxies');
  if (canonical(before.languageServers) !== canonical(after.languageServers)) keys.push('languageServers');
  if (canonical(before.allowWorkspaceLanguageServers) !== canonical(after.allowWorkspaceLanguageServers))
    keys.push('languageServers.allowWorkspaceBinaries');
  return keys;
}

export const RESTART_ACTION = 'Restart Agent';

/** Tells the user the change applies to new chats and offers the restart; true if it ran. */
export async function offerRestart(
  keys: string[],
  ask: (text: string, action: string) => Thenable<string | undefined>,
  restart: () => unknown,
): Promise<boolean> {
  const names = keys.map((k) => `symposium.${k}`).join(', ');
  const choice = await ask(
    `Symposium: the change to ${names} applies to new chats. Restart the agent to apply it to open chats too?`,
    RESTART_ACTION,
  );
  if (choice !== RESTART_ACTION) return false;
  await restart();
  return true;
}
