// The functions of the `ide_operation` language, each mapped onto `_symposium/ide/*` operations
// (src/protocol/ideOperations.ts). Names are case-insensitive and `_` is ignored, so
// findDefinitions, FINDDEFINITIONS and find_definitions are one function; Dialect's own names
// (findDefinition, findReferences, search, lines) are kept. Where a position is expected, a
// function takes (file, line, column), a location or symbol from another call, a list of them,
// or a symbol name (looked up with definitionsByName). The typed MCP tools use the same helpers.
import type { IdeLocation, IdePosition } from '../../../src/protocol/ideOperations';
import { ArgumentError, describe, type IdeBackend, type Value } from './values';

export interface DialectFunction {
  name: string;
  aliases: string[];
  usage: string;
  description: string;
  example: string;
  run(args: Value[], backend: IdeBackend): Promise<Value>;
}

const toValue = <T>(x: T): Value => JSON.parse(JSON.stringify(x ?? null)) as Value;
const key = (name: string): string => name.toLowerCase().replace(/_/g, '');

const isPosInt = (v: Value | undefined): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;
const isObj = (v: Value | undefined): v is { [k: string]: Value } => typeof v === 'object' && v !== null && !Array.isArray(v);

function arity(args: Value[], allowed: number[], what: string): void {
  if (!allowed.includes(args.length)) {
    const n = args.length;
    throw new ArgumentError(`takes ${what}, got ${n} argument${n === 1 ? '' : 's'}`);
  }
}

function str(args: Value[], i: number, name: string): string {
  const v = args[i];
  if (typeof v !== 'string') throw new ArgumentError(`argument ${i + 1} (${name}) must be a string, got ${describe(v)}`);
  return v;
}

function int(args: Value[], i: number, name: string): number {
  const v = args[i];
  if (!isPosInt(v)) throw new ArgumentError(`argument ${i + 1} (${name}) must be a whole number ≥ 1 (1-based), got ${describe(v)}`);
  return v;
}

