// Agent configuration and sharing: what decides which conductor process a tab talks to is the
// agent, the enabled conductor components and the workspace folder. Tabs with equal configurations
// share one process, each with its own session. Also: how that process is spawned. Pure.
import type { SettingsTarget } from '../protocol/webview';
import type { SessionMcpServers } from '../mcp/mcpSummary';
import { BUILTIN_AGENT_NAME, bundleEnv, conductorScript, type AgentDefinition, type Runtime } from '../settings/agentDefinition';
import { proxyLaunch, type ProxyDefinition } from '../settings/proxySettings';
import type { ActorSessionSetup } from './agentActor';

export interface AgentConfiguration {
  agent: AgentDefinition;
  /** Conductor components in chain order; null lets the conductor use its defaults. */
  components: string[] | null;
  /** Absolute path: the conductor's working directory and every session's `cwd`. */
  workspaceFolder: string;
  /**
   * The workspace's other folders (absolute), offered to the agent as the session's
   * `additionalDirectories` (symposium.allFoldersInSession); absent: only workspaceFolder. Not part
   * of the configuration key: it is per session, and the agent says whether it takes them.
   */
  additionalDirectories?: string[];
  /** `--sparkle-*` flags from `symposium.sparkle.*` (sparkleSettings.ts); absent: the conductor's defaults. */
  sparkle?: string[];
  /** External proxy processes from `symposium.proxies` (proxySettings.ts); absent: none. */
  proxies?: ProxyDefinition[];
  /** `--language-servers` from `symposium.languageServers` (languageServerSettings.ts); absent: the built-in table. */
  languageServers?: string[];
  /** Settings the user wrote that this configuration could not honour; the chat shows each (settingProblems.ts). */
  settingProblems?: { text: string; target: SettingsTarget }[];
  /** VS Code trusts the workspace (agentEnvOf tells the agent). */
  workspaceTrusted?: boolean;
  /** The user's own MCP servers for this folder's sessions (src/mcp/); not part of the process's key. */
  userMcp?: SessionMcpServers;
}

/** How a session of this configuration is set up (new or forked): its folders and the user's MCP servers. */
export function sessionSetup(c: AgentConfiguration, decorate?: ActorSessionSetup['decorate']): ActorSessionSetup {
  return { cwd: c.workspaceFolder, additionalDirectories: c.additionalDirectories, mcpServers: c.userMcp?.servers, decorate };
}

export interface SpawnSpec {
  command: string;
  args: string[];
  /** Added to the extension host's environment. */
  env: Record<string, string>;
  /** Removed from the extension host's environment first. */
  unsetEnv: string[];
  cwd: string;
  /**
   * Environments for the processes the conductor starts (the agent's, the proxies'): handed over
   * on a pipe (conductorProcess.ts, STARTUP_FD_VAR), never as the conductor's own environment.
   */
  startup?: StartupEnv;
}

/** What the conductor reads from its start-up pipe. The same shape as StartupEnv in conductor/startupEnv.ts. */
export interface StartupEnv {
  /** The agent's `env`, for the agent process only. */
  agentEnv: Record<string, string>;
  /** Each proxy's `env`, by proxy name, for that proxy's process only. */
  proxyEnv: Record<string, Record<string, string>>;
}

/**
 * Not inherited by the conductor from the extension host: they would change how its Node starts
 * (preloaded code, other module paths). An agent that needs them sets them in its own `env`.
 */
const CONDUCTOR_UNSET_ENV = ['NODE_OPTIONS', 'NODE_PATH'];

/** Equal keys ⇔ equal configurations ⇔ one shared conductor process. */
export function configurationKey(c: AgentConfiguration): string {
  const env = Object.entries(c.agent.env).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([
    c.agent.name,
    c.agent.command,
    c.agent.args,
    env,
    c.components,
    c.workspaceFolder,
    c.sparkle ?? [],
    c.proxies ?? [],
    c.languageServers ?? [],
  ]);
}

/** The conductor in front of the agent: `conductor [--components a,b] [--sparkle-* …] -- <agent command> [args…]`. */
export function conductorSpawnSpec(c: AgentConfiguration, rt: Runtime): SpawnSpec {
  const components = c.components === null ? [] : ['--components', c.components.join(',')];
  const proxies = proxyLaunch(c.proxies ?? []);
  return {
    command: rt.execPath,
    args: [
      conductorScript(rt),
      ...components,
      ...proxies.args,
      ...(c.languageServers ?? []),
      ...(c.sparkle ?? []),
      '--',
      c.agent.command,
      ...c.agent.args,
    ],
    env: bundleEnv(rt),
    unsetEnv: CONDUCTOR_UNSET_ENV,
    cwd: c.workspaceFolder,
    // The agent's env (NODE_OPTIONS, LD_PRELOAD… included) is for the agent: the conductor
    // applies it to the agent process only, never to itself or its other children. Likewise
    // each proxy's env (proxySettings.ts). Neither is in the conductor's environment.
    startup: { agentEnv: agentEnvOf(c), proxyEnv: proxies.env },
  };
}

/** The window's language-model process (docs/language-model.md): `conductor vscodelm`, in the folder given. */
export function vscodelmSpawnSpec(rt: Runtime, cwd: string): SpawnSpec {
  return { command: rt.execPath, args: [conductorScript(rt), 'vscodelm'], env: bundleEnv(rt), unsetEnv: CONDUCTOR_UNSET_ENV, cwd };
}

/** The environment a spawn spec gets: the inherited one without `unsetEnv`, plus `env`. */
export function spawnEnv(inherited: NodeJS.ProcessEnv, spec: Pick<SpawnSpec, 'env' | 'unsetEnv'>): NodeJS.ProcessEnv {
  const env = { ...inherited };
  for (const name of spec.unsetEnv) delete env[name];
  return { ...env, ...spec.env };
}

/**
 * The workspace's trust, told to the agents that have a word for it. Gemini CLI ignores every MCP
 * server (those the conductor injects included) in a folder it does not trust, and in ACP mode it
 * never asks; it trusts the folder when GEMINI_CLI_TRUST_WORKSPACE is set. Said only when VS Code
 * trusts the workspace (untrusted ones run only ElizACP), never over the user's own value, and only
 * to the agent process (not to a sign-in terminal, not in the configuration's identity).
 */
export function agentEnvOf(c: AgentConfiguration): Record<string, string> {
  if (!c.workspaceTrusted || c.agent.name === BUILTIN_AGENT_NAME) return c.agent.env;
  return { GEMINI_CLI_TRUST_WORKSPACE: 'true', ...c.agent.env };
}
