// Checkpoints over Debian's real git and real folders: snapshot, changes, revert, restore (with an
// interrupted restore finished by the next process), ignored, oversized and linked files, the
// user's own repository left untouched and nothing of the folder's able to run a program.
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type CheckpointLimits, DEFAULT_LIMITS } from './checkpointRepo';
import { Checkpoints } from './checkpointRestore';

function tmp(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

function folderWith(files: Record<string, string | Buffer>): string {
  const root = tmp('symposium-ckpt-ws-');
  for (const [rel, content] of Object.entries(files)) write(root, rel, content);
  return root;
}

function write(root: string, rel: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

const read = (root: string, rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8');
const exists = (root: string, rel: string): boolean => fs.existsSync(path.join(root, rel));

function open(folder: string, limits: CheckpointLimits = DEFAULT_LIMITS, storage = tmp('symposium-ckpt-store-')): Checkpoints {
  return new Checkpoints(storage, folder, limits);
}

/** Every file under `dir` with a hash of its bytes (links as their target): to see that nothing changed. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        const bytes = e.isSymbolicLink() ? Buffer.from(`link:${fs.readlinkSync(full)}`) : fs.readFileSync(full);
        out[path.relative(dir, full)] = createHash('sha1').update(bytes).digest('hex');
      }
    }
  };
  walk(dir);
  return out;
}

function runGit(cwd: string, args: string[]): void {
  const env = { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' };
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

/** Runs `script` in another process (another window), with `repo` open on `folder` in `storage`. */
function inAnotherProcess(storage: string, folder: string, script: string): ChildProcess {
  const setup = `const { Checkpoints } = require(${JSON.stringify(path.join(__dirname, 'checkpointRestore.ts'))});
     const folder = ${JSON.stringify(folder)};
     const repo = new Checkpoints(${JSON.stringify(storage)}, folder);`;
  return spawn(process.execPath, ['--import', 'tsx', '-e', `${setup}\n${script}`], { stdio: ['ignore', 'inherit', 'inherit'] });
}

describe('checkpoints (src/node/checkpointRepo.ts, checkpointRestore.ts) over real git', () => {
  it('records a folder that is no git repository, and tells what changed since: added, modified, deleted, lines +/-', async () => {
    const ws = folderWith({ 'a.txt': 'one\ntwo\n', 'src/b.ts': 'let b = 1;\n', 'gone.md': 'bye\n', 'img.bin': Buffer.from([0, 1, 2, 3]) });
    const repo = open(ws);
    const cp = await repo.snapshot('conv1', 'turn1');
    assert.match(cp.commit, /^[0-9a-f]{40}$/);
    assert.deepEqual(cp.leftOut, []);
    write(ws, 'a.txt', 'one\nTWO\nthree\n');
    write(ws, 'src/new.ts', 'x\ny\n');
    fs.rmSync(path.join(ws, 'gone.md'));
    write(ws, 'img.bin', Buffer.from([0, 9, 9]));
    assert.deepEqual(await repo.changesSince(cp), [
      { path: 'a.txt', kind: 'modified', added: 2, removed: 1 },
      { path: 'gone.md', kind: 'deleted', added: 0, removed: 1 },
      { path: 'img.bin', kind: 'modified' },
      { path: 'src/new.ts', kind: 'added', added: 2, removed: 0 },
    ]);
    assert.equal((await repo.contentAt(cp.commit, 'a.txt'))?.toString(), 'one\ntwo\n');
    assert.equal(await repo.contentAt(cp.commit, 'src/new.ts'), undefined);
    assert.ok(!exists(ws, '.git'), 'no repository was created in the folder');
    assert.deepEqual(
      (await repo.list('conv1')).map((c) => c.id),
      ['turn1'],
    );
  });

  it("never touches the user's .git, runs none of its hooks or filters, and ignores GIT_* of the environment", async () => {
    const ws = folderWith({ 'a.txt': 'text\r\nwith crlf\r\n', '.gitattributes': '* filter=evil text eol=lf ident\n' });
    const marker = path.join(tmp('symposium-ckpt-marker-'), 'ran');
    runGit(ws, ['init', '-q']);
    runGit(ws, ['add', '-A']);
    runGit(ws, ['-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-qm', 'user commit', '--no-verify']);
    const script = `#!/bin/sh\ntouch ${marker}\ncat\n`;
    for (const hook of ['pre-commit', 'post-checkout', 'post-index-change', 'fsmonitor-watchman', 'reference-transaction']) {
      fs.writeFileSync(path.join(ws, '.git/hooks', hook), script, { mode: 0o755 });
    }
    fs.writeFileSync(path.join(ws, 'evil.sh'), script, { mode: 0o755 });
    fs.appendFileSync(
      path.join(ws, '.git/config'),
      `[filter "evil"]\n\tclean = ${ws}/evil.sh\n\tsmudge = ${ws}/evil.sh\n[core]\n\tfsmonitor = ${ws}/evil.sh\n`,
    );
    const userGit = fingerprint(path.join(ws, '.git'));
    const saved = { ...process.env };
    Object.assign(process.env, {
      GIT_DIR: path.join(ws, '.git'),
      GIT_INDEX_FILE: path.join(ws, '.git/index'),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: `${ws}/evil.sh`,
      GIT_CONFIG_PARAMETERS: `'core.hookspath'='${ws}/.git/hooks'`,
    });
    try {
      const repo = open(ws);
      const cp = await repo.snapshot('c', 'one');
      write(ws, 'a.txt', 'changed\r\n');
      write(ws, 'b.txt', 'new\n');
      const changes = await repo.changesSince(cp);
      assert.deepEqual(
        changes.map((c) => `${c.kind} ${c.path}`),
        ['modified a.txt', 'added b.txt'],
      );
      await repo.restore(cp);
      // Byte for byte: no end-of-line conversion, no ident expansion, no filter.
      assert.equal(read(ws, 'a.txt'), 'text\r\nwith crlf\r\n');
      assert.ok(!exists(ws, 'b.txt'));
      assert.ok(!fs.existsSync(marker), 'a hook, filter or fsmonitor of the folder ran');
      assert.deepEqual(fingerprint(path.join(ws, '.git')), userGit, "the user's .git changed");
      assert.ok(!repo.git.gitDir.startsWith(ws), 'the shadow repository is outside the folder');
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });

  it('honours .gitignore and the size limits, says what it left out, and a restore leaves those files alone', async () => {
    const ws = folderWith({
      '.gitignore': 'build/\n*.log\n',
      'keep.txt': 'k\n',
      'build/out.js': 'built\n',
      'debug.log': 'log\n',
      'big.dat': 'x'.repeat(2000),
      'mid1.txt': 'm'.repeat(600),
      'mid2.txt': 'n'.repeat(600),
    });
    const repo = open(ws, { maxFileBytes: 1000, maxCheckpointBytes: 1000 });
    const cp = await repo.snapshot('c', 'one');
    const leftOut = Object.fromEntries(cp.leftOut.map((l) => [l.path, l.reason]));
    assert.equal(leftOut['big.dat'], 'file too large');
    assert.equal(Object.values(leftOut).filter((r) => r === 'checkpoint size limit').length, 1, JSON.stringify(leftOut));
    assert.equal(leftOut['build/out.js'], undefined, 'ignored files are not even looked at');
    assert.equal(await repo.contentAt(cp.commit, 'build/out.js'), undefined);
    assert.equal(await repo.contentAt(cp.commit, 'debug.log'), undefined);
    assert.equal((await repo.contentAt(cp.commit, 'keep.txt'))?.toString(), 'k\n');
    write(ws, 'keep.txt', 'changed\n');
    write(ws, 'build/out.js', 'rebuilt\n');
    write(ws, 'big.dat', 'y'.repeat(3000));
    const result = await repo.restore(cp);
    assert.equal(read(ws, 'keep.txt'), 'k\n');
    assert.equal(read(ws, 'build/out.js'), 'rebuilt\n', 'ignored: never restored');
    assert.equal(read(ws, 'big.dat'), 'y'.repeat(3000), 'too large to save: never overwritten');
    assert.ok(exists(ws, 'mid1.txt') && exists(ws, 'mid2.txt'), `a file the checkpoint left out is not deleted: ${JSON.stringify(result)}`);
    assert.deepEqual(
      result.backup.leftOut,
      [{ path: 'big.dat', reason: 'file too large' }],
      'the checkpoint taken first says what it could not save',
    );
    const unsavedThen = cp.leftOut.find((l) => l.reason === 'checkpoint size limit')!.path;
    assert.deepEqual(result.skipped, [{ path: unsavedThen, reason: 'not saved in a checkpoint' }]);
    assert.deepEqual(await repo.changesSince(cp), [], 'a left-out file is not reported as added');
  });

  it('records links as links (never followed out of the folder) and restores them', async () => {
    const outside = folderWith({ 'secret.txt': 'outside\n' });
    const ws = folderWith({ 'real.txt': 'r\n' });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'out-link'));
    fs.symlinkSync('real.txt', path.join(ws, 'in-link'));
    fs.symlinkSync(outside, path.join(ws, 'dir-link'));
    const repo = open(ws);
    const cp = await repo.snapshot('c', 'one');
    assert.equal((await repo.contentAt(cp.commit, 'out-link'))?.toString(), path.join(outside, 'secret.txt'));
    assert.equal(await repo.contentAt(cp.commit, 'dir-link/secret.txt'), undefined, 'a linked folder is not entered');
    fs.rmSync(path.join(ws, 'out-link'));
    fs.rmSync(path.join(ws, 'in-link'));
    write(ws, 'in-link', 'now a file\n');
    // Something added under the linked folder's name after the checkpoint is not ours to delete.
    fs.rmSync(path.join(ws, 'dir-link'));
    fs.symlinkSync(outside, path.join(ws, 'dir-link'));
    await repo.restore(cp);
    assert.equal(fs.readlinkSync(path.join(ws, 'out-link')), path.join(outside, 'secret.txt'));
    assert.equal(fs.readlinkSync(path.join(ws, 'in-link')), 'real.txt');
    assert.equal(read(outside, 'secret.txt'), 'outside\n');
  });

  it('reverts one file at a time (a modified one, a deleted one comes back, an added one goes) and Restore is undoable', async () => {
    const ws = folderWith({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const repo = open(ws);
    const cp = await repo.snapshot('c', 'one');
    write(ws, 'a.txt', 'A\n');
    fs.rmSync(path.join(ws, 'b.txt'));
    write(ws, 'new/deep/d.txt', 'd\n');
    write(ws, 'c.txt', 'C\n');
    await repo.restore(cp, { only: ['a.txt'] });
    assert.equal(read(ws, 'a.txt'), 'a\n');
    assert.ok(!exists(ws, 'b.txt'), 'only the one file');
    await repo.restore(cp, { only: ['b.txt'] });
    assert.equal(read(ws, 'b.txt'), 'b\n');
    const r = await repo.restore(cp, { only: ['new/deep/d.txt'] });
    assert.deepEqual(r.deleted, ['new/deep/d.txt']);
    assert.ok(!exists(ws, 'new'), 'the folders it leaves empty go too');
    assert.equal(read(ws, 'c.txt'), 'C\n');
    const all = await repo.restore(cp, { skip: [] });
    assert.equal(read(ws, 'c.txt'), 'c\n');
    // Undo: the checkpoint taken before the restore has the folder as it was.
    await repo.restore(all.backup);
    assert.equal(read(ws, 'c.txt'), 'C\n');
  });

  it('skips files it is asked to skip (unsaved editors) and names them', async () => {
    const ws = folderWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const repo = open(ws);
    const cp = await repo.snapshot('c', 'one');
    write(ws, 'a.txt', 'A\n');
    write(ws, 'b.txt', 'B\n');
    const r = await repo.restore(cp, { skip: ['b.txt'] });
    assert.deepEqual(r.skipped, [{ path: 'b.txt', reason: 'asked to skip' }]);
    assert.equal(read(ws, 'a.txt'), 'a\n');
    assert.equal(read(ws, 'b.txt'), 'B\n');
  });

  it('finishes a restore that a killed process left half done, on the next start', async function () {
    const ws = folderWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const storage = tmp('symposium-ckpt-store-');
    const repo = open(ws, DEFAULT_LIMITS, storage);
    await repo.snapshot('c', 'one');
    write(ws, 'a.txt', 'A\n');
    write(ws, 'added1.txt', '1\n');
    write(ws, 'added2.txt', '2\n');
    // Another process restores and is killed (SIGKILL: no cleanup) after the files were written
    // back and before the added files are deleted.
    const child = inAnotherProcess(
      storage,
      ws,
      `repo.list('c').then(([cp]) => repo.restore(cp, { afterStep: (s) => { if (s === 'write') process.kill(process.pid, 'SIGKILL'); } }));`,
    );
    const signal = await new Promise((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    assert.equal(signal, 'SIGKILL');
    assert.equal(read(ws, 'a.txt'), 'a\n', 'the first half ran');
    assert.ok(exists(ws, 'added1.txt') && exists(ws, 'added2.txt'), 'the second half did not');
    const next = open(ws, DEFAULT_LIMITS, storage);
    const finished = await next.recover();
    assert.deepEqual(finished?.deleted.sort(), ['added1.txt', 'added2.txt']);
    assert.ok(!exists(ws, 'added1.txt') && !exists(ws, 'added2.txt'));
    assert.equal(await next.recover(), undefined, 'nothing left to finish');
  });

  it("two windows on one folder share its repository: their snapshots run one at a time, and each sees the other's", async function () {
    this.timeout(60_000);
    const ws = folderWith({ 'a.txt': 'a\n' });
    const storage = tmp('symposium-ckpt-store-');
    // The other window: another process snapshotting its conversation while this one does.
    const child = inAnotherProcess(
      storage,
      ws,
      `(async () => { for (let i = 0; i < 25; i++) { require('node:fs').writeFileSync(folder + '/other-' + i + '.txt', i + '\\n'); await repo.snapshot('other', 'turn-' + i); } })()
         .catch((e) => { console.error(e); process.exit(1); });`,
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const repo = open(ws, DEFAULT_LIMITS, storage);
    for (let i = 0; i < 25; i++) {
      write(ws, `mine-${i}.txt`, `${i}\n`);
      await repo.snapshot('mine', `turn-${i}`);
    }
    assert.equal(await exited, 0, "the other window's snapshots all succeeded");
    assert.equal((await repo.list('mine')).length, 25);
    assert.deepEqual(
      (await repo.list('other')).map((c) => c.id).sort(),
      Array.from({ length: 25 }, (_, i) => `turn-${i}`).sort(),
      "this window lists the other window's checkpoints",
    );
    assert.ok(
      !fs.existsSync(path.join(repo.git.gitDir, 'index.lock')) && !fs.existsSync(path.join(repo.git.gitDir, 'symposium-operation.lock')),
    );
  });

  it("deletes a conversation's checkpoints with their content, and caps the total size oldest first", async () => {
    const ws = folderWith({ 'a.txt': 'a\n' });
    const repo = open(ws);
    await repo.snapshot('keep', 'k1');
    write(ws, 'big1.bin', randomBytes(200_000));
    await repo.snapshot('drop', 'd1');
    fs.rmSync(path.join(ws, 'big1.bin'));
    await repo.changesSince((await repo.list('keep'))[0]!); // the index no longer holds big1.bin
    const before = repo.sizeOnDisk();
    await repo.deleteConversation('drop');
    assert.deepEqual(await repo.list('drop'), []);
    assert.equal((await repo.list('keep')).length, 1);
    assert.ok(repo.sizeOnDisk() < before - 150_000, `content freed: ${before} -> ${repo.sizeOnDisk()}`);

    write(ws, 'big2.bin', randomBytes(200_000));
    await repo.snapshot('keep', 'k2');
    fs.rmSync(path.join(ws, 'big2.bin'));
    await repo.snapshot('keep', 'k3');
    const removed = await repo.capSize(repo.sizeOnDisk() - 100_000);
    assert.deepEqual(
      removed.map((c) => c.id),
      ['k1', 'k2'],
    );
    assert.deepEqual(
      (await repo.list('keep')).map((c) => c.id),
      ['k3'],
    );
  });

  it('keeps its repository in the storage: not inside the folder, not where a planted link points', async () => {
    const ws = folderWith({ 'a.txt': 'a\n' });
    assert.throws(() => new Checkpoints(path.join(ws, '.storage'), ws), /outside the folder/);
    const storage = tmp('symposium-ckpt-store-');
    const elsewhere = tmp('symposium-ckpt-elsewhere-');
    fs.symlinkSync(elsewhere, path.join(storage, 'checkpoints'));
    assert.throws(() => new Checkpoints(storage, ws), /outside the extension's storage/);
    assert.deepEqual(fs.readdirSync(elsewhere), []);
    await assert.rejects(new Checkpoints(tmp('symposium-ckpt-store-'), ws).snapshot('../x', 'y'), /Not a checkpoint name/);
  });
});
