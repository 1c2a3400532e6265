// The OpenCtx provider protocol (https://openctx.org, protocol 0.1 and its later `meta` shape):
// the types of what providers answer, and the validation every answer passes before anything
// renders or sends it. A malformed mention, item or annotation is dropped and named in
// `dropped` (the caller logs it with the provider's URI), never passed on. Also the selectors
// (`path` glob, `contentContains`) that decide whether a provider is asked for annotations.
// Shared by the extension host and the conductor (src/node/openctxClient.ts). Pure.
import { isObject, type JsonObject } from './guards';
import { SYMPOSIUM_META_KEY } from './symposium-ext';

export interface OpenCtxMention {
  title: string;
  description?: string;
  uri: string;
  data?: JsonObject;
}
export interface OpenCtxItem {
  title: string;
  url?: string;
  ui?: { hover?: { markdown?: string; text?: string } };
  ai?: { content?: string };
}
export interface OpenCtxPosition {
  line: number;
  character: number;
}
export interface OpenCtxAnnotation {
  uri: string;
  range?: { start: OpenCtxPosition; end: OpenCtxPosition };
  item: OpenCtxItem;
}
export interface OpenCtxSelector {
  path?: string;
  contentContains?: string;
}
/**
 * `meta` in one shape. Protocol 0.1 answers `{selector?}` (for every feature); the current
 * protocol answers `{name, mentions?, items?, annotations?: {selectors?}}`. Features a 0.1
 * provider does not declare are assumed present (it had no way to say).
 */
export interface OpenCtxMeta {
  name: string;
  /** Offers @-mentions (the current shape's `mentions` key, or any 0.1 provider). */
  mentions: boolean;
  /** A label for the @ menu entry (current shape: `mentions.label`). */
  mentionsLabel?: string;
  items: boolean;
  annotations: boolean;
  /** Undefined: every document; empty: none. All of one selector's conditions must hold; any selector may match. */
  annotationSelectors?: OpenCtxSelector[];
}

/** Validated values and a description of each entry that was dropped. */
export interface Validated<T> {
  values: T[];
  dropped: string[];
}

/** Limits that keep one provider from flooding the menu, the prompt or the editor. */
export const OPENCTX_LIMITS = { entries: 500, titleChars: 1_000, uriChars: 4_096, contentChars: 1_000_000 } as const;

const optString = (v: unknown, max: number): v is string | undefined => v === undefined || (typeof v === 'string' && v.length <= max);
const preview = (v: unknown): string => (JSON.stringify(v) ?? String(v)).slice(0, 120);

function validList<T>(raw: unknown, what: string, parse: (v: unknown) => T | string): Validated<T> {
  if (!Array.isArray(raw)) return { values: [], dropped: [`the ${what} result is not a list: ${preview(raw)}`] };
  const values: T[] = [];
  const dropped: string[] = [];
  for (const [i, v] of raw.entries()) {
    if (values.length >= OPENCTX_LIMITS.entries) {
      dropped.push(`${raw.length - i} ${what} over the limit of ${OPENCTX_LIMITS.entries}`);
      break;
    }
    const parsed = parse(v);
    if (typeof parsed === 'string') dropped.push(`${what} ${i} ${parsed}: ${preview(v)}`);
    else values.push(parsed);
  }
  return { values, dropped };
}

function mention(v: unknown): OpenCtxMention | string {
  if (!isObject(v)) return 'is not an object';
  const { title, description, uri, data } = v;
  if (typeof title !== 'string' || title.length === 0 || title.length > OPENCTX_LIMITS.titleChars) return 'has no valid title';
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > OPENCTX_LIMITS.uriChars) return 'has no valid uri';
  if (!optString(description, OPENCTX_LIMITS.titleChars)) return 'has an invalid description';
  if (data !== undefined && !isObject(data)) return 'has data that is not an object';
  return { title, uri, ...(description ? { description } : {}), ...(data ? { data } : {}) };
}

function item(v: unknown): OpenCtxItem | string {
  if (!isObject(v)) return 'is not an object';
  const { title, url, ui, ai } = v;
  if (typeof title !== 'string' || title.length > OPENCTX_LIMITS.titleChars) return 'has no valid title';
  if (!optString(url, OPENCTX_LIMITS.uriChars)) return 'has an invalid url';
  const out: OpenCtxItem = { title, ...(url ? { url } : {}) };
  if (ui !== undefined) {
    if (!isObject(ui)) return 'has ui that is not an object';
    if (ui.hover !== undefined) {
      const h = ui.hover;
      if (!isObject(h) || !optString(h.markdown, OPENCTX_LIMITS.contentChars) || !optString(h.text, OPENCTX_LIMITS.contentChars))
        return 'has an invalid ui.hover';
      out.ui = {
        hover: { ...(h.markdown !== undefined ? { markdown: h.markdown } : {}), ...(h.text !== undefined ? { text: h.text } : {}) },
      };
    }
  }
  if (ai !== undefined) {
    if (!isObject(ai) || !optString(ai.content, OPENCTX_LIMITS.contentChars)) return 'has an invalid ai';
    if (ai.content !== undefined) out.ai = { content: ai.content };
  }
  return out;
}

