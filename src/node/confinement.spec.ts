// The one confinement rule (src/node/confinement.ts) as a table over real files and real
// symlinks in a temp folder. "write" rows also write through the result, the way fs-adapter and
// the extension do, and the last test checks that nothing appeared outside.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confine, isInside, OutsideWorkspaceError, RealPathCache, realPathOf } from './confinement';
import { readLines, writeTextNoFollow } from './textFiles';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-confine-')));
const ws = path.join(base, 'ws');
const other = path.join(base, 'other');
const j = (...parts: string[]): string => path.join(...parts);

function setUp(): void {
  fs.mkdirSync(j(ws, 'src'), { recursive: true });
  fs.mkdirSync(other, { recursive: true });
  fs.mkdirSync(`${ws}-evil`, { recursive: true }); // shares the root's name as a prefix
  fs.writeFileSync(j(ws, 'src/a.ts'), 'a');
  fs.writeFileSync(j(ws, '..notes'), 'a legal name');
  fs.writeFileSync(j(other, 'secret.txt'), 'secret');
  fs.symlinkSync(other, j(ws, 'link-out')); // existing dir outside
  fs.symlinkSync(j(ws, 'src'), j(ws, 'link-in')); // existing dir inside
  fs.symlinkSync(j(other, 'secret.txt'), j(ws, 'file-out')); // existing file outside
  fs.symlinkSync(j(other, 'planted.txt'), j(ws, 'dangling-out')); // missing file outside
  fs.symlinkSync('../other/planted-rel.txt', j(ws, 'dangling-rel')); // relative target, outside
  fs.symlinkSync(j(other, 'newdir'), j(ws, 'dangling-dir')); // missing folder outside
  fs.symlinkSync(j(ws, 'chain-2'), j(ws, 'chain-1')); // chain: 1 → 2 → outside (missing)
  fs.symlinkSync(j(other, 'chained.txt'), j(ws, 'chain-2'));
  fs.symlinkSync(j(ws, 'inner-2'), j(ws, 'inner-1')); // chain: 1 → 2 → inside (missing)
  fs.symlinkSync(j(ws, 'src/created.txt'), j(ws, 'inner-2'));
  fs.symlinkSync(j(ws, 'loop-b'), j(ws, 'loop-a'));
  fs.symlinkSync(j(ws, 'loop-a'), j(ws, 'loop-b'));
  fs.symlinkSync(ws, j(base, 'ws-link')); // a root that is itself a symlink
}
setUp();

type Row = {
  name: string;
  path: string;
  roots?: string[];
  op: 'read' | 'write';
  /** The resolved path when allowed, or a pattern of the refusal message. */
  expect: string | RegExp;
};

