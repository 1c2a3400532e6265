// The `ide_operation` parser as a table: what parses (Dialect's own syntax, the extensions,
// nesting and indexing) and what does not, with the column and the wording of each error.
import * as assert from 'node:assert/strict';
import { DialectError, describeError, MAX_NESTING, parseProgram, type Expr } from './dialect';

/** A compact rendering of the tree: call(name, args…), [items], {k: v}, x[i], "s", 1, true, null. */
function show(e: Expr): string {
  switch (e.type) {
    case 'string':
      return JSON.stringify(e.value);
    case 'number':
      return String(e.value);
    case 'boolean':
      return String(e.value);
    case 'null':
      return 'null';
    case 'array':
      return `[${e.items.map(show).join(', ')}]`;
    case 'object':
      return `{${e.entries.map(({ key, value }) => `${key}: ${show(value)}`).join(', ')}}`;
    case 'call':
      return `${e.name}(${e.args.map(show).join(', ')})`;
    case 'index':
      return `${show(e.target)}[${show(e.index)}]`;
  }
}

const OK: [program: string, tree: string][] = [
  // Dialect as the older Symposium wrote it
  ['findDefinitions("Parser")', 'findDefinitions("Parser")'],
  ["findDefinition('Parser')", 'findDefinition("Parser")'],
  ['findReferences(`Parser`)', 'findReferences("Parser")'],
  ['FINDREFERENCES("x",)', 'FINDREFERENCES("x")'],
  ['search("src", "TODO\\\\(", ".ts")', 'search("src", "TODO\\\\(", ".ts")'],
  ['search("src/main.ts", "fn \\\\w+")', 'search("src/main.ts", "fn \\\\w+")'],
  ['lines("src/main.ts", 3, 9)', 'lines("src/main.ts", 3, 9)'],
  ['{"findDefinitions": {of: "X"}}', '{findDefinitions: {of: "X"}}'],
  ['[1, 2, 3,]', '[1, 2, 3]'],
  ['true', 'true'],
  // extensions: calls without arguments, null, negative and decimal numbers, _ and digits
  ['diagnostics()', 'diagnostics()'],
  ['getSelection( )', 'getSelection()'],
  ['null', 'null'],
  ['[-1, 2.5]', '[-1, 2.5]'],
  ['find_definitions2("a")', 'find_definitions2("a")'],
  // nesting and indexing
  ['findReferences(findDefinitions("Parser")[0])', 'findReferences(findDefinitions("Parser")[0])'],
  ['findDefinitions("P")[0]["file"]', 'findDefinitions("P")[0]["file"]'],
  ['[[1, 2], [3]][1][0]', '[[1, 2], [3]][1][0]'],
  ['hover(findDefinitions("A")[-1])', 'hover(findDefinitions("A")[-1])'],
  [
    'findReferences([findDefinitions("A")[0], {file: "a.ts", line: 3, column: 5}])',
    'findReferences([findDefinitions("A")[0], {file: "a.ts", line: 3, column: 5}])',
  ],
  ['  findDefinitions ( "x" ) [ 0 ]  ', 'findDefinitions("x")[0]'],
  ['hover(\n  "src/main.ts",\n  12,\n  5\n)', 'hover("src/main.ts", 12, 5)'],
  // strings: escapes, other quotes inside, unknown escapes kept for regexes
  ['"a\\"b"', '"a\\"b"'],
  ["'it\\'s'", '"it\'s"'],
  ['"tab\\there"', '"tab\\there"'],
  ['"\\u00e9"', '"é"'],
  ['"fn \\w+\\("', '"fn \\\\w+\\\\("'],
  ['"emoji 😀 ok"', '"emoji 😀 ok"'],
];

const ERRORS: [program: string, column: number, message: RegExp][] = [
  ['', 1, /the program is empty/],
  ['findDefinitions("x"', 20, /expected "," or "\)" after an item of the arguments of findDefinitions, found the end of the program/],
  ['findDefinitions("x" "y")', 21, /expected "," or "\)" after an item of the arguments of findDefinitions, found "\\""/],
  ['findDefinitions(Parser)', 23, /expected "\(" after Parser: a name on its own is not a value.*quote it.*"Parser"/],
  ['Parser', 7, /expected "\(" after Parser/],
  ['findDefinitions("x))', 17, /unterminated string: expected a closing "/],
  ['findDefinitions("x") extra', 22, /expected the end of the program after the expression, found "e"/],
  ['findDefinitions(,)', 17, /expected a value .*found ","/],
  ['findDefinitions("x")[', 22, /expected a value .*found the end of the program/],
  ['findDefinitions("x")[0', 23, /expected "\]" to close the index, found the end of the program/],
  ['[1, 2', 6, /expected "," or "\]" after an item of the array/],
  ['{a 1}', 4, /expected ":" after the key "a", found "1"/],
  ['{1: 2}', 2, /expected a key \(a name or a string\) or "}" in the object, found "1"/],
  ['{a: 1 b: 2}', 7, /expected "," or "}" after a value of the object, found "b"/],
  ['12abc', 3, /expected a number, found "12a"/],
  ['@', 1, /expected a value \(a string, number, array, object or function call\), found "@"/],
  ['hover("a.ts", 1, 2))', 20, /expected the end of the program/],
];

describe('ide_operation parser (dialect.ts)', () => {
  for (const [program, tree] of OK) {
    it(`parses ${JSON.stringify(program)}`, () => assert.equal(show(parseProgram(program)), tree));
  }

  for (const [program, column, message] of ERRORS) {
    it(`refuses ${JSON.stringify(program)} at column ${column}`, () => {
      let err: unknown;
      try {
        parseProgram(program);
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof DialectError, `no DialectError for ${program}`);
      assert.match(err.message, message);
      assert.match(describeError(program, err), new RegExp(`^Parse error at column ${column}: `));
    });
  }

  it('renders the error with the program and a caret under the column', () => {
    const program = 'findDefinitions("x" "y")';
    try {
      parseProgram(program);
      assert.fail('parsed');
    } catch (e) {
      assert.equal(
        describeError(program, e as DialectError),
        `Parse error at column 21: expected "," or ")" after an item of the arguments of findDefinitions, found "\\""\n  ${program}\n  ${' '.repeat(20)}^`,
      );
    }
  });

  it('names the line in multi-line programs', () => {
    const program = 'findReferences(\n  findDefinitions("A")[0\n)';
    try {
      parseProgram(program);
      assert.fail('parsed');
    } catch (e) {
      assert.match(
        describeError(program, e as DialectError),
        /^Parse error at line 3, column 1: expected "\]" to close the index, found "\)"\n {2}\)\n {2}\^$/,
      );
    }
  });

  it(`refuses nesting deeper than ${MAX_NESTING} levels without overflowing the stack`, () => {
    const deep = `${'['.repeat(4_000)}${']'.repeat(4_000)}`;
    assert.throws(
      () => parseProgram(deep),
      (e: unknown) => e instanceof DialectError && /nest deeper than 64 levels/.test(e.message),
    );
    assert.doesNotThrow(() => parseProgram(`${'['.repeat(60)}${']'.repeat(60)}`));
  });

  it('refuses programs over the size limit', () => {
    assert.throws(() => parseProgram(`"${'x'.repeat(20_000)}"`), /limit is 10000/);
  });
});
