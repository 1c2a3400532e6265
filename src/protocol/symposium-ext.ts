// Our ACP extensions, shared by the conductor (conductor/) and the extension host (src/).
// Pure types and constants: no vscode, DOM or Node imports. ACP reserves names starting with
// `_` for extensions and asks custom data to live under `_meta`, so everything here does.

/** Key under `agentCapabilities._meta` where the conductor describes its chain. */
export const SYMPOSIUM_META_KEY = 'symposium';

export interface SymposiumCapabilitiesMeta {
  conductorVersion: string;
  /** Components in chain order, editor side first. */
  components: string[];
  /** Enabled components the conductor left out, with the reason (e.g. an adapter the editor makes unnecessary). */
  skipped: { name: string; reason: string }[];
}

/** Notification conductor → editor: the downstream agent process ended. The conductor exits next. */
export const AGENT_EXITED_METHOD = '_symposium/agent_exited';

export interface AgentExitedParams {
  message: string;
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
}

/**
 * `session/new` params `_meta.symposium.research`: set by the crate-sources component on the
 * sessions it opens for a crate researcher. Other components (the fs adapter) must not serve such
 * a session with the user's workspace: it may read only the crate sources, which crate-sources
 * serves itself.
 */
export interface ResearchSessionMeta { crate: string }

export function researchSessionMeta(sessionNewParams: unknown): ResearchSessionMeta | undefined {
  const meta = (sessionNewParams as { _meta?: Record<string, unknown> } | null | undefined)?._meta;
  const ours = meta?.[SYMPOSIUM_META_KEY] as { research?: unknown } | undefined;
  const research = ours?.research as { crate?: unknown } | undefined;
  return typeof research?.crate === 'string' ? { crate: research.crate } : undefined;
}

export function withResearchSessionMeta<T extends object>(params: T, research: ResearchSessionMeta): T {
  const meta = ((params as { _meta?: Record<string, unknown> })._meta ?? {}) as Record<string, unknown>;
  const ours = (meta[SYMPOSIUM_META_KEY] ?? {}) as Record<string, unknown>;
  return { ...params, _meta: { ...meta, [SYMPOSIUM_META_KEY]: { ...ours, research } } };
}
