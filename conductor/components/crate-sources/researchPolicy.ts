// What a crate-research sub-session may do without a human. The researcher reads untrusted crate
// sources (a prompt-injection path) and nobody watches its session, so the component answers its
// permission requests by a fixed rule instead of showing them to the user:
//   - approved: tool kinds `read`, `search` and `think`, and only when every path the request
//     names (its `locations`, and path-like `rawInput` fields) lies inside the crate sources this
//     research session located;
//   - refused with the agent's own reject option: everything else (`execute`, `edit`, `delete`,
//     `move`, `fetch`, `switch_mode`, `other`, or a read of any other path).
// Refusing (rather than forwarding to the user) keeps research a silent, read-only errand; the
// researcher learns "rejected" and carries on reading. docs/security.md states the rule.
//
// Also here: choosing the agent's read-only session mode, where it offers one.

/** `session/request_permission` params as they arrive from the agent: unvalidated, so every field is optional. */
export interface ClientRequestPermission {
  toolCall?: { kind?: unknown; locations?: unknown; rawInput?: unknown };
  options?: unknown;
}

interface OptionLike {
  optionId: string;
  kind?: unknown;
}
const optionsOf = (params: ClientRequestPermission): OptionLike[] =>
  (Array.isArray(params.options) ? params.options : []).filter(
    (o): o is OptionLike => typeof (o as OptionLike | null)?.optionId === 'string',
  );

export type ResearchDecision =
  { outcome: 'selected'; optionId: string; approved: boolean; reason: string } | { outcome: 'cancelled'; approved: false; reason: string };

const READ_ONLY_KINDS = new Set(['read', 'search', 'think']);
/** rawInput keys that name a file or folder in the requests of the agents we know. */
const PATH_KEYS = new Set([
  'path',
  'paths',
  'file',
  'file_path',
  'filePath',
  'filepath',
  'abs_path',
  'absPath',
  'directory',
  'dir',
  'cwd',
  'notebook_path',
  'target',
]);

/** Every path the request names: its locations and path-like rawInput fields (one level deep). */
export function pathsNamedBy(params: ClientRequestPermission): string[] {
  const out: string[] = [];
  const locations = Array.isArray(params.toolCall?.locations) ? (params.toolCall.locations as { path?: unknown }[]) : [];
  for (const l of locations) if (typeof l?.path === 'string') out.push(l.path);
  const raw = params.toolCall?.rawInput;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      if (!PATH_KEYS.has(key)) continue;
      if (typeof value === 'string') out.push(value);
      else if (Array.isArray(value)) for (const v of value) if (typeof v === 'string') out.push(v);
    }
  }
  return out;
}

/**
 * Decides one research permission request. `isInsideSources(path)` says whether a path lies in
 * the crate sources located so far (through the one confinement implementation).
 */
export async function decideResearchPermission(
  params: ClientRequestPermission,
  isInsideSources: (path: string) => Promise<boolean>,
): Promise<ResearchDecision> {
  const options = optionsOf(params);
  const kind = typeof params.toolCall?.kind === 'string' ? params.toolCall.kind : 'other';
  const refuse = (reason: string): ResearchDecision => {
    const reject = options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
    return reject
      ? { outcome: 'selected', optionId: reject.optionId, approved: false, reason }
      : { outcome: 'cancelled', approved: false, reason };
  };
  if (!READ_ONLY_KINDS.has(kind)) return refuse(`research sessions are read-only: a "${kind}" tool call is refused`);
  for (const p of pathsNamedBy(params)) {
    if (!(await isInsideSources(p))) return refuse(`${p} is outside the crate sources this research session located`);
  }
  const allow = options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always');
  if (!allow) return refuse('the agent offered no option that allows this tool call');
  return { outcome: 'selected', optionId: allow.optionId, approved: true, reason: `a "${kind}" inside the crate sources` };
}

interface ModeLike {
  id?: unknown;
  name?: unknown;
}
interface ConfigOptionLike {
  id?: unknown;
  category?: unknown;
  currentValue?: unknown;
  options?: unknown;
}

/** How to put a new research session into the agent's read-only mode, if it offers one. */
export type ReadOnlySwitch =
  | { method: 'session/set_mode'; params: { modeId: string } }
  | { method: 'session/set_config_option'; params: { configId: string; value: string } };

const READ_ONLY_NAME = /\bread[\s_-]?only\b|^readonly$/i;
const PLAN_NAME = /^plan(\s+mode)?$/i;

function pick<T extends ModeLike>(candidates: readonly T[]): T | undefined {
  const text = (m: T): string[] => [m.id, m.name].filter((s): s is string => typeof s === 'string');
  return (
    candidates.find((m) => text(m).some((s) => READ_ONLY_NAME.test(s))) ?? candidates.find((m) => text(m).some((s) => PLAN_NAME.test(s)))
  );
}

/**
 * The agent's read-only mode from a `session/new` result: a session mode or a `mode`-category
 * config option whose id or name says "read-only" (Codex) or, failing that, "plan" (Claude Code's
 * plan mode runs no tools that change anything). Undefined when none is offered or it is current.
 */
export function readOnlySwitch(sessionNewResult: unknown): ReadOnlySwitch | undefined {
  const r = (sessionNewResult ?? {}) as { modes?: { currentModeId?: unknown; availableModes?: unknown }; configOptions?: unknown };
  const modes = Array.isArray(r.modes?.availableModes) ? (r.modes.availableModes as ModeLike[]) : [];
  const mode = pick(modes);
  if (mode && typeof mode.id === 'string')
    return mode.id === r.modes?.currentModeId ? undefined : { method: 'session/set_mode', params: { modeId: mode.id } };
  const configs = Array.isArray(r.configOptions) ? (r.configOptions as ConfigOptionLike[]) : [];
  for (const c of configs) {
    if (c.category !== 'mode' || typeof c.id !== 'string' || !Array.isArray(c.options)) continue;
    const values = (c.options as { value?: unknown; name?: unknown }[]).map((o) => ({ id: o.value, name: o.name }));
    const choice = pick(values);
    if (choice && typeof choice.id === 'string')
      return choice.id === c.currentValue
        ? undefined
        : { method: 'session/set_config_option', params: { configId: c.id, value: choice.id } };
  }
  return undefined;
}