const position = (v: unknown): OpenCtxPosition | undefined =>
  isObject(v) &&
  Number.isSafeInteger(v.line) &&
  Number.isSafeInteger(v.character) &&
  (v.line as number) >= 0 &&
  (v.character as number) >= 0
    ? { line: v.line as number, character: v.character as number }
    : undefined;

function annotation(v: unknown): OpenCtxAnnotation | string {
  if (!isObject(v)) return 'is not an object';
  if (typeof v.uri !== 'string' || v.uri.length > OPENCTX_LIMITS.uriChars) return 'has no valid uri';
  const parsedItem = item(v.item);
  if (typeof parsedItem === 'string') return `has an item that ${parsedItem}`;
  if (v.range === undefined) return { uri: v.uri, item: parsedItem };
  const start = isObject(v.range) ? position(v.range.start) : undefined;
  const end = isObject(v.range) ? position(v.range.end) : undefined;
  if (!start || !end) return 'has an invalid range (0-based line and character expected)';
  return { uri: v.uri, range: { start, end }, item: parsedItem };
}

export const validateMentions = (raw: unknown): Validated<OpenCtxMention> => validList(raw, 'mention', mention);
export const validateItems = (raw: unknown): Validated<OpenCtxItem> => validList(raw, 'item', item);
export const validateAnnotations = (raw: unknown): Validated<OpenCtxAnnotation> => validList(raw, 'annotation', annotation);

function selectors(raw: unknown): OpenCtxSelector[] | string {
  if (!Array.isArray(raw)) return 'selectors must be a list';
  const out: OpenCtxSelector[] = [];
  for (const s of raw) {
    if (!isObject(s) || !optString(s.path, 1_000) || !optString(s.contentContains, 10_000)) return `invalid selector ${preview(s)}`;
    out.push({
      ...(s.path !== undefined ? { path: s.path } : {}),
      ...(s.contentContains !== undefined ? { contentContains: s.contentContains } : {}),
    });
  }
  return out;
}

/** `meta`'s result in either shape → one shape, or why it is unusable. `fallbackName`: 0.1 had no name. */
export function validateMeta(raw: unknown, fallbackName: string): OpenCtxMeta | string {
  if (!isObject(raw)) return `meta is not an object: ${preview(raw)}`;
  const name = typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim().slice(0, 200) : fallbackName;
  const current = 'name' in raw || 'mentions' in raw || 'items' in raw || 'annotations' in raw;
  if (!current) {
    // Protocol 0.1: one `selector` list scoping the provider as a whole.
    const sel = raw.selector === undefined ? undefined : selectors(raw.selector);
    if (typeof sel === 'string') return `meta.selector: ${sel}`;
    return { name, mentions: true, items: true, annotations: true, ...(sel ? { annotationSelectors: sel } : {}) };
  }
  const feature = (v: unknown): boolean => v !== undefined && v !== null && v !== false;
  const mentionsLabel = isObject(raw.mentions) && typeof raw.mentions.label === 'string' ? raw.mentions.label.slice(0, 200) : undefined;
  let annotationSelectors: OpenCtxSelector[] | undefined;
  if (isObject(raw.annotations) && raw.annotations.selectors !== undefined) {
    const sel = selectors(raw.annotations.selectors);
    if (typeof sel === 'string') return `meta.annotations.${sel}`;
    annotationSelectors = sel;
  }
  return {
    name,
    mentions: feature(raw.mentions),
    ...(mentionsLabel ? { mentionsLabel } : {}),
    items: feature(raw.items),
    annotations: feature(raw.annotations),
    ...(annotationSelectors ? { annotationSelectors } : {}),
  };
}

/**
 * Whether a document is in scope of a provider's selectors: undefined selects everything, an
 * empty list nothing; a selector holds when all its conditions do. `path` is matched against the
 * URI's host and path (as the spec says), e.g. `**\/*.ts` against `/home/a/x.ts`.
 */
export function selectorsMatch(sel: OpenCtxSelector[] | undefined, uri: string, content: string): boolean {
  if (sel === undefined) return true;
  const hostAndPath = uriHostAndPath(uri);
  return sel.some(
    (s) =>
      (s.path === undefined || globMatches(s.path, hostAndPath)) &&
      (s.contentContains === undefined || content.includes(s.contentContains)),
  );
}

