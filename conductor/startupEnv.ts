// What the editor hands the conductor in its environment, for the conductor itself and not for the
// processes it starts: each variable is read and removed before anything is spawned. Small and
// free of the conductor's other modules, because the launcher (launcher.ts) reads these too, to
// start the agent before the rest of the conductor is loaded.
import { closeSync, readFileSync } from 'node:fs';
import { isObject } from '../src/protocol/guards';
import { errorText } from '../src/protocol/errorText';

/**
 * The descriptor of a pipe (or file) holding the agent's and the proxies' own environments, one
 * JSON object `{"agentEnv": {"NAME": "value"}, "proxyEnv": {"<proxy>": {"NAME": "value"}}}`, read
 * to its end at start and closed. This is how the editor hands them over: not as the conductor's
 * environment, where NODE_OPTIONS, LD_PRELOAD… meant for the agent would apply to the conductor,
 * and where the values stay for the conductor's whole life (`/proc/<pid>/environ` keeps what a
 * process was started with, even after `delete process.env.X`) for anything that can read that
 * file; and not on the command line, where `ps` shows them. Must equal STARTUP_FD_VAR in
 * src/agents/conductorProcess.ts.
 */
export const STARTUP_FD_VAR = 'SYMPOSIUM_STARTUP_FD';

/**
 * The agent's own environment as a variable, JSON `{"NAME": "value"}`: for running the conductor
 * by hand (STARTUP_FD_VAR keeps the values out of the conductor's environment; this does not).
 * Taken out of the environment before anything is started, so no child inherits it.
 */
export const AGENT_ENV_VAR = 'SYMPOSIUM_AGENT_ENV';

/** The proxies' environments as a variable, JSON `{"<proxy>": {"NAME": "value"}}`: as AGENT_ENV_VAR. */
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

export interface StartupEnv {
  agentEnv: Record<string, string>;
  proxyEnv: Record<string, Record<string, string>>;
}

/**
 * A descriptor can be read once, and both the launcher and the proxy (separate bundles) take the
 * environments from process.env: what the first took (or why it failed) is kept on the process.
 */
const SLOT = Symbol.for('symposium.conductor.startupEnv');
const holder = globalThis as { [SLOT]?: { taken: StartupEnv } | { failed: Error } };

function checkAgentEnv(value: unknown, from: string): Record<string, string> {
  if (!isEnvObject(value)) throw new Error(`${from} must be a JSON object of names to strings`);
  return value;
}

function checkProxyEnv(value: unknown, from: string): Record<string, Record<string, string>> {
  if (!isObject(value) || !Object.values(value).every(isEnvObject)) {
    throw new Error(`${from} must be a JSON object of proxy names to {NAME: value} objects`);
  }
  return value as Record<string, Record<string, string>>;
}

/** The environments in descriptor `fd`, read to its end, then closed. */
function readStartupFd(fd: number): StartupEnv {
  let raw: string;
  try {
    raw = readFileSync(fd, 'utf8');
  } catch (err) {
    throw new Error(`${STARTUP_FD_VAR}=${fd} cannot be read: ${errorText(err)}`);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
  let parsed: unknown;
  try {
    parsed = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    throw new Error(`descriptor ${fd} (${STARTUP_FD_VAR}) does not hold JSON`);
  }
  if (!isObject(parsed)) throw new Error(`descriptor ${fd} (${STARTUP_FD_VAR}) must hold a JSON object {agentEnv, proxyEnv}`);
  return {
    agentEnv: checkAgentEnv(parsed.agentEnv ?? {}, `agentEnv in descriptor ${fd}`),
    proxyEnv: checkProxyEnv(parsed.proxyEnv ?? {}, `proxyEnv in descriptor ${fd}`),
  };
}

/**
 * The agent's and the proxies' own environments, from STARTUP_FD_VAR's descriptor and (by hand)
 * AGENT_ENV_VAR / PROXY_ENV_VAR, the descriptor's values winning. The three variables are removed
 * from `env`, so no child inherits them. Taken from process.env, the result (or the error) is kept
 * and given again to a later call.
 */
export function takeStartupEnv(env: NodeJS.ProcessEnv): StartupEnv {
  if (env !== process.env) return readStartupEnv(env);
  const kept = holder[SLOT];
  if (kept && 'failed' in kept) throw kept.failed;
  if (kept) return kept.taken;
  try {
    const taken = readStartupEnv(env);
    holder[SLOT] = { taken };
    return taken;
  } catch (err) {
    holder[SLOT] = { failed: err as Error };
    throw err;
  }
}

function readStartupEnv(env: NodeJS.ProcessEnv): StartupEnv {
  const fdRaw = env[STARTUP_FD_VAR];
  delete env[STARTUP_FD_VAR];
  const agentEnv = checkAgentEnv(takeJson(env, AGENT_ENV_VAR) ?? {}, AGENT_ENV_VAR);
  const proxyEnv = checkProxyEnv(takeJson(env, PROXY_ENV_VAR) ?? {}, PROXY_ENV_VAR);
  if (fdRaw === undefined || fdRaw === '') return { agentEnv, proxyEnv };
  const fd = Number(fdRaw);
  if (!Number.isSafeInteger(fd) || fd <= 2) throw new Error(`${STARTUP_FD_VAR} must name a descriptor above 2 (got "${fdRaw}")`);
  const fromFd = readStartupFd(fd);
  const proxies = { ...proxyEnv };
  for (const [name, vars] of Object.entries(fromFd.proxyEnv)) proxies[name] = { ...proxies[name], ...vars };
  return { agentEnv: { ...agentEnv, ...fromFd.agentEnv }, proxyEnv: proxies };
}

/** The agent's environment alone (takeStartupEnv). */
export function takeAgentEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return takeStartupEnv(env).agentEnv;
}

/** The proxies' environments alone (takeStartupEnv). */
export function takeProxyEnv(env: NodeJS.ProcessEnv): Record<string, Record<string, string>> {
  return takeStartupEnv(env).proxyEnv;
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
 * conductor alone, plus the agent's own variables. Takes the agent's and proxies' environments
 * out of `env` (takeStartupEnv: the proxy asks for them again); leaves the rest as it was.
 */
export function agentEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = takeStartupEnv(env).agentEnv;
  const rest = { ...env };
  for (const name of BUNDLE_ONLY_VARS) delete rest[name];
  takeTraceFd(rest);
  return { ...rest, ...own };
}
