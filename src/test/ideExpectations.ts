// One table of IDE questions and their exact answers on test-fixtures/workspace, shared by the two paths
// that answer them: the editor (host suite 14-ide-operations, VS Code's TypeScript features) and
// the conductor's language-server fallback (conductor/test/ideLsp.process.spec.ts, real
// typescript-language-server and pyright). The same question must get the same answer from both:
// files relative to the workspace, lines and columns 1-based, columns in characters (main.ts
// line 4 has two emoji before `Parser`, line 8 two tabs). Pure data: no vscode, no Node.

/** `file:line:column-endLine:endColumn` of a location in a result. */
export interface Located {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  [key: string]: unknown;
}
export const brief = (l: Located): string => `${l.file}:${l.line}:${l.column}-${l.endLine}:${l.endColumn}`;

export interface IdeExpectation {
  title: string;
  /** The ElizACP prompt that asks it (`use tool symposium-ide::… with {…}` or a shortcut). */
  prompt: string;
  /** A list answer: every result's location, in order. */
  locations?: string[];
  /** A list answer: results that must be among them (location plus these fields). */
  includes?: { at: string; fields: Record<string, unknown> }[];
  /** A single-value answer (hover): its location, and a pattern its `contents` matches. */
  at?: string;
  contents?: RegExp;
  /** A list answer: fields of results[i] (partial match). */
  fields?: Record<string, unknown>[];
}

const tool = (name: string, args: Record<string, unknown>): string => `use tool symposium-ide::${name} with ${JSON.stringify(args)}`;
const program = (p: string): string => tool('ide_operation', { program: p });

const ts = (name: string): string => `ts-project/src/${name}`;
const PARSER_REFERENCES = [
  `${ts('main.ts')}:2:10-2:16`,
  `${ts('main.ts')}:4:46-4:52`,
  `${ts('parser.ts')}:4:14-4:20`,
  `${ts('parser.ts')}:18:31-18:37`,
  `${ts('parser.ts')}:19:14-19:20`,
  `${ts('report.ts')}:2:10-2:16`,
  `${ts('report.ts')}:5:12-5:18`,
  `${ts('report.ts')}:5:25-5:31`,
];

/** TypeScript (test-fixtures/workspace/ts-project): asked of VS Code and of typescript-language-server. */
export const TYPESCRIPT_EXPECTATIONS: readonly IdeExpectation[] = [
  {
    title: 'findDefinitions by name: the class, with kind and snippet',
    prompt: program('findDefinitions("Parser")'),
    locations: [`${ts('parser.ts')}:4:14-4:20`],
    fields: [{ name: 'Parser', kind: 'class', snippet: 'export class Parser implements Tokenizer {' }],
  },
  { title: 'the "find definition of" shortcut', prompt: 'find definition of Parser', locations: [`${ts('parser.ts')}:4:14-4:20`] },
  {
    title: 'Go to Definition at `new Parser(…)` after two emoji: the class and its constructor',
    prompt: tool('find_definitions', { file: ts('main.ts'), line: 4, column: 46 }),
    locations: [`${ts('parser.ts')}:4:14-4:20`, `${ts('parser.ts')}:5:3-5:51`],
  },
  {
    title: 'findReferences of a definition: every reference, the declaration included',
    prompt: program('findReferences(findDefinitions("Parser")[0])'),
    locations: PARSER_REFERENCES,
  },
  { title: 'find_references by name', prompt: tool('find_references', { symbol: 'Parser' }), locations: PARSER_REFERENCES },
  {
    title: 'find_references at a use',
    prompt: tool('find_references', { file: ts('report.ts'), line: 5, column: 25 }),
    locations: PARSER_REFERENCES,
  },
  {
    title: 'a method by container: Parser.parse, used after two tabs',
    prompt: program('findReferences(findDefinitions("Parser.parse"))'),
    locations: [`${ts('main.ts')}:8:16-8:21`, `${ts('main.ts')}:8:38-8:43`, `${ts('parser.ts')}:11:3-11:8`, `${ts('report.ts')}:6:15-6:20`],
  },
  {
    title: 'hover at a use: the range of the name and the signature',
    prompt: tool('hover', { file: ts('main.ts'), line: 4, column: 46 }),
    at: `${ts('main.ts')}:4:46-4:52`,
    contents: /new Parser\(strict: boolean\): Parser/,
  },
  {
    title: 'hover of a definition found by name',
    prompt: program('hover(findDefinitions("makeParser")[0])'),
    at: `${ts('parser.ts')}:18:17-18:27`,
    contents: /function makeParser\(\): Parser/,
  },
  {
    title: 'typeDefinition of a variable after two tabs',
    prompt: program(`typeDefinition("${ts('main.ts')}", 8, 10)`),
    locations: [`${ts('parser.ts')}:4:14-4:20`],
  },
  {
    title: 'implementations of an interface',
    prompt: program('implementations(findDefinitions("Tokenizer"))'),
    locations: [`${ts('parser.ts')}:4:14-4:20`],
  },
  {
    title: 'workspace symbols: the class and the factory, at their names',
    prompt: program('symbols("Parser")'),
    includes: [
      { at: `${ts('parser.ts')}:4:14-4:20`, fields: { name: 'Parser', kind: 'class' } },
      { at: `${ts('parser.ts')}:18:17-18:27`, fields: { name: 'makeParser', kind: 'function' } },
    ],
  },
  {
    title: 'document symbols: the outline with containers',
    prompt: tool('document_symbols', { file: ts('parser.ts') }),
    includes: [
      { at: `${ts('parser.ts')}:4:14-4:20`, fields: { name: 'Parser', kind: 'class' } },
      { at: `${ts('parser.ts')}:7:3-7:11`, fields: { name: 'tokenize', kind: 'method', containerName: 'Parser' } },
      { at: `${ts('parser.ts')}:11:3-11:8`, fields: { name: 'parse', kind: 'method', containerName: 'Parser' } },
      { at: `${ts('parser.ts')}:18:17-18:27`, fields: { name: 'makeParser', kind: 'function' } },
    ],
  },
  {
    title: 'diagnostics of a file: the type error',
    prompt: tool('diagnostics', { file: ts('report.ts') }),
    locations: [`${ts('report.ts')}:9:14-9:19`],
    fields: [{ severity: 'error', source: 'ts', code: '2322', message: "Type 'string' is not assignable to type 'number'." }],
  },
  {
    title: 'text search: one hit per line, character columns',
    prompt: program('search("ts-project/src", "new Parser\\\\(", ".ts")'),
    locations: [`${ts('main.ts')}:4:42-4:53`, `${ts('parser.ts')}:19:10-19:21`, `${ts('report.ts')}:5:21-5:32`],
  },
];