const refused = /outside the folders this agent may use/;
const table: Row[] = [
  { name: 'an existing file inside', path: j(ws, 'src/a.ts'), op: 'read', expect: j(ws, 'src/a.ts') },
  { name: 'a new file in new folders inside', path: j(ws, 'new/dir/b.ts'), op: 'write', expect: j(ws, 'new/dir/b.ts') },
  { name: 'the root itself', path: ws, op: 'read', expect: ws },
  { name: 'a legal file named ..notes', path: j(ws, '..notes'), op: 'read', expect: j(ws, '..notes') },
  { name: 'a new file named ..draft', path: j(ws, '..draft'), op: 'write', expect: j(ws, '..draft') },
  { name: '.. that stays inside', path: j(ws, 'src/../src/a.ts'), op: 'read', expect: j(ws, 'src/a.ts') },
  { name: '.. escaping the root', path: `${ws}/../other/secret.txt`, op: 'read', expect: refused },
  { name: 'a sibling folder sharing the name prefix', path: j(`${ws}-evil`, 'x.txt'), op: 'write', expect: refused },
  { name: 'an absolute path outside', path: '/etc/passwd', op: 'read', expect: /\/etc\/passwd is outside the folders this agent may use/ },
  { name: 'a symlinked parent folder inside', path: j(ws, 'link-in/c.ts'), op: 'write', expect: j(ws, 'src/c.ts') },
  { name: 'a symlinked parent folder outside', path: j(ws, 'link-out/secret.txt'), op: 'read', expect: /resolves to .*other\/secret\.txt/ },
  { name: 'a new file under a symlinked folder outside', path: j(ws, 'link-out/planted-via-dir.txt'), op: 'write', expect: refused },
  { name: 'a symlink to an existing file outside', path: j(ws, 'file-out'), op: 'read', expect: refused },
  { name: 'a dangling symlink to outside (read)', path: j(ws, 'dangling-out'), op: 'read', expect: /resolves to .*other\/planted\.txt/ },
  { name: 'a dangling symlink to outside (write)', path: j(ws, 'dangling-out'), op: 'write', expect: refused },
  { name: 'a dangling relative symlink to outside (write)', path: j(ws, 'dangling-rel'), op: 'write', expect: refused },
  { name: 'a new file under a dangling folder symlink (write)', path: j(ws, 'dangling-dir/f.txt'), op: 'write', expect: refused },
  { name: 'a dangling chain ending outside (read)', path: j(ws, 'chain-1'), op: 'read', expect: /resolves to .*other\/chained\.txt/ },
  { name: 'a dangling chain ending outside (write)', path: j(ws, 'chain-1'), op: 'write', expect: refused },
  { name: 'a dangling chain ending inside (write)', path: j(ws, 'inner-1'), op: 'write', expect: j(ws, 'src/created.txt') },
  { name: 'a symlink loop', path: j(ws, 'loop-a'), op: 'read', expect: /too many levels of symlinks/ },
  { name: 'a relative path (from the first root)', path: 'src/a.ts', roots: [ws, other], op: 'read', expect: j(ws, 'src/a.ts') },
  { name: 'a relative path escaping with ..', path: '../other/secret.txt', op: 'write', expect: refused },
  { name: 'a relative path through a dangling link', path: 'dangling-out', op: 'write', expect: refused },
  { name: 'a relative path with no roots', path: 'src/a.ts', roots: [], op: 'read', expect: /relative path and there is no folder/ },
  { name: 'a NUL byte', path: `${ws}/a\0b`, op: 'write', expect: /NUL byte/ },
  { name: 'the second of several roots', path: j(other, 'secret.txt'), roots: [ws, other], op: 'read', expect: j(other, 'secret.txt') },
  { name: 'in none of several roots', path: j(base, 'elsewhere.txt'), roots: [ws, other], op: 'write', expect: refused },
  {
    name: 'a root that is a symlink, path through it',
    path: j(base, 'ws-link/src/a.ts'),
    roots: [j(base, 'ws-link')],
    op: 'read',
    expect: j(ws, 'src/a.ts'),
  },
  {
    name: 'a root that is a symlink, real path given',
    path: j(ws, 'src/a.ts'),
    roots: [j(base, 'ws-link')],
    op: 'read',
    expect: j(ws, 'src/a.ts'),
  },
  {
    name: 'a root that is a symlink, escaping with ..',
    path: `${base}/ws-link/../other/secret.txt`,
    roots: [j(base, 'ws-link')],
    op: 'read',
    expect: refused,
  },
];

/** What an agent gets: confine, then read or write the resolved path (as fs-adapter does). */
async function attempt(row: Row): Promise<string> {
  const file = confine(row.path, row.roots ?? [ws]);
  if (row.op === 'write') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await writeTextNoFollow(file, 'written by the test');
  } else if (fs.statSync(file).isFile()) {
    await readLines(file, 1, 1);
  }
  return file;
}

