// Our ACP extensions, shared by the conductor (conductor/) and the extension host (src/).
// Pure types and constants: no vscode, DOM or Node imports. ACP reserves names starting with
// `_` for extensions and asks custom data to live under `_meta`, so everything here does.

/**
 * Every method of ours starts with this. The conductor alone sends them to the editor: the agent
 * edge drops `_symposium/*` notifications that come from the agent (conductor/chain/edges.ts).
 */
export const SYMPOSIUM_METHOD_PREFIX = '_symposium/';

/** Key under `agentCapabilities._meta` where the conductor describes its chain. */
export const SYMPOSIUM_META_KEY = 'symposium';

export interface SymposiumCapabilitiesMeta {
  conductorVersion: string;
  /** Components in chain order, editor side first. */
  components: string[];
  /** Enabled components the conductor left out, with the reason (e.g. an adapter the editor makes unnecessary). */
  skipped: { name: string; reason: string }[];
  /**
   * The MCP transports the agent itself takes (its own `mcpCapabilities`). The conductor advertises
   * `http` and `sse` for every agent and bridges those servers to stdio for one that takes neither.
   */
  agentMcpCapabilities?: { http: boolean; sse: boolean };
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
 * Notification conductor → editor: a component the chain cannot work without (an external proxy
 * process) ended. Unlike the agent's exit, the conductor keeps running: every request that
 * needs the chain is answered with `message` (code agentExited) until the editor restarts it.
 */
export const COMPONENT_EXITED_METHOD = '_symposium/component_exited';

export interface ComponentExitedParams extends AgentExitedParams {
  /** The component's name in the chain (the proxy's name). */
  component: string;
}

/** `_symposium/component_exited` params as received (validated), or undefined. */
export function parseComponentExited(raw: unknown): ComponentExitedParams | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const p = raw as Record<string, unknown>;
  if (typeof p.component !== 'string' || typeof p.message !== 'string') return undefined;
  return {
    component: p.component,
    message: p.message,
    exitCode: typeof p.exitCode === 'number' ? p.exitCode : null,
    signal: typeof p.signal === 'string' ? p.signal : null,
    stderrTail: typeof p.stderrTail === 'string' ? p.stderrTail : '',
  };
}

/**
 * `session/new` params `_meta.symposium.research`: set by the crate-sources component on the
 * sessions it opens for a crate researcher. Other components (the fs adapter) must not serve such
 * a session with the user's workspace: it may read only the crate sources, which crate-sources
 * serves itself.
 */
export interface ResearchSessionMeta {
  crate: string;
}

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

/**
 * `_meta.symposium.sparkle`: set by the Sparkle component (conductor/components/sparkle/) on what
 * belongs to Sparkle rather than to the user's turn. `embodiment`: its own `session/prompt` and
 * every `session/update` of that turn (the update object and the notification params both carry
 * it), which the chat shows as one collapsed "Sparkle embodiment" section, never as an answer to
 * the user. `checkpoint-nudge`: the text block it appends to every N-th user prompt.
 */
export type SparkleMark = 'embodiment' | 'checkpoint-nudge';
export const SPARKLE_META_FIELD = 'sparkle';

/** The Sparkle mark in `carrier._meta.symposium.sparkle`, if any. */
export function sparkleMarkOf(carrier: unknown): SparkleMark | undefined {
  const meta = (carrier as { _meta?: unknown } | null | undefined)?._meta as Record<string, unknown> | null | undefined;
  const ours = meta?.[SYMPOSIUM_META_KEY] as Record<string, unknown> | null | undefined;
  const mark = ours?.[SPARKLE_META_FIELD];
  return mark === 'embodiment' || mark === 'checkpoint-nudge' ? mark : undefined;
}

/** `obj` with `_meta.symposium.sparkle = mark`, other `_meta` content kept. */
export function withSparkleMark<T extends object>(obj: T, mark: SparkleMark): T {
  const meta = ((obj as { _meta?: Record<string, unknown> | null })._meta ?? {}) as Record<string, unknown>;
  const ours = (meta[SYMPOSIUM_META_KEY] ?? {}) as Record<string, unknown>;
  return { ...obj, _meta: { ...meta, [SYMPOSIUM_META_KEY]: { ...ours, [SPARKLE_META_FIELD]: mark } } };
}

/**
 * Notification conductor → editor: progress of an MCP tool call that a component serves in-process
 * (crate download and research, Sparkle's embodiment turn). The conductor knows the session but not
 * the agent's `toolCallId` for the MCP call, so the editor attributes it to that session's latest
 * running tool card of `tool` (docs/architecture.md, "Tool progress"). Throttled by the conductor.
 */
export const TOOL_PROGRESS_METHOD = '_symposium/tool_progress';

/**
 * `clientCapabilities._meta.symposium.toolProgress: true`: the editor takes `_symposium/tool_progress`
 * and attributes it to its tool cards itself (Symposium for VS Code does). A plain ACP client does
 * not declare it; the conductor then sends the progress as the tool call's own `tool_call_update`
 * (its `content`), which any client shows (conductor/chain/plainClientProgress.ts).
 */
export const TOOL_PROGRESS_CAPABILITY_KEY = 'toolProgress';

export function withToolProgressCapability(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  const base = meta ?? {};
  const ours = (typeof base[SYMPOSIUM_META_KEY] === 'object' && base[SYMPOSIUM_META_KEY]) || {};
  return { ...base, [SYMPOSIUM_META_KEY]: { ...ours, [TOOL_PROGRESS_CAPABILITY_KEY]: true } };
}

/** Whether `clientCapabilities` (as the editor sent them) declare TOOL_PROGRESS_CAPABILITY_KEY. */
export function takesToolProgress(clientCapabilities: unknown): boolean {
  const meta = (clientCapabilities as { _meta?: unknown } | null | undefined)?._meta as Record<string, unknown> | null | undefined;
  const ours = meta?.[SYMPOSIUM_META_KEY] as Record<string, unknown> | null | undefined;
  return ours?.[TOOL_PROGRESS_CAPABILITY_KEY] === true;
}

export interface ToolProgressParams {
  sessionId: string;
  /** The MCP server and tool, e.g. `rust-crate-sources` / `rust_crate_query`. */
  server: string;
  tool: string;
  /** Short text for the card, e.g. "Downloading serde 1.0.219 — 1.2 of 3.4 MB". */
  message: string;
  progress?: number;
  total?: number;
}

export function parseToolProgress(raw: unknown): ToolProgressParams | undefined {
  const o = raw as Record<string, unknown> | null | undefined;
  if (typeof o !== 'object' || o === null) return undefined;
  const { sessionId, server, tool, message, progress, total } = o;
  if (typeof sessionId !== 'string' || typeof server !== 'string' || typeof tool !== 'string' || typeof message !== 'string')
    return undefined;
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  return { sessionId, server, tool, message: message.slice(0, 500), progress: num(progress), total: num(total) };
}

/** What a tool card shows as its progress line: `tool_call_update._meta.symposium.progress`. */
export interface ToolProgressMeta {
  message: string;
  progress?: number;
  total?: number;
}
export const PROGRESS_META_FIELD = 'progress';

export function toolProgressOf(update: unknown): ToolProgressMeta | undefined {
  const meta = (update as { _meta?: Record<string, unknown> } | null | undefined)?._meta;
  const ours = meta?.[SYMPOSIUM_META_KEY] as Record<string, unknown> | undefined;
  const p = ours?.[PROGRESS_META_FIELD] as ToolProgressMeta | undefined;
  return typeof p?.message === 'string' ? p : undefined;
}