function uriHostAndPath(uri: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^?#]*)/i.exec(uri);
  if (!m) return uri;
  let p = m[2] ?? '';
  try {
    p = decodeURIComponent(p);
  } catch {
    // keep it encoded
  }
  return `${m[1] ?? ''}${p}`;
}

/**
 * Glob → match: `**` any number of path segments, `*` and `?` within one segment, `{a,b}`
 * alternatives, `[abc]` classes. A pattern without a `/` matches the last segment (as picomatch's
 * `basename` option, which OpenCtx's client sets).
 */
export function globMatches(glob: string, path: string): boolean {
  const target = glob.includes('/') ? path : (path.split('/').pop() ?? path);
  return globRegExp(glob).test(target);
}

const globCache = new Map<string, RegExp>();
function globRegExp(glob: string): RegExp {
  const cached = globCache.get(glob);
  if (cached) return cached;
  let re = '';
  let inBraces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` matches zero or more whole segments; a trailing `**` anything.
      if (glob[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      inBraces++;
      re += '(?:';
    } else if (c === '}' && inBraces > 0) {
      inBraces--;
      re += ')';
    } else if (c === ',' && inBraces > 0) re += '|';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        const body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else re += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  // Paths from URIs start with `/` (or a host); a relative glob may match anywhere below.
  const anchored = glob.startsWith('/') || glob.startsWith('**') ? `^${re}$` : `^(?:.*/)?${re}$`;
  let out: RegExp;
  try {
    out = new RegExp(anchored);
  } catch {
    out = /$^/; // an unusable pattern matches nothing
  }
  if (globCache.size > 500) globCache.clear();
  globCache.set(glob, out);
  return out;
}

/** The text of an item for an agent: `ai.content`, else the hover's text or markdown, else the title. */
export function itemText(i: OpenCtxItem): string {
  return i.ai?.content ?? i.ui?.hover?.text ?? i.ui?.hover?.markdown ?? i.title;
}

/**
 * The OpenCtx providers for one session, from the extension to the conductor's `openctx`
 * component in `session/new` params `_meta.symposium.openctx` (the component takes it out before
 * the agent sees the params: provider settings may hold tokens). Sent only when the chain has the
 * component. `allowModules`: the workspace is trusted, so `file://` modules may run.
 */
export interface OpenCtxSessionConfig {
  providers: { uri: string; settings: JsonObject }[];
  allowModules: boolean;
}
export const OPENCTX_META_FIELD = 'openctx';

export function withOpenCtxSessionConfig<T extends object>(params: T, config: OpenCtxSessionConfig): T {
  const meta = isObject((params as { _meta?: unknown })._meta) ? (params as { _meta: JsonObject })._meta : {};
  const ours = isObject(meta[SYMPOSIUM_META_KEY]) ? (meta[SYMPOSIUM_META_KEY] as JsonObject) : {};
  return { ...params, _meta: { ...meta, [SYMPOSIUM_META_KEY]: { ...ours, [OPENCTX_META_FIELD]: config } } };
}

/**
 * Takes the OpenCtx configuration out of session setup params: `params` without it (and without
 * an emptied `_meta.symposium`), `config` when it was valid, `problem` when it was there but not.
 */
export function takeOpenCtxSessionConfig(params: unknown): { params: unknown; config?: OpenCtxSessionConfig; problem?: string } {
  if (!isObject(params) || !isObject(params._meta) || !isObject(params._meta[SYMPOSIUM_META_KEY])) return { params };
  const ours = params._meta[SYMPOSIUM_META_KEY] as JsonObject;
  if (!(OPENCTX_META_FIELD in ours)) return { params };
  const { [OPENCTX_META_FIELD]: raw, ...restOurs } = ours;
  const { [SYMPOSIUM_META_KEY]: _ours, ...restMeta } = params._meta;
  const meta = Object.keys(restOurs).length ? { ...restMeta, [SYMPOSIUM_META_KEY]: restOurs } : restMeta;
  const { _meta: _old, ...rest } = params;
  const stripped = Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
  if (!isObject(raw) || !Array.isArray(raw.providers) || typeof raw.allowModules !== 'boolean')
    return { params: stripped, problem: '_meta.symposium.openctx must be {providers: [{uri, settings}], allowModules}' };
  const providers: OpenCtxSessionConfig['providers'] = [];
  for (const p of raw.providers) {
    if (!isObject(p) || typeof p.uri !== 'string' || !/^(https?|file):\/\//i.test(p.uri) || !isObject(p.settings))
      // Named by URI only: the settings may hold secrets.
      return { params: stripped, problem: `invalid OpenCtx provider ${isObject(p) && typeof p.uri === 'string' ? p.uri : '(no uri)'}` };
    providers.push({ uri: p.uri, settings: p.settings });
  }
  return { params: stripped, config: { providers, allowModules: raw.allowModules } };
}
