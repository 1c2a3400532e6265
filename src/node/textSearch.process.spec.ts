// Text search for `search(path, regex, extension?)` over real files: one hit per matching line
// with 1-based code-point columns, .gitignore'd / hidden / node_modules entries and symlinks
// skipped, an explicit file searched whatever its extension, unsaved text preferred, caps.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IgnoreRules } from './gitignore';
import { MAX_LINE_CHARS } from './lineMatchWorker';
import { SearchError, searchText, SearchTimeoutError } from './textSearch';

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-search-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe('text search (src/node/textSearch.ts)', () => {
  const root = tree({
    'src/main.ts': 'import { Parser } from "./parser";\n// TODO(ana): more\n\tconst p = new Parser(); // TODO(bo)\n',
    'src/parser.ts': 'export class Parser {}\n',
    'src/emoji.ts': 'const s = "😀"; // TODO(emoji)\n',
    'src/notes.md': 'TODO(md)\n',
    'build/out.ts': '// TODO(build)\n',
    'src/gen/x.ts': '// TODO(gen)\n',
    'src/gen/keep.ts': '// TODO(keep)\n',
    'node_modules/dep/index.ts': '// TODO(dep)\n',
    '.hidden/h.ts': '// TODO(hidden)\n',
    '.gitignore': 'build/\n',
    'src/.gitignore': 'gen/*\n!gen/keep.ts\n',
    'bin.dat': 'TODO(\0binary)\n',
  });
  fs.symlinkSync('/etc', path.join(root, 'src', 'etc-link'));

  it('one hit per matching line, 1-based columns in characters, skipping ignored, hidden, node_modules, binary and links', async () => {
    const r = await searchText({ root, regex: 'TODO\\(' });
    const hits = r.items.map((h) => `${path.relative(root, h.file)}:${h.line}:${h.column}-${h.endColumn}`);
    assert.deepEqual(hits, [
      'src/emoji.ts:1:19-24',
      'src/gen/keep.ts:1:4-9',
      'src/main.ts:2:4-9',
      'src/main.ts:3:29-34',
      'src/notes.md:1:1-6',
    ]);
    assert.equal(r.total, 5);
    assert.equal(r.items[3]!.snippet, 'const p = new Parser(); // TODO(bo)');
  });

  it('filters by extension (with or without the dot); an explicit file is searched whatever its extension', async () => {
    const ts = await searchText({ root, regex: 'TODO', extension: 'ts' });
    assert.ok(ts.items.every((h) => h.file.endsWith('.ts')));
    assert.equal(ts.items.length, 4);
    assert.equal((await searchText({ root, regex: 'TODO', extension: '.md' })).items.length, 1);
    const md = await searchText({ root: path.join(root, 'src/notes.md'), regex: 'TODO', extension: '.ts' });
    assert.equal(md.items.length, 1);
  });

  it("prefers the editor's text, caps hits but counts them all, and explains bad input", async () => {
    const main = path.join(root, 'src/main.ts');
    const r = await searchText({ root: main, regex: 'UNSAVED', readText: (f) => (f === main ? 'x\nUNSAVED edit\n' : undefined) });
    assert.deepEqual(
      r.items.map((h) => [h.line, h.column]),
      [[2, 1]],
    );
    const capped = await searchText({ root, regex: 'TODO', maxHits: 2 });
    assert.equal(capped.items.length, 2);
    assert.equal(capped.total, 5);
    await assert.rejects(
      searchText({ root, regex: '(' }),
      (e: unknown) => e instanceof SearchError && /invalid regular expression "\("/.test(e.message),
    );
    await assert.rejects(searchText({ root: path.join(root, 'missing'), regex: 'x' }), /does not exist/);
  });
});

