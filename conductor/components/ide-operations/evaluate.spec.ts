// The `ide_operation` evaluator as a table, against a fake IDE: which operations each program
// asks for, what it returns (composition, indexing, locations passed as positions, Dialect's
// shapes) and the errors for unknown functions, wrong argument types and bad indexes.
import * as assert from 'node:assert/strict';
import type { IdeLocation, IdeOperation, IdeParams, IdeResult } from '../../../src/protocol/ideOperations';
import { DialectError, describeError } from './dialect';
import { runProgram } from './evaluate';
import { IdeCallError, type IdeBackend, type Value } from './values';

const PARSER = '/ws/src/parser.ts';
const MAIN = '/ws/src/main.ts';
const loc = (file: string, line: number, column: number, length: number, extra: Partial<IdeLocation> = {}): IdeLocation => ({
  file,
  line,
  column,
  endLine: line,
  endColumn: column + length,
  ...extra,
});

const parserClass = loc(PARSER, 3, 14, 6, { name: 'Parser', kind: 'class' });
const parseMethod = loc(PARSER, 5, 3, 5, { name: 'parse', kind: 'method', containerName: 'Parser' });
const SYMBOLS: IdeLocation[] = [
  parserClass,
  loc(PARSER, 20, 14, 11, { name: 'ParserError', kind: 'class' }),
  parseMethod,
  loc(MAIN, 2, 7, 5, { name: 'parse', kind: 'function' }),
];
const USES = [loc(MAIN, 5, 17, 6), loc(MAIN, 9, 3, 6)];

class FakeIde implements IdeBackend {
  readonly calls: string[] = [];
  async call<O extends IdeOperation>(operation: O, params: Omit<IdeParams<O>, 'sessionId'>): Promise<IdeResult<O>> {
    const p = params as Record<string, unknown>;
    const pos = p.position as { file: string; line: number; column: number } | undefined;
    this.calls.push(`${operation} ${pos ? `${pos.file}:${pos.line}:${pos.column}` : JSON.stringify(p)}`);
    const at = (file: string, line: number, column: number): boolean => pos?.file === file && pos.line === line && pos.column === column;
    const list = (items: IdeLocation[]): unknown => ({ items, total: items.length });
    let r: unknown;
    switch (operation) {
      case 'workspaceSymbols':
        r = list(SYMBOLS.filter((s) => s.name!.toLowerCase().includes(String(p.query).toLowerCase())));
        break;
      case 'documentSymbols':
        r = list(SYMBOLS.filter((s) => s.file === p.file));
        break;
      case 'definitions':
        r = list(at(MAIN, 5, 17) || at(PARSER, 3, 14) ? [parserClass] : []);
        break;
      case 'references':
        r = list(at(PARSER, 3, 14) || at(MAIN, 5, 17) ? [...USES, parserClass] : []);
        break;
      case 'typeDefinitions':
        r = list(at(MAIN, 5, 17) ? [parserClass] : []);
        break;
      case 'implementations':
        r = list([]);
        break;
      case 'hover':
        r = { hover: pos ? { ...loc(pos.file, pos.line, pos.column, 1), contents: `hover at ${pos.line}:${pos.column}` } : null };
        break;
      case 'diagnostics':
        r = list(
          p.file === 'src/missing.ts' ? [] : [{ ...loc(MAIN, 7, 9, 3), severity: 'error', message: 'Type mismatch' } as IdeLocation],
        );
        break;
      case 'searchText':
        r = list([loc(MAIN, 1, 4, 5, { snippet: '// TODO(x)' })]);
        break;
      case 'lines':
        r = { file: p.file, line: p.start, endLine: p.end, content: `lines ${String(p.start)}-${String(p.end)}` };
        break;
      case 'selection':
        r = { selection: null };
        break;
    }
    return r as IdeResult<O>;
  }
}

const pick =
  (keys: string[]) =>
  (v: Value): Value => {
    if (Array.isArray(v)) return v.map(pick(keys));
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(keys.filter((k) => k in v).map((k) => [k, v[k]!]));
  };
const brief = pick(['file', 'line', 'column', 'name']);
const at = (l: IdeLocation): Value => brief(l as unknown as Value);