const py = (name: string): string => `py-package/geometry/${name}`;

/**
 * Python (test-fixtures/workspace/py-package): pyright in the fallback. code-server has no Python
 * language extension, so the host suite cannot ask VS Code these.
 */
export const PYTHON_EXPECTATIONS: readonly IdeExpectation[] = [
  {
    title: 'find definition of a class',
    prompt: 'find definition of Circle',
    locations: [`${py('shapes.py')}:5:7-5:13`],
    fields: [{ name: 'Circle', kind: 'class', snippet: 'class Circle:' }],
  },
  {
    title: 'Go to Definition at a use in another module',
    prompt: tool('find_definitions', { file: py('report.py'), line: 6, column: 14 }),
    locations: [`${py('shapes.py')}:5:7-5:13`],
  },
  {
    title: 'references of a function across modules, the declaration included',
    prompt: program('findReferences(findDefinitions("area_of")[0])'),
    locations: [
      `${py('__init__.py')}:2:29-2:36`,
      `${py('__init__.py')}:4:23-4:30`,
      `${py('report.py')}:2:29-2:36`,
      `${py('report.py')}:7:20-7:27`,
      `${py('shapes.py')}:13:5-13:12`,
    ],
  },
  {
    title: 'a method by container: Circle.area',
    prompt: program('findDefinitions("Circle.area")'),
    locations: [`${py('shapes.py')}:9:9-9:13`],
    fields: [{ name: 'area', containerName: 'Circle' }],
  },
  {
    title: 'hover of a function',
    prompt: tool('hover', { file: py('shapes.py'), line: 13, column: 5 }),
    at: `${py('shapes.py')}:13:5-13:12`,
    contents: /def area_of\(\s*shape: Circle\s*\) -> float/,
  },
  {
    title: 'diagnostics of a file: a str where a float is expected',
    prompt: tool('diagnostics', { file: py('report.py') }),
    locations: [`${py('report.py')}:10:14-10:27`],
    fields: [{ severity: 'error' }],
  },
];

const go = (name: string): string => `go-module/${name}`;

/**
 * Go (test-fixtures/workspace/go-module, no dependencies): gopls in the fallback (Debian's gopls package;
 * .ci/run installs it). code-server has no Go extension, so the host suite cannot ask VS Code these.
 */
