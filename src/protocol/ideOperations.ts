// IDE operations: the requests the conductor's `ide-operations` component sends
// upstream (`_symposium/ide/<operation>`) and whoever answers them — the extension from VS Code's
// language features, or (next issue) the conductor's language-server adapter — one request and
// one response type per operation, in this one file shared by both sides. Pure: no vscode, DOM or
// Node imports.
//
// Conventions on the wire (and in the tools' results):
// - `file` is an absolute path in answers; in requests it may be absolute or relative to the
//   session's folder. Answerers confine every requested path like `fs/*` (the session's folder
//   plus symposium.allowedFolders) and refuse others with an error naming the rule.
// - Lines and columns are 1-based. A column counts characters (Unicode code points) from the
//   start of the line: a tab is one character, and so is an emoji (two UTF-16 code units). End
//   positions are exclusive, like VS Code's and LSP's ranges. `utf16ToColumn`/`columnToUtf16`
//   convert exactly from and to the 0-based UTF-16 `character` of VS Code and LSP.
// - Every request carries the ACP `sessionId`, so the answerer knows which folder confines it.
import { isObject } from './guards';

/** Key under `clientCapabilities._meta.symposium` where an editor says it answers these requests. */
export const IDE_CAPABILITY_KEY = 'ide';

/**
 * The name of the MCP server that gives agents the IDE tools. Not `ide`: Claude Code reserves the
 * `mcp__ide__*` prefix for its own IDE integration and drops every other tool under it, so both
 * Claude adapters never showed these tools to their model.
 */
export const IDE_MCP_SERVER = 'symposium-ide';
export const IDE_METHOD_PREFIX = '_symposium/ide/';

export interface IdePosition {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters (code points). */
  column: number;
}

/** A range in a file: a definition, a reference, a symbol's name, a search hit. */
export interface IdeLocation extends IdePosition {
  endLine: number;
  endColumn: number;
  name?: string;
  /** Symbol kind in lower case: "class", "function", "method", … */
  kind?: string;
  /** The enclosing symbol (class of a method, …), when the answerer knows it. */
  containerName?: string;
  /** The text of the location's first line, trimmed (absent for files outside the allowed folders). */
  snippet?: string;
}

export type IdeSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface IdeDiagnostic extends IdeLocation {
  severity: IdeSeverity;
  message: string;
  source?: string;
  code?: string;
}

export interface IdeHover extends IdeLocation {
  /** The hover's markdown / plain-text parts, joined with blank lines. */
  contents: string;
}

export interface IdeLines {
  file: string;
  line: number;
  endLine: number;
  content: string;
}

export interface IdeSelection extends IdeLocation {
  text: string;
}

/** A list answer: `items` may be cut short by the answerer; `total` is how many there were. */
export interface IdeList<T> {
  items: T[];
  total: number;
}

/** Items of one list answer, whichever backend answers; the conductor's tool shows fewer (200 by default) and reports the total. */
export const MAX_WIRE_ITEMS = 2000;

/** A list answer: at most MAX_WIRE_ITEMS items, the total kept. */
export const wireList = <T>(items: T[]): IdeList<T> => ({ items: items.slice(0, MAX_WIRE_ITEMS), total: items.length });

interface SessionScoped {
  sessionId: string;
}
export interface IdePositionParams extends SessionScoped {
  position: IdePosition;
}

