// Which `symposium.*` settings a workspace may set. A cloned repository's .vscode/settings.json is
// written by whoever wrote the repository, so settings that choose what runs (agents: command,
// args, env), what runs without asking (bypassPermissions, autoApprove), where agents may go
// (allowedFolders) and what sits in the chain (enabledComponents) are machine-scoped in
// package.json and read here from user/remote settings only. A workspace may still *name* one of
// the user's agents (currentAgent). Untrusted workspaces get only the built-in agent. Pure.
import * as path from 'node:path';
import { BUILTIN_AGENT_NAME, type AgentDefinition } from './agentDefinition';
import { isObject } from '../protocol/guards';

/** Settings (under `symposium.`) only user or remote/machine settings may set. */
export const USER_ONLY_SETTINGS = [
  'agents',
  'allowedFolders',
  'enabledComponents',
  'registry.urls',
  'proxies',
  'languageServers',
  'reviewAgentEdits',
  'languageServers.allowWorkspaceBinaries',
] as const;
export type UserOnlySetting = (typeof USER_ONLY_SETTINGS)[number];

/** The parts of WorkspaceConfiguration.inspect() that matter here. */
export interface Inspected<T = unknown> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/**
 * The user-level value (user or remote settings, else the default), and whether the workspace or
 * a workspace folder set one too (VS Code drops those for machine-scoped settings; we never use
 * them, whatever VS Code does).
 */
export function userLevel<T>(i: Inspected<T> | undefined): { value: T | undefined; fromWorkspace: boolean } {
  return {
    value: i?.globalValue ?? i?.defaultValue,
    fromWorkspace: i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined,
  };
}

/**
 * `symposium.allowedFolders`: absolute paths only; `~` and `~/x` mean the home folder. Anything
 * else (relative paths would be relative to who knows what; `~user` is not expanded) is refused
 * with a problem text.
 */
export function parseAllowedFolders(raw: unknown, home: string): { folders: string[]; problems: string[] } {
  const folders: string[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { folders, problems };
  if (!Array.isArray(raw)) return { folders, problems: ['symposium.allowedFolders must be a list of absolute folder paths; ignored'] };
  for (const entry of raw) {
    if (typeof entry !== 'string' || entry.trim() === '') {
      problems.push(`symposium.allowedFolders: ${JSON.stringify(entry)} is not a folder path; ignored`);
      continue;
    }
    const p = entry.trim();
    let expanded: string | undefined;
    if (p === '~') expanded = home;
    else if (p.startsWith('~/') || p.startsWith('~\\')) expanded = path.join(home, p.slice(2));
    else if (path.isAbsolute(p) && !p.includes('\0')) expanded = path.normalize(p);
    if (expanded === undefined) {
      problems.push(`symposium.allowedFolders: "${p}" is not an absolute path (or ~/…); ignored`);
      continue;
    }
    folders.push(expanded);
  }
  return { folders, problems };
}

/** JSON with comments and trailing commas (settings.json, .code-workspace) → JSON. */
export function stripJsonc(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else out += ch;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/**
 * The user-only settings a workspace settings file sets, flat (`"symposium.agents"`) or nested
 * (`"symposium": {"agents": …}`); `section` is "settings" for a .code-workspace file. A file that
 * does not parse sets nothing (VS Code cannot read it either).
 */
export function userOnlyKeysIn(text: string, section?: 'settings'): UserOnlySetting[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonc(text));
  } catch {
    return [];
  }
  const obj = section ? (parsed as Record<string, unknown> | null)?.[section] : parsed;
  if (typeof obj !== 'object' || obj === null) return [];
  const nested = (obj as Record<string, unknown>).symposium;
  // A dotted key (`registry.urls`) may also be nested one level further (`"registry": {"urls": …}`).
  const inNested = (k: string): boolean => {
    let at: unknown = nested;
    for (const part of k.split('.')) at = isObject(at) ? at[part] : undefined;
    return at !== undefined || (isObject(nested) && k in nested);
  };
  return USER_ONLY_SETTINGS.filter((k) => `symposium.${k}` in obj || inNested(k));
}

/**
 * In an untrusted workspace only the built-in ElizACP starts (it runs our own code, and every
 * file, terminal and permission request still goes through the editor); a configured agent
 * waits until the user trusts the workspace.
 */
export function agentForTrust(
  current: AgentDefinition,
  builtin: AgentDefinition,
  trusted: boolean,
): { agent: AgentDefinition; heldBack?: string } {
  if (trusted || current.name === BUILTIN_AGENT_NAME) return { agent: current };
  return { agent: builtin, heldBack: current.name };
}

/** The user's entry for an agent name, matched as `currentAgent` is (exactly, else ignoring case). */
function agentEntry(agents: unknown, name: string): Record<string, unknown> | undefined {
  if (!isObject(agents)) return undefined;
  const key = name in agents ? name : Object.keys(agents).find((k) => k.toLowerCase() === name.toLowerCase());
  const entry = key === undefined ? undefined : agents[key];
  return isObject(entry) ? entry : undefined;
}

/** Whether the user's rules let this agent act without asking (`bypassPermissions`, or any `autoApprove` kind). */
export function actsWithoutAsking(agents: unknown, name: string): boolean {
  const entry = agentEntry(agents, name);
  return entry?.bypassPermissions === true || (Array.isArray(entry?.autoApprove) && entry.autoApprove.length > 0);
}

/**
 * `symposium.currentAgent` as it counts. A workspace may name one of the user's agents, but naming
 * one that the user allowed to act without asking would let a cloned repository switch the
 * questions off: such a choice counts only once the user agreed to it for this workspace
 * (`consented`); until then the user-level choice counts and `heldBack` names the agent.
 */
export function currentAgentChoice(
  i: Inspected | undefined,
  agents: unknown,
  consented: (name: string) => boolean,
): { value: unknown; heldBack?: string } {
  const fromWorkspace = i?.workspaceFolderValue ?? i?.workspaceValue;
  const user = i?.globalValue ?? i?.defaultValue;
  if (typeof fromWorkspace !== 'string' || fromWorkspace === user) return { value: fromWorkspace ?? user };
  if (!actsWithoutAsking(agents, fromWorkspace) || consented(fromWorkspace)) return { value: fromWorkspace };
  return { value: user, heldBack: fromWorkspace };
}

/**
 * `symposium.enableExperimentalLM` in a workspace: trusted, as VS Code resolves it; untrusted,
 * the user's own value only (the provider spawns agents and answers every extension's requests,
 * so a repository must not turn it on). `ignored`: the workspace's value that was not used.
 */
export function lmEnabledFor(i: Inspected<boolean> | undefined, trusted: boolean): { enabled: boolean; ignored: boolean } {
  const workspace = i?.workspaceFolderValue ?? i?.workspaceValue;
  if (trusted) return { enabled: (workspace ?? i?.globalValue ?? i?.defaultValue) === true, ignored: false };
  const user = (i?.globalValue ?? i?.defaultValue) === true;
  return { enabled: user, ignored: workspace !== undefined && workspace !== user };
}

/**
 * A switch that widens what agents may do (all folders in one session, the user's MCP servers): on
 * by default and unless turned off anywhere. A workspace may turn it off for itself, never on
 * against the user's `false`.
 */
export function onUnlessTurnedOff(i: Inspected | undefined): boolean {
  return [i?.globalValue ?? i?.defaultValue, i?.workspaceValue, i?.workspaceFolderValue].every((v) => v !== false);
}