const OK: [program: string, result: Value, calls: string[]][] = [
  ['findDefinitions("Parser")', [at(parserClass)], ['workspaceSymbols {"query":"Parser"}']],
  ["FINDDEFINITION('Parser')", [at(parserClass)], ['workspaceSymbols {"query":"Parser"}']],
  ['find_definitions("parser")', [at(parserClass)], ['workspaceSymbols {"query":"parser"}']], // no exact match: case-insensitive
  ['findDefinitions("parse")', [at(SYMBOLS[3]!), at(parseMethod)], ['workspaceSymbols {"query":"parse"}']],
  ['findDefinitions("Parser.parse")', [at(parseMethod)], ['workspaceSymbols {"query":"parse"}']],
  ['findDefinitions("Nowhere")', [], ['workspaceSymbols {"query":"Nowhere"}']],
  ['findDefinitions("/ws/src/main.ts", 5, 17)', [at(parserClass)], [`definitions ${MAIN}:5:17`]],
  [
    'findReferences("Parser")',
    [at(USES[0]!), at(USES[1]!), at(parserClass)],
    ['workspaceSymbols {"query":"Parser"}', `references ${PARSER}:3:14`],
  ],
  [
    'findReferences(findDefinitions("Parser")[0])',
    [at(USES[0]!), at(USES[1]!), at(parserClass)],
    ['workspaceSymbols {"query":"Parser"}', `references ${PARSER}:3:14`],
  ],
  [
    'findReferences(findDefinitions("Parser")[-1])',
    [at(USES[0]!), at(USES[1]!), at(parserClass)],
    ['workspaceSymbols {"query":"Parser"}', `references ${PARSER}:3:14`],
  ],
  [
    'findReferences({path: "/ws/src/main.ts", start: {line: 5, column: 17}})',
    [at(USES[0]!), at(USES[1]!), at(parserClass)],
    [`references ${MAIN}:5:17`],
  ],
  [
    'findReferences({definedAt: {path: "/ws/src/main.ts", start: {line: 5, column: 17}}})',
    [at(USES[0]!), at(USES[1]!), at(parserClass)],
    [`references ${MAIN}:5:17`],
  ],
  [
    'findReferences([{file: "/ws/src/main.ts", line: 5, column: 17}, {file: "/ws/src/parser.ts", line: 3, column: 14}])',
    [at(USES[0]!), at(USES[1]!), at(parserClass)],
    [`references ${MAIN}:5:17`, `references ${PARSER}:3:14`],
  ],
  ['findReferences("Nowhere")', [], ['workspaceSymbols {"query":"Nowhere"}']],
  ['typeDefinition("/ws/src/main.ts", 5, 17)', [at(parserClass)], [`typeDefinitions ${MAIN}:5:17`]],
  ['implementations(findDefinitions("Parser"))', [], ['workspaceSymbols {"query":"Parser"}', `implementations ${PARSER}:3:14`]],
  ['hover("src/main.ts", 12, 5)', { file: 'src/main.ts', line: 12, column: 5 }, ['hover src/main.ts:12:5']],
  ['hover("Parser")', { file: PARSER, line: 3, column: 14 }, ['workspaceSymbols {"query":"Parser"}', `hover ${PARSER}:3:14`]],
  [
    'hover([{file: "a.ts", line: 1}, {file: "b.ts", line: 2, column: 3}])',
    [
      { file: 'a.ts', line: 1, column: 1 },
      { file: 'b.ts', line: 2, column: 3 },
    ],
    ['hover a.ts:1:1', 'hover b.ts:2:3'],
  ],
  ['hover("Nowhere")', null, ['workspaceSymbols {"query":"Nowhere"}']],
  ['symbols("Pars")', SYMBOLS.map(at), ['workspaceSymbols {"query":"Pars"}']],
  [
    'documentSymbols("/ws/src/parser.ts")',
    [at(parserClass), at(SYMBOLS[1]!), at(parseMethod)],
    ['documentSymbols {"file":"/ws/src/parser.ts"}'],
  ],
  ['diagnostics()', [{ file: MAIN, line: 7, column: 9 }], ['diagnostics {}']],
  ['diagnostics("src/missing.ts")', [], ['diagnostics {"file":"src/missing.ts"}']],
  [
    'search("src", "TODO\\\\(", ".ts")',
    [{ file: MAIN, line: 1, column: 4 }],
    ['searchText {"path":"src","regex":"TODO\\\\(","extension":".ts"}'],
  ],
  ['search("src/main.ts", "fn \\w+")', [{ file: MAIN, line: 1, column: 4 }], ['searchText {"path":"src/main.ts","regex":"fn \\\\w+"}']],
  ['lines("src/main.ts", 3, 9)', { file: 'src/main.ts', line: 3 }, ['lines {"file":"src/main.ts","start":3,"end":9}']],
  ['lines("src/main.ts", 4)', { file: 'src/main.ts', line: 4 }, ['lines {"file":"src/main.ts","start":4,"end":4}']],
  [
    'lines(findDefinitions("Parser")[0])',
    { file: PARSER, line: 3 },
    ['workspaceSymbols {"query":"Parser"}', `lines {"file":"${PARSER}","start":3,"end":3}`],
  ],
  ['getSelection()', null, ['selection {}']],
  ['findDefinitions("Parser")[0]["name"]', 'Parser', ['workspaceSymbols {"query":"Parser"}']],
  ['[1, "two", {three: 3}][2]', { three: 3 }, []],
  ['{"findDefinitions": {of: "X"}}', { findDefinitions: { of: 'X' } }, []],
];

