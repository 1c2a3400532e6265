// The lock across processes: a holder that works longer than `staleMs` keeps its lock (it renews it),
// so a second process waits for it instead of taking it for a crash; a holder killed mid-work leaves
// a lock taken over at once. (Appends from several
// processes and a crashed holder's lock: conductor/components/sparkle/atomicFile.process.spec.ts.)
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withFileLock } from './fileLock';

describe('file lock across processes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'file-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a live holder working 6× longer than staleMs keeps the lock; the other process gets it after', async function () {
    this.timeout(30_000);
    const file = join(dir, 'repo');
    const held = join(dir, 'held');
    const done = join(dir, 'done');
    const script = join(dir, 'hold.ts');
    writeFileSync(
      script,
      `import { writeFileSync } from 'node:fs';\n` +
        `import { withFileLock } from ${JSON.stringify(resolve(__dirname, 'fileLock.ts'))};\n` +
        'const [file, held, done] = process.argv.slice(2) as [string, string, string];\n' +
        'void withFileLock(file, async () => {\n' +
        "  writeFileSync(held, '');\n" +
        '  await new Promise((r) => setTimeout(r, 900));\n' +
        "  writeFileSync(done, '');\n" +
        '}, { staleMs: 150 });\n',
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, file, held, done], { stdio: 'inherit' });
    const exited = new Promise<number | null>((res) => child.on('exit', res));
    const started = Date.now();
    while (!existsSync(held)) {
      assert.ok(Date.now() - started < 20_000, 'the other process took the lock');
      await new Promise((r) => setTimeout(r, 10));
    }
    const sawDone = await withFileLock(file, async () => existsSync(done), { staleMs: 150, timeoutMs: 10_000 });
    assert.equal(sawDone, true, 'the lock was taken over while its holder still worked');
    assert.equal(await exited, 0);
    assert.equal(existsSync(`${file}.lock`), false);
  });

  it('the lock of a holder killed mid-work (SIGKILL: no cleanup) is taken over at once, not after staleMs', async function () {
    this.timeout(30_000);
    const file = join(dir, 'repo');
    const script = join(dir, 'die.ts');
    writeFileSync(
      script,
      `import { withFileLock } from ${JSON.stringify(resolve(__dirname, 'fileLock.ts'))};\n` +
        'void withFileLock(process.argv[2]!, async () => process.kill(process.pid, "SIGKILL"));\n',
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, file], { stdio: 'inherit' });
    assert.equal(await new Promise((res) => child.on('exit', (_code, signal) => res(signal))), 'SIGKILL');
    assert.equal(readFileSync(`${file}.lock`, 'utf8'), `${child.pid} ${hostname()}\n`, 'the lock names its holder');
    const started = Date.now();
    assert.equal(await withFileLock(file, async () => 'got it', { staleMs: 60_000, timeoutMs: 5_000 }), 'got it');
    assert.ok(Date.now() - started < 1_000, `waited ${Date.now() - started} ms`);
  });
});
