// The parser of `ide_operation` programs: the older Symposium's Dialect (a JSON superset where a
// value may also be a function call), extended for composing lookups in one call. Pure, no I/O;
// the grammar is written out in EBNF in docs/ide-operations.md:
//
//   program  = expr ;
//   expr     = primary { "[" expr "]" } ;
//   primary  = string | number | "true" | "false" | "null" | array | object | call ;
//   call     = identifier "(" [ expr { "," expr } [ "," ] ] ")" ;
//   array    = "[" [ expr { "," expr } [ "," ] ] "]" ;
//   object   = "{" [ key ":" expr { "," key ":" expr } [ "," ] ] "}" ;
//   key      = string | identifier ;
//
// Compatible with Dialect's real parser: strings in `"`, `'` or backticks, trailing commas, object
// keys bare or quoted, a bare identifier is an error. Extensions: `null`, negative and decimal
// numbers, identifiers with digits and `_`, calls without arguments, `[i]` indexing. In strings
// `\n \t \r \\ \" \' \` \uXXXX` are escapes and any other backslash stays as written, so a regex
// may be given with single backslashes (`"fn \w+"`) or doubled ones (`"fn \\w+"`).
//
// Errors are DialectErrors carrying the offset; `describeError` renders line, column, the
// expectation and a caret under the program.

export type Expr =
  | { type: 'string'; value: string; start: number; end: number }
  | { type: 'number'; value: number; start: number; end: number }
  | { type: 'boolean'; value: boolean; start: number; end: number }
  | { type: 'null'; start: number; end: number }
  | { type: 'array'; items: Expr[]; start: number; end: number }
  | { type: 'object'; entries: { key: string; value: Expr }[]; start: number; end: number }
  | { type: 'call'; name: string; args: Expr[]; start: number; end: number }
  | { type: 'index'; target: Expr; index: Expr; start: number; end: number };

export class DialectError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly phase: 'parse' | 'evaluation' = 'parse',
  ) {
    super(message);
    this.name = 'DialectError';
  }
}