const ERRORS: [program: string, message: RegExp][] = [
  [
    'fndDefinitions("x")',
    /^Error at column 1: unknown function fndDefinitions\. Known functions: findDefinitions, findReferences, typeDefinition, implementations, hover, symbols, documentSymbols, diagnostics, search, lines, getSelection/,
  ],
  [
    'hover("src/main.ts", "12", 5)',
    /^Error at column 1: hover: argument 2 \(line\) must be a whole number ≥ 1 \(1-based\), got the string "12"\. Usage: hover\(/,
  ],
  ['hover("src/main.ts", 0, 5)', /argument 2 \(line\) must be a whole number ≥ 1 \(1-based\), got the number 0/],
  ['hover(1, 2, 3)', /hover: argument 1 \(file\) must be a string, got the number 1/],
  ['hover("a.ts", 1)', /hover: takes a symbol name, a location \{file, line, column\}.*got 2 arguments/],
  ['findReferences(42)', /findReferences: argument 1 must be a symbol name, a location .* got the number 42/],
  ['findReferences({name: "x"})', /argument 1 is an object without "file" and "line"/],
  ['findReferences([{file: "a.ts", line: 1}, true])', /item 1 of argument 1 must be a symbol name/],
  ['symbols()', /symbols: takes one argument \(query\), got 0 arguments/],
  ['diagnostics("a", "b")', /diagnostics: takes no argument, or one \(file\), got 2 arguments/],
  ['search("src")', /search: takes two or three arguments \(path, regex\[, extension\]\), got 1 argument\b/],
  ['lines("a.ts", 9, 3)', /lines: argument 3 \(end\) must not be before argument 2 \(start\): 3 < 9/],
  ['getSelection(1)', /getSelection: takes no arguments, got 1 argument/],
  ['findReferences(findDefinitions("Nowhere")[0])', /^Error at column 43: index 0 is out of range: findDefinitions\("Nowhere"\) is empty/],
  ['findDefinitions("Parser")[5]', /index 5 is out of range: findDefinitions\("Parser"\) has 1 item \(indexes 0 to 0\)/],
  [
    'findDefinitions("Parser")["file"]',
    /a list is indexed by a whole number, e\.g\. findDefinitions\("Parser"\)\[0\]; got the string "file"/,
  ],
  [
    'findDefinitions("Parser")[0][0]',
    /an object is indexed by a key string, e\.g\. findDefinitions\("Parser"\)\[0\]\["file"\]; got the number 0/,
  ],
  ['findDefinitions("Parser")[0]["nope"]', /has no key "nope"; its keys are file, line, column, endLine, endColumn, name, kind/],
  ['"text"[0]', /only lists and objects can be indexed; "text" is the string "text"/],
];

describe('ide_operation evaluator (evaluate.ts + functions.ts)', () => {
  for (const [program, expected, calls] of OK) {
    it(`evaluates ${program}`, async () => {
      const ide = new FakeIde();
      const value = await runProgram(program, ide);
      const keys =
        typeof expected === 'object' && expected !== null
          ? [...new Set((Array.isArray(expected) ? expected : [expected]).flatMap((x) => Object.keys(x ?? {})))]
          : [];
      assert.deepEqual(keys.length ? pick(keys)(value) : value, expected);
      assert.deepEqual(ide.calls, calls);
    });
  }

  for (const [program, message] of ERRORS) {
    it(`reports ${program}`, async () => {
      const err = await runProgram(program, new FakeIde()).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof DialectError, `expected a DialectError, got ${String(err)}`);
      assert.match(describeError(program, err), message);
    });
  }

  it('passes IDE failures through as IdeCallErrors (not program errors)', async () => {
    const failing: IdeBackend = { call: () => Promise.reject(new IdeCallError('no IDE available: nothing upstream answers', true)) };
    const err = await runProgram('findReferences("Parser")', failing).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof IdeCallError && err.unavailable);
  });
});