/** Sorted by file, line, column; the same range reported twice is kept once. */
export function sortLocations<T extends IdeLocation>(items: T[]): T[] {
  const seen = new Set<string>();
  return [...items]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column))
    .filter((l) => {
      const k = `${l.file}\0${l.line}\0${l.column}\0${l.endLine}\0${l.endColumn}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}

/**
 * Where a symbol named `name` is defined: workspace symbols whose name is exactly `name` (else
 * equal ignoring case). `Container.name` (or `Container::name`) also matches the container.
 */
export async function definitionsByName(name: string, backend: IdeBackend): Promise<IdeLocation[]> {
  const parts = name.trim().split(/\.|::|#/);
  const short = parts.pop() ?? '';
  const container = parts.join('.');
  if (short === '') throw new ArgumentError(`${JSON.stringify(name)} is not a symbol name`);
  const { items } = await backend.call('workspaceSymbols', { query: short });
  const bare = (s: string): string => s.replace(/\(.*\)$/, '');
  const pick = (eq: (a: string, b: string) => boolean): IdeLocation[] =>
    items.filter(
      (s) =>
        s.name !== undefined &&
        eq(bare(s.name), short) &&
        (container === '' ||
          (s.containerName !== undefined && (eq(s.containerName, container) || eq(s.containerName.split('.').pop() ?? '', container)))),
    );
  const exact = pick((a, b) => a === b);
  return sortLocations(exact.length ? exact : pick((a, b) => a.toLowerCase() === b.toLowerCase()));
}

function positionOfObject(v: { [k: string]: Value }): IdePosition | undefined {
  if (typeof v.file === 'string' && isPosInt(v.line)) return { file: v.file, line: v.line, column: isPosInt(v.column) ? v.column : 1 };
  // Dialect's shapes: FileRange {path, start: {line, column}} and SymbolDef {definedAt: FileRange}.
  if (typeof v.path === 'string' && isObj(v.start) && isPosInt(v.start.line)) {
    return { file: v.path, line: v.start.line, column: isPosInt(v.start.column) ? v.start.column : 1 };
  }
  if (isObj(v.definedAt)) return positionOfObject(v.definedAt);
  return undefined;
}

const POSITION_USAGE =
  'a symbol name, a location {file, line, column} (e.g. one returned by findDefinitions), a list of them, or (file, line, column)';

/**
 * The positions a function's arguments designate, and whether a single one was meant (so hover
 * answers one object, not a list).
 */
export async function positionsOf(args: Value[], backend: IdeBackend): Promise<{ positions: IdePosition[]; single: boolean }> {
  if (args.length === 3)
    return { positions: [{ file: str(args, 0, 'file'), line: int(args, 1, 'line'), column: int(args, 2, 'column') }], single: true };
  arity(args, [1, 3], POSITION_USAGE);
  const one = async (v: Value, where: string): Promise<IdePosition[]> => {
    if (typeof v === 'string') return (await definitionsByName(v, backend)).map(({ file, line, column }) => ({ file, line, column }));
    if (isObj(v)) {
      const p = positionOfObject(v);
      if (p) return [p];
      throw new ArgumentError(`${where} is an object without "file" and "line"; expected ${POSITION_USAGE}`);
    }
    throw new ArgumentError(`${where} must be ${POSITION_USAGE}; got ${describe(v)}`);
  };
  const arg = args[0]!;
  if (Array.isArray(arg)) {
    const all: IdePosition[] = [];
    for (let i = 0; i < arg.length; i++) all.push(...(await one(arg[i]!, `item ${i} of argument 1`)));
    return { positions: all, single: false };
  }
  const positions = await one(arg, 'argument 1');
  return { positions, single: positions.length <= 1 };
}

type PositionOp = 'definitions' | 'references' | 'typeDefinitions' | 'implementations';

async function atPositions(op: PositionOp, args: Value[], backend: IdeBackend): Promise<Value> {
  const { positions } = await positionsOf(args, backend);
  const out: IdeLocation[] = [];
  for (const position of positions) out.push(...(await backend.call(op, { position })).items);
  return toValue(sortLocations(out));
}

export const FUNCTIONS: readonly DialectFunction[] = [
  {
    name: 'findDefinitions',
    aliases: ['findDefinition', 'definitions', 'definition'],
    usage: 'findDefinitions(symbolName | location | [..] | file, line, column)',
    description:
      'Where a symbol is defined. A name is looked up among the workspace symbols (exact name; "Class.member" narrows by container); a position asks Go to Definition there.',
    example: 'findDefinitions("Parser")',
    run: async (args, backend) => {
      if (args.length === 1 && typeof args[0] === 'string') return toValue(await definitionsByName(args[0], backend));
      return atPositions('definitions', args, backend);
    },
  },
  {
    name: 'findReferences',
    aliases: ['references', 'findReference'],
    usage: 'findReferences(symbolName | location | [..] | file, line, column)',
    description: 'Every reference to a symbol, its declaration included (what Find All References shows).',
    example: 'findReferences(findDefinitions("Parser")[0])',
    run: (args, backend) => atPositions('references', args, backend),
  },
  {
    name: 'typeDefinition',
    aliases: ['typeDefinitions', 'findTypeDefinition'],
    usage: 'typeDefinition(location | symbolName | file, line, column)',
    description: 'Where the type of the expression at a position is defined.',
    example: 'typeDefinition("src/main.ts", 5, 7)',
    run: (args, backend) => atPositions('typeDefinitions', args, backend),
  },
  {
    name: 'implementations',
    aliases: ['implementation', 'findImplementations'],
    usage: 'implementations(location | symbolName | file, line, column)',
    description: 'Implementations of an interface, abstract class or method.',
    example: 'implementations("Shape")',
    run: (args, backend) => atPositions('implementations', args, backend),
  },
  {
    name: 'hover',
    aliases: ['hoverInfo'],
    usage: 'hover(file, line, column | location | symbolName)',
    description: 'The hover text (type, signature, docs) at a position; a list when given a list. A name hovers over its first definition.',
    example: 'hover("src/main.ts", 12, 5)',
    run: async (args, backend) => {
      const { positions, single } = await positionsOf(args, backend);
      const hovers: Value[] = [];
      for (const position of single ? positions.slice(0, 1) : positions)
        hovers.push(toValue((await backend.call('hover', { position })).hover));
      return single ? (hovers[0] ?? null) : hovers;
    },
  },
  {
    name: 'symbols',
    aliases: ['workspaceSymbols', 'findSymbols'],
    usage: 'symbols(query)',
    description: "Workspace symbols matching a query (the language's fuzzy matching, like Go to Symbol in Workspace).",
    example: 'symbols("Pars")',
    run: async (args, backend) => {
      arity(args, [1], 'one argument (query)');
      return toValue((await backend.call('workspaceSymbols', { query: str(args, 0, 'query') })).items);
    },
  },
  {
    name: 'documentSymbols',
    aliases: ['outline', 'fileSymbols'],
    usage: 'documentSymbols(file)',
    description: 'The symbols of one file (its outline), flattened; members carry containerName.',
    example: 'documentSymbols("src/parser.ts")',
    run: async (args, backend) => {
      arity(args, [1], 'one argument (file)');
      return toValue((await backend.call('documentSymbols', { file: str(args, 0, 'file') })).items);
    },
  },
  {
    name: 'diagnostics',
    aliases: ['problems', 'getDiagnostics'],
    usage: 'diagnostics() | diagnostics(file)',
    description: 'Errors and warnings the IDE reports (the Problems view): of one file, or of every file in the workspace.',
    example: 'diagnostics("src/main.ts")',
    run: async (args, backend) => {
      arity(args, [0, 1], 'no argument, or one (file)');
      const params = args.length === 1 ? { file: str(args, 0, 'file') } : {};
      return toValue((await backend.call('diagnostics', params)).items);
    },
  },
  {
    name: 'search',
    aliases: ['searchText', 'grep'],
    usage: 'search(path, regex[, extension])',
    description:
      'Lines matching a regular expression (JavaScript syntax) in a file, or in a folder (ignored and hidden files skipped); extension like ".ts".',
    example: 'search("src", "TODO\\\\(", ".ts")',
    run: async (args, backend) => {
      arity(args, [2, 3], 'two or three arguments (path, regex[, extension])');
      const extension = args.length === 3 ? str(args, 2, 'extension') : undefined;
      const params = { path: str(args, 0, 'path'), regex: str(args, 1, 'regex'), ...(extension !== undefined ? { extension } : {}) };
      return toValue((await backend.call('searchText', params)).items);
    },
  },
  {
    name: 'lines',
    aliases: ['getLines', 'readLines'],
    usage: 'lines(file, start, end) | lines(file, line) | lines(location)',
    description: 'Lines start..end (1-based, inclusive) of a file as the editor has them, unsaved changes included.',
    example: 'lines("src/main.ts", 3, 9)',
    run: async (args, backend) => {
      if (args.length === 1 && isObj(args[0])) {
        const loc = args[0];
        const p = positionOfObject(loc);
        if (!p) throw new ArgumentError(`argument 1 must be a location {file, line, endLine?}; got an object without "file" and "line"`);
        const end = isPosInt(loc.endLine) && loc.endLine >= p.line ? loc.endLine : p.line;
        return toValue(await backend.call('lines', { file: p.file, start: p.line, end }));
      }
      arity(args, [1, 2, 3], 'a location, or (file, line), or (file, start, end)');
      if (args.length === 1)
        throw new ArgumentError(`with one argument it must be a location; to read lines of a file give (file, start, end)`);
      const start = int(args, 1, 'start');
      const end = args.length === 3 ? int(args, 2, 'end') : start;
      if (end < start) throw new ArgumentError(`argument 3 (end) must not be before argument 2 (start): ${end} < ${start}`);
      return toValue(await backend.call('lines', { file: str(args, 0, 'file'), start, end }));
    },
  },
  {
    name: 'getSelection',
    aliases: ['selection'],
    usage: 'getSelection()',
    description: "The active editor's file, selected range and selected text (null when no editor is active).",
    example: 'getSelection()',
    run: async (args, backend) => {
      arity(args, [0], 'no arguments');
      return toValue((await backend.call('selection', {})).selection);
    },
  },
];

const BY_KEY = new Map(FUNCTIONS.flatMap((f) => [f.name, ...f.aliases].map((n) => [key(n), f] as const)));

export const lookupFunction = (name: string): DialectFunction | undefined => BY_KEY.get(key(name));