describe('confinement (one rule for the extension and the conductor)', () => {
  const outsideBefore = fs.readdirSync(other).sort();

  for (const row of table) {
    it(`${typeof row.expect === 'string' ? 'allows' : 'refuses'} ${row.name}`, async () => {
      if (typeof row.expect === 'string') {
        assert.equal(await attempt(row), row.expect);
      } else {
        await assert.rejects(attempt(row), (e: unknown) => {
          assert.ok(e instanceof OutsideWorkspaceError, `expected OutsideWorkspaceError, got ${String(e)}`);
          assert.match(e.message, row.expect as RegExp);
          assert.ok(e.message.includes(row.path) || e.message.includes(JSON.stringify(row.path)), 'the message names the requested path');
          assert.match(e.message, /checked after following every symlink/, 'the message states the rule');
          return true;
        });
      }
    });
  }

  it('wrote nothing outside through any refused row', () => {
    assert.deepEqual(fs.readdirSync(other).sort(), outsideBefore);
    assert.equal(fs.existsSync(j(`${ws}-evil`, 'x.txt')), false);
    assert.equal(fs.existsSync(j(base, 'elsewhere.txt')), false);
  });

  it("adds the caller's scope and hint to the message", () => {
    assert.throws(
      () => confine('/etc/passwd', [ws], { scope: "the session's working directory", hint: 'See symposium.allowedFolders.' }),
      /\/etc\/passwd is outside the session's working directory .*symposium\.allowedFolders/,
    );
  });

  it('writing refuses a last component that became a symlink after the check', async () => {
    const file = confine(j(ws, 'swapped.txt'), [ws]);
    fs.symlinkSync(j(other, 'swapped-target.txt'), file); // the race: a link appears after confine
    await assert.rejects(writeTextNoFollow(file, 'x'), /ELOOP/);
    assert.equal(fs.existsSync(j(other, 'swapped-target.txt')), false);
  });

  it('isInside: "..notes" is inside, ".." and "../x" are not', () => {
    assert.equal(isInside(j(ws, '..notes'), ws), true);
    assert.equal(isInside(j(ws, '..', 'x'), ws), false);
    assert.equal(isInside(base, ws), false);
    assert.equal(isInside(ws, ws), true);
  });
});