/** Every operation: its params and its result. */
export interface IdeOperations {
  /** Workspace symbols matching `query` (the provider's own fuzzy matching). */
  workspaceSymbols: { params: SessionScoped & { query: string }; result: IdeList<IdeLocation> };
  /** Symbols of one file, flattened (children carry `containerName`). */
  documentSymbols: { params: SessionScoped & { file: string }; result: IdeList<IdeLocation> };
  definitions: { params: IdePositionParams; result: IdeList<IdeLocation> };
  /** Includes the declaration, as VS Code's "Find All References" does. */
  references: { params: IdePositionParams; result: IdeList<IdeLocation> };
  typeDefinitions: { params: IdePositionParams; result: IdeList<IdeLocation> };
  implementations: { params: IdePositionParams; result: IdeList<IdeLocation> };
  hover: { params: IdePositionParams; result: { hover: IdeHover | null } };
  /** One file's diagnostics, or (no `file`) those of every file inside the allowed folders. */
  diagnostics: { params: SessionScoped & { file?: string }; result: IdeList<IdeDiagnostic> };
  /** One hit per matching line; `path` is a file or a folder (walked, skipping ignored folders). */
  searchText: { params: SessionScoped & { path: string; regex: string; extension?: string }; result: IdeList<IdeLocation> };
  /** Lines `start`..`end` (1-based, inclusive) as the editor sees them (unsaved changes included). */
  lines: { params: SessionScoped & { file: string; start: number; end: number }; result: IdeLines };
  /** The active editor's selection; null when no editor is active. */
  selection: { params: SessionScoped; result: { selection: IdeSelection | null } };
}

export type IdeOperation = keyof IdeOperations;
export type IdeParams<O extends IdeOperation> = IdeOperations[O]['params'];
export type IdeResult<O extends IdeOperation> = IdeOperations[O]['result'];

export const IDE_OPERATIONS: readonly IdeOperation[] = [
  'workspaceSymbols',
  'documentSymbols',
  'definitions',
  'references',
  'typeDefinitions',
  'implementations',
  'hover',
  'diagnostics',
  'searchText',
  'lines',
  'selection',
];

export const ideMethod = (operation: IdeOperation): string => `${IDE_METHOD_PREFIX}${operation}`;

