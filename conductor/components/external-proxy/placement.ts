// Where external proxies go in the chain, and their environment. A proxy named in `--components`
// (or the extension's `symposium.enabledComponents`) sits at that place; the others go first,
// right after the editor, in the order given: they then see the user's traffic only, not the
// sessions built-in components open on the agent for their own work (crate research). When any
// proxy is present, the MCP-over-ACP bridge goes last, next to the agent, unless placed already:
// it turns the MCP servers proxies declare over ACP into ones the agent can reach (mcpOverAcp.ts).
// Their environment comes in SYMPOSIUM_PROXY_ENV (../../startupEnv.ts).
import { MCP_OVER_ACP } from './mcpOverAcp';
import type { ProxySpec } from './proxySpec';

export function placeProxies(components: readonly string[], proxies: readonly ProxySpec[], componentsGiven: boolean): string[] {
  if (proxies.length === 0) return [...components];
  const named = componentsGiven ? new Set(components) : new Set<string>();
  const first = proxies.map((p) => p.name).filter((name) => !named.has(name));
  const placed = [...first, ...components];
  return placed.includes(MCP_OVER_ACP) ? placed : [...placed, MCP_OVER_ACP];
}