describe('confinement with a real-path cache (paths asked again)', () => {
  const cache = new RealPathCache();
  /** The resolved path, or the refusal as text (so answers with and without the cache compare). */
  const outcome = (p: string, roots: string[], options: { cache?: RealPathCache } = { cache }): string => {
    try {
      return confine(p, roots, options);
    } catch (err) {
      return err instanceof OutsideWorkspaceError ? `refused: ${err.message}` : `error: ${String(err)}`;
    }
  };

  it('gives every row of the table the same answer as without a cache, the first time and again', () => {
    for (const row of table) {
      const roots = row.roots ?? [ws];
      const expected = outcome(row.path, roots, {});
      assert.equal(outcome(row.path, roots), expected, `${row.name}, first time`);
      assert.equal(outcome(row.path, roots), expected, `${row.name}, asked again`);
    }
  });

  // Each case: a path allowed and cached, then changed on disk, then asked again.
  const sandbox = j(ws, 'cache-cases');
  before(() => {
    fs.mkdirSync(j(sandbox, 'dir'), { recursive: true });
    fs.mkdirSync(j(other, 'dir'), { recursive: true });
    fs.writeFileSync(j(other, 'dir', 'f.ts'), 'outside, same name');
  });

  it('refuses a cached file that was replaced by a link to a file outside', () => {
    const file = j(sandbox, 'plain.ts');
    fs.writeFileSync(file, 'x');
    assert.equal(outcome(file, [ws]), file);
    fs.rmSync(file);
    fs.symlinkSync(j(other, 'secret.txt'), file);
    assert.match(outcome(file, [ws]), /^refused: .*resolves to .*other\/secret\.txt/);
  });

  it('refuses a cached file whose folder was replaced by a link to a folder outside', () => {
    const file = j(sandbox, 'dir', 'f.ts');
    fs.writeFileSync(file, 'inside');
    assert.equal(outcome(file, [ws]), file);
    fs.rmSync(j(sandbox, 'dir'), { recursive: true });
    fs.symlinkSync(j(other, 'dir'), j(sandbox, 'dir'));
    assert.match(outcome(file, [ws]), /^refused: .*resolves to .*other\/dir\/f\.ts/);
  });

  it('follows a link inside that was pointed at another file inside', () => {
    fs.writeFileSync(j(sandbox, 'v1.ts'), '1');
    fs.writeFileSync(j(sandbox, 'v2.ts'), '2');
    const link = j(sandbox, 'current.ts');
    fs.symlinkSync(j(sandbox, 'v1.ts'), link);
    assert.equal(outcome(link, [ws]), j(sandbox, 'v1.ts'));
    fs.rmSync(link);
    fs.symlinkSync(j(sandbox, 'v2.ts'), link);
    assert.equal(outcome(link, [ws]), j(sandbox, 'v2.ts'));
  });

  it('does not hand back a real path that now leads outside, though the link asked for still reaches the same file', () => {
    const dir = j(sandbox, 'real-dir');
    fs.mkdirSync(dir);
    fs.writeFileSync(j(dir, 'f.ts'), 'inside');
    const link = j(sandbox, 'L');
    fs.symlinkSync(dir, link);
    assert.equal(outcome(j(link, 'f.ts'), [ws]), j(dir, 'f.ts'));
    // The folder moves (the file keeps its identity), the link follows it, and the old real path
    // becomes a link to a folder outside that holds a file of the same name.
    fs.renameSync(dir, j(sandbox, 'real-dir2'));
    fs.rmSync(link);
    fs.symlinkSync(j(sandbox, 'real-dir2'), link);
    fs.symlinkSync(j(other, 'dir'), dir);
    assert.equal(outcome(j(link, 'f.ts'), [ws]), j(sandbox, 'real-dir2', 'f.ts'));
  });

  it('refuses a cached link inside that was pointed outside', () => {
    const link = j(sandbox, 'moving.ts');
    fs.symlinkSync(j(sandbox, 'v1.ts'), link);
    assert.equal(outcome(link, [ws]), j(sandbox, 'v1.ts'));
    fs.rmSync(link);
    fs.symlinkSync(j(other, 'secret.txt'), link);
    assert.match(outcome(link, [ws]), /^refused: /);
  });

  it('refuses a cached file that was deleted and replaced by a dangling link out (a write would create it)', () => {
    const file = j(sandbox, 'gone.ts');
    fs.writeFileSync(file, 'x');
    assert.equal(outcome(file, [ws]), file);
    fs.rmSync(file);
    fs.symlinkSync(j(other, 'created-by-write.txt'), file);
    assert.match(outcome(file, [ws]), /^refused: /);
    assert.equal(fs.existsSync(j(other, 'created-by-write.txt')), false);
  });

  it("resolves a root again when the folder's link was pointed elsewhere", () => {
    const rootLink = j(base, 'moving-root');
    fs.symlinkSync(ws, rootLink);
    assert.equal(realPathOf(rootLink, cache), ws);
    fs.rmSync(rootLink);
    fs.symlinkSync(other, rootLink);
    assert.equal(realPathOf(rootLink, cache), other);
    assert.match(outcome(j(rootLink, 'secret.txt'), [ws]), /^refused: /);
  });

  it('keeps at most its bound of paths', () => {
    const small = new RealPathCache(2);
    for (const name of ['a1', 'a2', 'a3']) fs.writeFileSync(j(sandbox, name), name);
    for (const name of ['a1', 'a2', 'a3']) assert.equal(confine(j(sandbox, name), [ws], { cache: small }), j(sandbox, name));
    assert.equal((small as unknown as { known: Map<string, unknown> }).known.size, 2);
  });
});