/** The operation a method names, if it is one of ours. */
export function ideOperationOf(method: string): IdeOperation | undefined {
  if (!method.startsWith(IDE_METHOD_PREFIX)) return undefined;
  const op = method.slice(IDE_METHOD_PREFIX.length);
  return (IDE_OPERATIONS as readonly string[]).includes(op) ? (op as IdeOperation) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Progress of a pending request: the ide-operations component puts a token in the
// request's `_meta.symposium.progressToken`; an answerer that has something to say while the
// request waits (the ide-lsp adapter: a language server starting, or its `$/progress` while it
// loads or indexes the project) sends `_symposium/ide/progress` with that token back toward the
// agent, and the component shows it on the tool call's card. Answerers that do not know the
// token (the VS Code extension) simply ignore `_meta`.

/** Notification answerer → ide-operations (toward the agent): progress of the request holding `token`. */
export const IDE_PROGRESS_METHOD = '_symposium/ide/progress';

export interface IdeProgressParams {
  token: string;
  /** Short text for the card, e.g. "typescript-language-server: Initializing JS/TS language features — 40%". */
  message: string;
  /** 0–100, when the answerer knows it. */
  percentage?: number;
  /** The work the message names is over ("…: done"); the request may still wait for something else. */
  finished?: true;
}

/** `params` of an IDE request with `_meta.symposium.progressToken` set (other `_meta` kept). */
export function withIdeProgressToken<T extends Record<string, unknown>>(params: T, token: string): T & { _meta: Record<string, unknown> } {
  const meta = isObject(params._meta) ? params._meta : {};
  const ours = isObject(meta.symposium) ? meta.symposium : {};
  return { ...params, _meta: { ...meta, symposium: { ...ours, progressToken: token } } };
}

/** The progress token of an IDE request's params, if it carries one. */
export function ideProgressTokenOf(params: unknown): string | undefined {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const ours = meta && isObject(meta.symposium) ? meta.symposium : undefined;
  const token = ours?.progressToken;
  return typeof token === 'string' && token !== '' && token.length <= 200 ? token : undefined;
}

/** Checks `_symposium/ide/progress` params; undefined when malformed. */
export function parseIdeProgress(raw: unknown): IdeProgressParams | undefined {
  if (!isObject(raw) || typeof raw.token !== 'string' || typeof raw.message !== 'string' || raw.message === '') return undefined;
  const p = raw.percentage;
  const percentage = typeof p === 'number' && Number.isFinite(p) && p >= 0 && p <= 100 ? p : undefined;
  return {
    token: raw.token,
    message: raw.message.slice(0, 300),
    ...(percentage !== undefined ? { percentage } : {}),
    ...(raw.finished === true ? { finished: true as const } : {}),
  };
}

/** What an editor advertises in `clientCapabilities._meta.symposium.ide`. */
export interface IdeCapability {
  /** The operations it answers. */
  operations: IdeOperation[];
}

/** The editor's IDE capability from its `clientCapabilities`, if it advertises one. */
export function ideCapabilityOf(clientCapabilities: unknown): IdeCapability | undefined {
  const meta = isObject(clientCapabilities) && isObject(clientCapabilities._meta) ? clientCapabilities._meta : undefined;
  const ours = meta && isObject(meta.symposium) ? meta.symposium : undefined;
  const ide = ours?.[IDE_CAPABILITY_KEY];
  if (!isObject(ide) || !Array.isArray(ide.operations)) return undefined;
  return {
    operations: ide.operations.filter((o): o is IdeOperation => typeof o === 'string' && (IDE_OPERATIONS as readonly string[]).includes(o)),
  };
}

/** `clientCapabilities._meta` with our IDE capability added (other `_meta` keys kept). */
export function withIdeCapability(meta: Record<string, unknown> | undefined, capability: IdeCapability): Record<string, unknown> {
  const base = meta ?? {};
  const ours = isObject(base.symposium) ? base.symposium : {};
  return { ...base, symposium: { ...ours, [IDE_CAPABILITY_KEY]: capability } };
}

// ---------------------------------------------------------------------------------------------
// Validation of incoming params (answerers use these as their params parsers)

export class IdeParamsError extends Error {}

const posInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;

function position(v: unknown): IdePosition {
  if (!isObject(v)) throw new IdeParamsError('"position" must be an object {file, line, column}');
  if (typeof v.file !== 'string' || v.file === '') throw new IdeParamsError('"position.file" must be a non-empty string');
  if (!posInt(v.line)) throw new IdeParamsError('"position.line" must be an integer ≥ 1 (lines are 1-based)');
  if (!posInt(v.column)) throw new IdeParamsError('"position.column" must be an integer ≥ 1 (columns are 1-based)');
  return { file: v.file, line: v.line, column: v.column };
}

function str(p: Record<string, unknown>, key: string, optional = false): string | undefined {
  const v = p[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string') throw new IdeParamsError(`"${key}" must be a string`);
  return v;
}

/** Checks the params of `operation` and returns them typed; throws IdeParamsError. */
export function parseIdeParams<O extends IdeOperation>(operation: O, raw: unknown): IdeParams<O> {
  if (!isObject(raw)) throw new IdeParamsError(`${ideMethod(operation)} needs params`);
  const sessionId = str(raw, 'sessionId')!;
  let parsed: unknown;
  switch (operation) {
    case 'workspaceSymbols':
      parsed = { sessionId, query: str(raw, 'query')! };
      break;
    case 'documentSymbols':
      parsed = { sessionId, file: str(raw, 'file')! };
      break;
    case 'definitions':
    case 'references':
    case 'typeDefinitions':
    case 'implementations':
    case 'hover':
      parsed = { sessionId, position: position(raw.position) };
      break;
    case 'diagnostics': {
      const file = str(raw, 'file', true);
      parsed = file === undefined ? { sessionId } : { sessionId, file };
      break;
    }
    case 'searchText': {
      const extension = str(raw, 'extension', true);
      parsed = { sessionId, path: str(raw, 'path')!, regex: str(raw, 'regex')!, ...(extension !== undefined ? { extension } : {}) };
      break;
    }
    case 'lines':
      if (!posInt(raw.start) || !posInt(raw.end)) throw new IdeParamsError('"start" and "end" must be integers ≥ 1 (lines are 1-based)');
      if (raw.end < raw.start) throw new IdeParamsError('"end" must not be before "start"');
      parsed = { sessionId, file: str(raw, 'file')!, start: raw.start, end: raw.end };
      break;
    case 'selection':
      parsed = { sessionId };
      break;
  }
  return parsed as IdeParams<O>;
}

// ---------------------------------------------------------------------------------------------
// Positions: 0-based UTF-16 (VS Code, LSP) ⇄ 1-based code-point columns (ours)

/** 1-based column (code points) of the 0-based UTF-16 offset `character` in `lineText`. */
export function utf16ToColumn(lineText: string, character: number): number {
  let column = 1;
  let i = 0;
  const end = Math.max(0, character);
  while (i < end && i < lineText.length) {
    const code = lineText.charCodeAt(i);
    // A high surrogate followed by a low one is one character (two code units).
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < lineText.length && (lineText.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    column++;
  }
  // Past the end of the line (LSP allows it): count the rest as one column each.
  return column + Math.max(0, end - Math.max(i, lineText.length));
}

/**
 * The IdeLocation of a 0-based UTF-16 `range` in a file whose `lines` are known (undefined: not
 * readable; columns then count from an empty line): 1-based lines, code-point columns, `extra`
 * (name, kind, …), and a snippet of the first line when `quotable`. One shaping for every
 * answerer (VS Code's providers in src/ide/, language servers in conductor/components/ide-lsp/).
 */
export function ideLocation(
  file: string,
  lines: readonly string[] | undefined,
  range: Utf16Range,
  extra: Partial<IdeLocation>,
  quotable: boolean,
): IdeLocation {
  const lineText = (n: number): string => lines?.[n] ?? '';
  return {
    file,
    line: range.start.line + 1,
    column: utf16ToColumn(lineText(range.start.line), range.start.character),
    endLine: range.end.line + 1,
    endColumn: utf16ToColumn(lineText(range.end.line), range.end.character),
    ...extra,
    ...(quotable && lines ? { snippet: snippetOf(lineText(range.start.line)) } : {}),
  };
}

/** Hover contents (markdown or code blocks) as one text: trimmed, empty parts dropped. */
export function joinHoverParts(parts: readonly string[]): string {
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n\n');
}

/** 0-based UTF-16 offset of the 1-based code-point `column` in `lineText` (past the end: clamped). */
export function columnToUtf16(lineText: string, column: number): number {
  let i = 0;
  for (let c = 1; c < column && i < lineText.length; c++) {
    const code = lineText.charCodeAt(i);
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < lineText.length && (lineText.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return i;
}

/** The trimmed first line of a location, capped, for `snippet`. */
export function snippetOf(lineText: string, max = 200): string {
  const t = lineText.trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

// ---------------------------------------------------------------------------------------------
// Symbols: the same shaping for every answerer (VS Code's providers, language servers)

/** LSP's SymbolKind names, lower case with spaces ("type parameter"); index = LSP kind − 1 = VS Code's SymbolKind. */
export const SYMBOL_KIND_NAMES: readonly string[] = [
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
];

/** A symbol's name without the parameter list some providers append (TypeScript: "makeParser()"). */
export const bareSymbolName = (name: string): string => name.replace(/\(.*\)$/, '') || name;

/** A 0-based range in UTF-16 units, as VS Code and LSP give them. */
export interface Utf16Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/**
 * Where `name` is inside `range` (a symbol's whole declaration, as workspace symbols give it):
 * where Go to Definition puts the cursor. undefined when the name is not there as a word.
 */
export function nameRangeIn(lines: readonly string[], range: Utf16Range, name: string): Utf16Range | undefined {
  if (name === '') return undefined;
  const word = new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`, 'u');
  for (let l = range.start.line; l <= Math.min(range.end.line, lines.length - 1); l++) {
    const text = lines[l]!;
    const from = l === range.start.line ? range.start.character : 0;
    const m = word.exec(text.slice(from));
    if (m) return { start: { line: l, character: from + m.index }, end: { line: l, character: from + m.index + name.length } };
  }
  return undefined;
}
