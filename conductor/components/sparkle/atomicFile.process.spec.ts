// The write rules Sparkle's stores rely on: appends from many callers (and several processes) lose
// nothing and never interleave; creation never replaces; a crash leaves the old file; bad JSON is
// set aside, not overwritten.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { appendAtomic, createFileExclusive, readJsonOrSetAside, withFileLock, writeFileAtomic } from './atomicFile';

const temp = (): string => mkdtempSync(join(tmpdir(), 'sparkle-atomic-'));

/** Every record appears exactly once and whole (records are `<start tag>…<end tag>` lines). */
function assertRecords(text: string, tags: string[]): void {
  for (const tag of tags) {
    const whole = new RegExp(`<${tag}>x+</${tag}>\\n`, 'g');
    assert.equal(text.match(whole)?.length ?? 0, 1, `record ${tag} appears once, whole`);
  }
  assert.equal(text.split('\n').filter(Boolean).length, tags.length, 'no torn or extra lines');
}

describe('sparkle atomic files', () => {
  it('200 concurrent appends to one file keep every record whole', async () => {
    const file = join(temp(), 'notes.md');
    const tags = Array.from({ length: 200 }, (_, i) => `r${i}`);
    await Promise.all(tags.map((tag) => appendAtomic(file, `<${tag}>${'x'.repeat(500)}</${tag}>\n`)));
    assertRecords(readFileSync(file, 'utf8'), tags);
    assert.deepEqual(readdirSync(join(file, '..')), ['notes.md'], 'no temp or lock files left behind');
  });

  it('appends from 3 processes at once keep every record (lock file across processes)', async function () {
    this.timeout(60_000);
    const file = join(temp(), 'shared.md');
    const script = join(temp(), 'append.ts');
    writeFileSync(
      script,
      `import { appendAtomic } from ${JSON.stringify(resolve(__dirname, 'atomicFile.ts'))};\n` +
        'const [file, who] = process.argv.slice(2);\n' +
        'void Promise.all(Array.from({ length: 30 }, (_, i) => appendAtomic(file!, `<${who}-${i}>${"x".repeat(200)}</${who}-${i}>\\n`))).catch((e) => { console.error(e); process.exit(1); });\n',
    );
    const run = (who: string): Promise<number | null> =>
      new Promise((res) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, file, who], { stdio: 'inherit' });
        child.on('exit', res);
      });
    assert.deepEqual(await Promise.all(['a', 'b', 'c'].map(run)), [0, 0, 0]);
    assertRecords(
      readFileSync(file, 'utf8'),
      ['a', 'b', 'c'].flatMap((w) => Array.from({ length: 30 }, (_, i) => `${w}-${i}`)),
    );
  });

  it('createFileExclusive never replaces an existing file', async () => {
    const file = join(temp(), 'c.md');
    assert.equal(await createFileExclusive(file, 'first'), true);
    assert.equal(await createFileExclusive(file, 'second'), false);
    assert.equal(readFileSync(file, 'utf8'), 'first');
    assert.deepEqual(readdirSync(join(file, '..')), ['c.md']);
  });

  it('a write that fails half-way leaves the previous file intact', async () => {
    const file = join(temp(), 'w.json');
    await writeFileAtomic(file, '{"v":1}');
    // Data that cannot be written (not a string or buffer) fails inside the temp-file write.
    await assert.rejects(writeFileAtomic(file, { bad: true } as never));
    assert.equal(readFileSync(file, 'utf8'), '{"v":1}');
    assert.deepEqual(readdirSync(join(file, '..')), ['w.json'], 'the temp file was removed');
  });

  it('a stale lock of a crashed process is taken over; a fresh one is waited for', async () => {
    const file = join(temp(), 'l.md');
    writeFileSync(`${file}.lock`, '99999\n');
    await assert.rejects(
      withFileLock(file, async () => 'got it', { staleMs: 60_000, timeoutMs: 200 }),
      /stayed locked/,
    );
    assert.equal(await withFileLock(file, async () => 'got it', { staleMs: 0 }), 'got it');
    assert.equal(existsSync(`${file}.lock`), false);
  });

  it('JSON that does not parse is renamed aside and reported, never overwritten', async () => {
    const dir = temp();
    const file = join(dir, 'working-memory.json');
    assert.deepEqual(await readJsonOrSetAside(file), { kind: 'missing' });
    writeFileSync(file, '{"ok": true}');
    assert.deepEqual((await readJsonOrSetAside(file)).kind, 'ok');
    writeFileSync(file, '{not json');
    const read = await readJsonOrSetAside(file, new Date('2026-01-02T03:04:05Z'));
    assert.equal(read.kind, 'set-aside');
    assert.ok(read.kind === 'set-aside' && read.setAside.endsWith('working-memory.json.bad-2026-01-02T03-04-05-000Z'));
    assert.equal(readFileSync(join(dir, 'working-memory.json.bad-2026-01-02T03-04-05-000Z'), 'utf8'), '{not json');
    assert.equal(existsSync(file), false);
  });
});