describe('text search with a regex that backtracks without end (src/node/lineMatchWorker.ts)', function () {
  this.timeout(20_000);
  // `(a+)+b` over 32 `a`s and no `b`: 2^32 ways to split the run, minutes of matching.
  const root = tree({ 'a.txt': `ok\n${'a'.repeat(32)}\n`, 'b.txt': 'ok b\n' });

  /** Runs `work` while measuring the longest the event loop went without a turn. */
  async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T | Error; stallMs: number }> {
    let last = performance.now();
    let stallMs = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      stallMs = Math.max(stallMs, now - last);
      last = now;
    }, 5);
    try {
      return { value: await work().catch((e: Error) => e), stallMs };
    } finally {
      clearInterval(tick);
    }
  }

  it('fails with a timeout error that says so, within its budget, and never stalls this thread', async () => {
    const started = Date.now();
    const { value, stallMs } = await longestStall(() => searchText({ root, regex: '(a+)+b', budgetMs: 500 }));
    const took = Date.now() - started;
    assert.ok(value instanceof SearchTimeoutError, String(value));
    assert.ok(value instanceof SearchError, 'a SearchError: callers answer it as a tool error');
    assert.match(value.message, /^the regular expression "\(a\+\)\+b" took longer than 0\.5 s to match and the search was stopped/);
    assert.ok(took >= 450 && took < 3000, `answered after ${took} ms (budget 500 ms)`);
    assert.ok(stallMs < 200, `the event loop stalled ${Math.round(stallMs)} ms`);
    // The next search gets a fresh worker and is answered as usual.
    const next = await searchText({ root, regex: 'ok' });
    assert.deepEqual(
      next.items.map((h) => path.basename(h.file)),
      ['a.txt', 'b.txt'],
    );
  });

  it('stops at once when the caller cancels, and queued searches still run', async () => {
    const controller = new AbortController();
    const doomed = searchText({ root, regex: '(a+)+b', budgetMs: 15_000, signal: controller.signal });
    const queued = searchText({ root, regex: 'b$' }); // waits for the worker behind it
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    await assert.rejects(doomed, (e: unknown) => e instanceof SearchError && /cancelled/.test(e.message));
    assert.ok(Date.now() - started < 2000, 'cancelled promptly');
    assert.deepEqual(
      (await queued).items.map((h) => h.snippet),
      ['ok b'],
    );
  });

  it(`matches the first ${MAX_LINE_CHARS} characters of a line only`, async () => {
    const long = tree({ 'min.js': `${'x'.repeat(MAX_LINE_CHARS - 6)}NEEDLE${'y'.repeat(50_000)}HAYSTACK\n` });
    const inside = await searchText({ root: long, regex: 'NEEDLE' });
    assert.deepEqual(
      inside.items.map((h) => [h.column, h.endColumn, h.snippet.length]),
      [[MAX_LINE_CHARS - 5, MAX_LINE_CHARS + 1, 201]],
    );
    assert.equal((await searchText({ root: long, regex: 'HAYSTACK' })).total, 0);
  });
});

describe('text search in a hostile repository', () => {
  it('a .gitignore that is a FIFO or a link to /dev/zero is skipped at once, and the search goes on', async () => {
    const root = tree({ 'a/x.ts': '// TODO(a)\n', 'b/y.ts': '// TODO(b)\n' });
    execFileSync('mkfifo', [path.join(root, 'a', '.gitignore')]);
    fs.symlinkSync('/dev/zero', path.join(root, 'b', '.gitignore'));
    const started = Date.now();
    const before = process.memoryUsage().rss;
    const r = await searchText({ root, regex: 'TODO\\(' });
    assert.deepEqual(r.items.map((h) => h.snippet).sort(), ['// TODO(a)', '// TODO(b)']);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024, 'nothing like /dev/zero was read');
  });
});

describe('.gitignore rules (src/node/gitignore.ts)', () => {
  const rules = new IgnoreRules('# comment\n\n*.log\n/dist\nbuild/\ndocs/**/*.tmp\n!keep.log\nsrc/*.gen.ts\n');
  const CASES: [string, boolean, boolean | undefined][] = [
    ['a.log', false, true],
    ['deep/x/a.log', false, true],
    ['keep.log', false, false],
    ['dist', true, true],
    ['sub/dist', true, undefined],
    ['build', true, true],
    ['build', false, undefined],
    ['x/build', true, true],
    ['docs/a/b/c.tmp', false, true],
    ['docs/c.tmp', false, true],
    ['src/a.gen.ts', false, true],
    ['src/x/a.gen.ts', false, undefined],
    ['main.ts', false, undefined],
  ];
  for (const [p, isDir, expected] of CASES)
    it(`${p}${isDir ? '/' : ''} → ${String(expected)}`, () => assert.equal(rules.match(p, isDir), expected));
});
