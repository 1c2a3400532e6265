// Where external proxies go in the chain, and their environment. A proxy named in `--components`
// (or the extension's `symposium.enabledComponents`) sits at that place; the others go first,
// right after the editor, in the order given: they then see the user's traffic only, not the
// sessions built-in components open on the agent for their own work (crate research). When any
// proxy is present, the MCP-over-ACP bridge goes last, next to the agent, unless placed already:
// it turns the MCP servers proxies declare over ACP into ones the agent can reach (mcpOverAcp.ts).
import { isObject } from '../../../src/protocol/guards';
import { MCP_OVER_ACP } from './mcpOverAcp';
import type { ProxySpec } from './proxySpec';

export function placeProxies(components: readonly string[], proxies: readonly ProxySpec[], componentsGiven: boolean): string[] {
  if (proxies.length === 0) return [...components];
  const named = componentsGiven ? new Set(components) : new Set<string>();
  const first = proxies.map((p) => p.name).filter((name) => !named.has(name));
  const placed = [...first, ...components];
  return placed.includes(MCP_OVER_ACP) ? placed : [...placed, MCP_OVER_ACP];
}

/**
 * The proxies' own environments (`symposium.proxies.<name>.env`), JSON `{"<proxy>": {"NAME": "value"}}`.
 * Passed in this variable rather than on the command line, where values (tokens) would show in
 * `ps`; like SYMPOSIUM_AGENT_ENV it is removed from the conductor's environment before anything
 * starts. Must equal PROXY_ENV_VAR in src/agents/proxySettings.ts.
 */
export const PROXY_ENV_VAR = 'SYMPOSIUM_PROXY_ENV';

export function takeProxyEnv(env: NodeJS.ProcessEnv): Record<string, Record<string, string>> {
  const raw = env[PROXY_ENV_VAR];
  delete env[PROXY_ENV_VAR];
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${PROXY_ENV_VAR} is not JSON`);
  }
  const valid =
    isObject(parsed) &&
    Object.values(parsed).every(
      (vars) =>
        isObject(vars) &&
        Object.entries(vars).every(([k, v]) => typeof v === 'string' && k !== '' && !/[=\0]/.test(k) && !v.includes('\0')),
    );
  if (!valid) throw new Error(`${PROXY_ENV_VAR} must be a JSON object of proxy names to {NAME: value} objects`);
  return parsed as Record<string, Record<string, string>>;
}
