// What the editor hands the conductor in its environment, for the conductor itself and not for the
// processes it starts: each variable is read and removed before anything is spawned. Small and
// free of the conductor's other modules, because the launcher (launcher.ts) reads these too, to
// start the agent before the rest of the conductor is loaded.
import { isObject } from '../src/protocol/guards';

/**
 * The agent's own environment (`symposium.agents.<name>.env`), JSON `{"NAME": "value"}`. The
 * editor passes it in this one variable, not as the conductor's environment, so that NODE_OPTIONS,
 * ELECTRON_RUN_AS_NODE, LD_PRELOAD… meant for the agent never reach the conductor, and not on the
 * command line, where values (tokens) would show in `ps`. Must equal AGENT_ENV_VAR in
 * src/agents/agentConfiguration.ts.
 */
export const AGENT_ENV_VAR = 'SYMPOSIUM_AGENT_ENV';

/**
 * The proxies' own environments (`symposium.proxies.<name>.env`), JSON `{"<proxy>": {"NAME": "value"}}`.
 * Passed in this variable rather than on the command line for the same reason. Must equal
 * PROXY_ENV_VAR in src/agents/proxySettings.ts.
 */
export const PROXY_ENV_VAR = 'SYMPOSIUM_PROXY_ENV';

/** The file descriptor of the editor's trace pipe. Must equal TRACE_FD_VAR in src/agents/conductorProcess.ts. */
export const TRACE_FD_VAR = 'SYMPOSIUM_TRACE_FD';

/**
 * For our own bundle only (Node and glibc read them when the conductor starts): a compile cache
 * and a malloc trim threshold. Not for the agents and proxies, which get neither.
 */
export const BUNDLE_ONLY_VARS = ['NODE_COMPILE_CACHE', 'MALLOC_TRIM_THRESHOLD_'] as const;

/** `{NAME: value}` with names and values a process environment can hold. */
function isEnvObject(value: unknown): value is Record<string, string> {
  return (
    isObject(value) && Object.entries(value).every(([k, v]) => typeof v === 'string' && k !== '' && !/[=\0]/.test(k) && !v.includes('\0'))
  );
}

/** Reads and removes `name` from `env`, parsed as JSON; undefined when unset. */
function takeJson(env: NodeJS.ProcessEnv, name: string): unknown {
  const raw = env[name];
  delete env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`${name} is not JSON`);
  }
}

/** Reads and removes AGENT_ENV_VAR from `env` (so no child inherits it); {} when unset. */
export function takeAgentEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const parsed = takeJson(env, AGENT_ENV_VAR) ?? {};
  if (!isEnvObject(parsed)) throw new Error(`${AGENT_ENV_VAR} must be a JSON object of names to strings`);
  return parsed;
}

/** Reads and removes PROXY_ENV_VAR from `env`; {} when unset. */
export function takeProxyEnv(env: NodeJS.ProcessEnv): Record<string, Record<string, string>> {
  const parsed = takeJson(env, PROXY_ENV_VAR) ?? {};
  if (!isObject(parsed) || !Object.values(parsed).every(isEnvObject)) {
    throw new Error(`${PROXY_ENV_VAR} must be a JSON object of proxy names to {NAME: value} objects`);
  }
  return parsed as Record<string, Record<string, string>>;
}

/** Reads and removes TRACE_FD_VAR from `env`: the descriptor, when it names one above stderr. */
export function takeTraceFd(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env[TRACE_FD_VAR];
  delete env[TRACE_FD_VAR];
  const fd = Number(raw);
  return raw && Number.isSafeInteger(fd) && fd > 2 ? fd : undefined;
}

/**
 * The environment the agent is started with: the conductor's, without what is meant for the
 * conductor alone, plus the agent's own variables. Leaves `env` as it was.
 */
export function agentEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  for (const name of BUNDLE_ONLY_VARS) delete rest[name];
  const own = takeAgentEnv(rest);
  takeProxyEnv(rest);
  takeTraceFd(rest);
  return { ...rest, ...own };
}
