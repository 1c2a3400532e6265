// What a crate-research sub-session may do without a human. The researcher reads untrusted crate
// sources (a prompt-injection path) and nobody watches its session, so the component answers its
// permission requests by a fixed rule instead of showing them to the user:
//   - approved: tool kinds `read` and `search` that name at least one place (a `locations` entry,
//     or a place-like `rawInput` field such as `path`, `paths`, `file_path`, `uri`, at any depth)
//     when every path the request names lies inside the crate sources this research session
//     located, including the place a pattern starts from (`pattern`, `glob`, `include`, …: the
//     part before the first wildcard); `think` under the same rule, except that it may name none;
//   - refused with the agent's own reject option: everything else (`execute`, `edit`, `delete`,
//     `move`, `fetch`, `switch_mode`, `other`), a read or search that names no place (it would
//     search wherever the agent is), a path elsewhere, and a request whose paths cannot be read
//     (a path field holding a number or an object of unknown shape, a `uri` that is not `file:`).
// Refusing (rather than forwarding to the user) keeps research a silent, read-only errand; the
// researcher learns "rejected" and carries on reading. docs/security.md states the rule.
//
// Also here: choosing the agent's read-only session mode, where it offers one.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

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
/** Kinds that may name no place (thinking touches no file). */
const PLACELESS_KINDS = new Set(['think']);
/** rawInput keys that name a file or folder in the requests of the agents we know. */
const PLACE_KEYS = new Set([
  'path',
  'paths',
  'file',
  'files',
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
  'root',
  'uri',
  'uris',
  'url',
]);
/** rawInput keys whose value is a pattern that may carry a place of its own (`/home/u/**`). */
const PATTERN_KEYS = new Set(['pattern', 'patterns', 'glob', 'globs', 'include', 'includes']);
/** How deep rawInput is walked; deeper is refused rather than guessed. */
const MAX_DEPTH = 8;

/** The paths a request names: places (where it reads) and pattern bases; `unreadable` says why it cannot be judged. */
export interface NamedPaths {
  places: string[];
  patterns: string[];
  unreadable?: string;
}

/** A place named as a path or a `file:` URI; undefined for another scheme. */
function placeOf(value: string): string | undefined {
  if (/^file:/i.test(value)) {
    try {
      return fileURLToPath(value);
    } catch {
      return undefined;
    }
  }
  return /^[a-z][a-z0-9+.-]+:\/\//i.test(value) ? undefined : value;
}

/** The folder a glob starts from: the part before its first wildcard, cut back to a whole folder. */
export function patternBase(pattern: string): string {
  const wild = pattern.search(/[*?[\]{}!]/);
  if (wild < 0) return pattern;
  const cut = Math.max(pattern.lastIndexOf('/', wild), pattern.lastIndexOf(path.sep, wild));
  return cut < 0 ? '.' : pattern.slice(0, cut + 1) || path.sep;
}

/** Every path the request names: its locations and place- or pattern-like rawInput fields, at any depth. */
export function pathsNamedBy(params: ClientRequestPermission): NamedPaths {
  const out: NamedPaths = { places: [], patterns: [] };
  const refuse = (why: string): void => void (out.unreadable ??= why);
  const locations = params.toolCall?.locations;
  if (locations !== undefined && locations !== null) {
    if (!Array.isArray(locations)) refuse('its "locations" is not a list');
    else
      for (const l of locations as { path?: unknown }[]) {
        if (typeof l?.path === 'string') out.places.push(l.path);
        else refuse('a location without a path');
      }
  }
  const collect = (key: string, value: unknown, into: 'places' | 'patterns', depth: number): void => {
    if (typeof value === 'string') {
      const place = placeOf(value);
      if (place === undefined) return refuse(`"${key}" names ${value}, not a file`);
      out[into].push(into === 'patterns' ? patternBase(place) : place);
    } else if (Array.isArray(value) && depth < MAX_DEPTH) {
      for (const v of value) collect(key, v, into, depth + 1);
    } else if (value !== undefined && value !== null) {
      // An object or a number where a path belongs: a shape this rule cannot read.
      refuse(
        `"${key}" holds ${Array.isArray(value) ? 'too deep a list' : `a${typeof value === 'object' ? 'n object' : ` ${typeof value}`}`}`,
      );
    }
  };
  const walk = (raw: unknown, depth: number): void => {
    if (Array.isArray(raw)) {
      if (depth >= MAX_DEPTH) return refuse('its input is nested too deep to check');
      for (const v of raw) walk(v, depth + 1);
      return;
    }
    if (raw === null || typeof raw !== 'object') return;
    if (depth >= MAX_DEPTH) return refuse('its input is nested too deep to check');
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      if (PLACE_KEYS.has(key)) collect(key, value, 'places', depth);
      else if (PATTERN_KEYS.has(key)) collect(key, value, 'patterns', depth);
      else walk(value, depth + 1);
    }
  };
  walk(params.toolCall?.rawInput, 0);
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
  const named = pathsNamedBy(params);
  if (named.unreadable) return refuse(`its paths cannot be checked: ${named.unreadable}`);
  if (named.places.length === 0 && !PLACELESS_KINDS.has(kind))
    return refuse(`a "${kind}" that names no path is refused: it would read wherever the agent runs`);
  for (const p of [...named.places, ...named.patterns]) {
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