export const MAX_PROGRAM_CHARS = 10_000;
export const MAX_NESTING = 64;

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '`': '`' };
const QUOTES = new Set(['"', "'", '`']);

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  program(): Expr {
    this.ws();
    if (this.pos >= this.src.length) throw this.error('expected an expression, e.g. findDefinitions("Name"), but the program is empty');
    const expr = this.expr();
    this.ws();
    if (this.pos < this.src.length) throw this.error(`expected the end of the program after the expression, found ${this.found()}`);
    return expr;
  }

  private expr(): Expr {
    if (++this.depth > MAX_NESTING) throw this.error(`expressions nest deeper than ${MAX_NESTING} levels`);
    let e = this.primary();
    for (;;) {
      this.ws();
      if (this.peek() !== '[') break;
      this.pos++;
      this.ws();
      const index = this.expr();
      this.ws();
      this.expect(']', 'to close the index');
      e = { type: 'index', target: e, index, start: e.start, end: this.pos };
    }
    this.depth--;
    return e;
  }

  private primary(): Expr {
    this.ws();
    const ch = this.peek();
    const start = this.pos;
    if (ch === undefined)
      throw this.error('expected a value (a string, number, array, object or function call), found the end of the program');
    if (QUOTES.has(ch)) return { type: 'string', value: this.string(), start, end: this.pos };
    if (/[0-9]/.test(ch) || (ch === '-' && /[0-9]/.test(this.src[this.pos + 1] ?? ''))) return this.number();
    if (ch === '[') {
      this.pos++;
      const items = this.list(']', 'array');
      return { type: 'array', items, start, end: this.pos };
    }
    if (ch === '{') return this.object();
    if (/[A-Za-z_]/.test(ch)) {
      const name = this.identifier();
      if (name === 'true' || name === 'false') return { type: 'boolean', value: name === 'true', start, end: this.pos };
      if (name === 'null') return { type: 'null', start, end: this.pos };
      this.ws();
      if (this.peek() !== '(') {
        throw new DialectError(
          `expected "(" after ${name}: a name on its own is not a value. Call it as a function, ${name}(…), or quote it to pass it as text: "${name}"`,
          this.pos,
        );
      }
      this.pos++;
      const args = this.list(')', `arguments of ${name}`);
      return { type: 'call', name, args, start, end: this.pos };
    }
    throw this.error(`expected a value (a string, number, array, object or function call), found ${this.found()}`);
  }

  /** Comma-separated expressions up to `close` (the opener is consumed); trailing comma allowed. */
  private list(close: string, what: string): Expr[] {
    const items: Expr[] = [];
    for (;;) {
      this.ws();
      if (this.peek() === close) {
        this.pos++;
        return items;
      }
      items.push(this.expr());
      this.ws();
      const next = this.peek();
      if (next === ',') {
        this.pos++;
        continue;
      }
      if (next === close) continue;
      throw this.error(`expected "," or "${close}" after an item of the ${what}, found ${this.found()}`);
    }
  }

  private object(): Expr {
    const start = this.pos;
    this.pos++; // {
    const entries: { key: string; value: Expr }[] = [];
    for (;;) {
      this.ws();
      const ch = this.peek();
      if (ch === '}') {
        this.pos++;
        return { type: 'object', entries, start, end: this.pos };
      }
      let key: string;
      if (ch !== undefined && QUOTES.has(ch)) key = this.string();
      else if (ch !== undefined && /[A-Za-z_]/.test(ch)) key = this.identifier();
      else throw this.error(`expected a key (a name or a string) or "}" in the object, found ${this.found()}`);
      this.ws();
      this.expect(':', `after the key ${JSON.stringify(key)}`);
      entries.push({ key, value: this.expr() });
      this.ws();
      const next = this.peek();
      if (next === ',') this.pos++;
      else if (next !== '}') throw this.error(`expected "," or "}" after a value of the object, found ${this.found()}`);
    }
  }

  private string(): string {
    const quote = this.src[this.pos]!;
    const start = this.pos;
    this.pos++;
    let out = '';
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos]!;
      if (ch === quote) {
        this.pos++;
        return out;
      }
      if (ch === '\\' && this.pos + 1 < this.src.length) {
        const next = this.src[this.pos + 1]!;
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.src.slice(this.pos + 2, this.pos + 6))) {
          out += String.fromCharCode(parseInt(this.src.slice(this.pos + 2, this.pos + 6), 16));
          this.pos += 6;
          continue;
        }
        const escaped = ESCAPES[next];
        out += escaped ?? `\\${next}`; // unknown escapes (regex classes like \w, \() stay as written
        this.pos += 2;
        continue;
      }
      out += ch;
      this.pos++;
    }
    throw new DialectError(`unterminated string: expected a closing ${quote} for the string that starts here`, start);
  }

  private number(): Expr {
    const start = this.pos;
    const m = /^-?[0-9]+(?:\.[0-9]+)?/.exec(this.src.slice(this.pos))!;
    this.pos += m[0].length;
    if (/[A-Za-z_]/.test(this.peek() ?? '')) throw this.error(`expected a number, found ${JSON.stringify(m[0] + (this.peek() ?? ''))}…`);
    return { type: 'number', value: Number(m[0]), start, end: this.pos };
  }

  private identifier(): string {
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos))!;
    this.pos += m[0].length;
    return m[0];
  }

  private expect(ch: string, why: string): void {
    if (this.peek() !== ch) throw this.error(`expected "${ch}" ${why}, found ${this.found()}`);
    this.pos++;
  }

  private ws(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos]!)) this.pos++;
  }

  private peek(): string | undefined {
    return this.src[this.pos];
  }

  private found(): string {
    const ch = this.peek();
    return ch === undefined ? 'the end of the program' : JSON.stringify(ch);
  }

  private error(message: string): DialectError {
    return new DialectError(message, this.pos);
  }
}

export function parseProgram(src: string): Expr {
  if (src.length > MAX_PROGRAM_CHARS)
    throw new DialectError(`the program is ${src.length} characters long; the limit is ${MAX_PROGRAM_CHARS}`, 0);
  return new Parser(src).program();
}

/** 1-based line and column (characters) of `offset` in `src`. */
export function lineColumnOf(src: string, offset: number): { line: number; column: number } {
  const before = src.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: [...lines[lines.length - 1]!].length + 1 };
}

/**
 * "Parse error at column 17: expected … \n  <program line>\n  <caret>" — the whole message an
 * agent sees. Multi-line programs name the line too.
 */
export function describeError(src: string, err: DialectError): string {
  const { line, column } = lineColumnOf(src, err.offset);
  const where = src.includes('\n') ? `line ${line}, column ${column}` : `column ${column}`;
  const text = src.split('\n')[line - 1] ?? '';
  const caret = `${' '.repeat(Math.max(0, column - 1))}^`;
  const head = err.phase === 'parse' ? 'Parse error' : 'Error';
  return `${head} at ${where}: ${err.message}\n  ${text}\n  ${caret}`;
}

/** The source text of an expression, for messages ("findDefinitions("X") returned no results"). */
export const sourceOf = (src: string, e: Expr): string => src.slice(e.start, e.end);