export const GO_EXPECTATIONS: readonly IdeExpectation[] = [
  {
    title: 'find definition of a struct type',
    prompt: 'find definition of Square',
    locations: [`${go('shapes.go')}:5:6-5:12`],
    fields: [{ name: 'Square', snippet: 'type Square struct {' }],
  },
  {
    title: 'Go to Definition at a use in another file (after a tab)',
    prompt: tool('find_definitions', { file: go('report.go'), line: 7, column: 8 }),
    locations: [`${go('shapes.go')}:5:6-5:12`],
  },
  {
    title: 'references of a type across files, the declaration included',
    prompt: program('findReferences(findDefinitions("Square")[0])'),
    locations: [
      `${go('report.go')}:7:8-7:14`,
      `${go('shapes.go')}:5:6-5:12`,
      `${go('shapes.go')}:10:9-10:15`,
      `${go('shapes.go')}:15:24-15:30`,
    ],
  },
  {
    title: 'references of a function at a use',
    prompt: tool('find_references', { file: go('report.go'), line: 8, column: 47 }),
    locations: [`${go('report.go')}:8:47-8:58`, `${go('shapes.go')}:15:6-15:17`],
  },
  {
    title: 'hover of a function: its signature',
    prompt: tool('hover', { file: go('shapes.go'), line: 15, column: 6 }),
    at: `${go('shapes.go')}:15:6-15:17`,
    contents: /func PerimeterOf\(shape Square\) float64/,
  },
  {
    title: 'workspace symbols: the function, with its kind',
    prompt: program('symbols("PerimeterOf")'),
    includes: [{ at: `${go('shapes.go')}:15:6-15:17`, fields: { name: 'PerimeterOf', kind: 'function' } }],
  },
  {
    title: 'document symbols: the outline',
    prompt: tool('document_symbols', { file: go('shapes.go') }),
    includes: [
      { at: `${go('shapes.go')}:5:6-5:12`, fields: { name: 'Square' } },
      { at: `${go('shapes.go')}:15:6-15:17`, fields: { name: 'PerimeterOf', kind: 'function' } },
    ],
  },
];

/**
 * The JSON of an `ide` tool's reply as ElizACP words it: the tool's text, followed by
 * `\n(progress: …)` when the call reported progress on its way (a cold language server, an editor
 * slow to answer), which is left out here.
 */
export function toolReplyJson(reply: string): unknown {
  return JSON.parse(reply.replace(/\n\(progress: [^\n]*\)$/, ''));
}

/**
 * What differs between `reply` (the tool's text, JSON) and `e`; empty when it matches. Both
 * suites assert `deepEqual(mismatches(e, reply), [])`, so a failure shows every difference.
 */
export function mismatches(e: IdeExpectation, reply: string): string[] {
  let value: unknown;
  try {
    value = toolReplyJson(reply);
  } catch {
    return [`${e.title}: the reply is not JSON: ${reply.slice(0, 300)}`];
  }
  const out: string[] = [];
  const v = value as { results?: Located[]; contents?: unknown } & Partial<Located>;
  const results = v.results ?? [];
  const show = (x: unknown): string => JSON.stringify(x);
  if (e.locations && show(results.map(brief)) !== show(e.locations))
    out.push(`${e.title}: locations ${show(results.map(brief))}, expected ${show(e.locations)}`);
  e.fields?.forEach((fields, i) => {
    for (const [k, want] of Object.entries(fields))
      if (show(results[i]?.[k]) !== show(want))
        out.push(`${e.title}: results[${i}].${k} is ${show(results[i]?.[k])}, expected ${show(want)}`);
  });
  for (const inc of e.includes ?? []) {
    const found = results.some((r) => brief(r) === inc.at && Object.entries(inc.fields).every(([k, want]) => show(r[k]) === show(want)));
    if (!found)
      out.push(
        `${e.title}: no result at ${inc.at} with ${show(inc.fields)} among ${show(results.map((r) => [brief(r), r.name, r.kind, r.containerName]))}`,
      );
  }
  if (e.at !== undefined) {
    const at = typeof v.file === 'string' ? brief(v as Located) : 'nothing';
    if (at !== e.at) out.push(`${e.title}: at ${at}, expected ${e.at}`);
  }
  if (e.contents && !(typeof v.contents === 'string' && e.contents.test(v.contents)))
    out.push(`${e.title}: contents ${show(v.contents)} do not match ${String(e.contents)}`);
  return out;
}
