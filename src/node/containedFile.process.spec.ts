// readContainedFile (src/node/containedFile.ts) on real files, links, a FIFO and /dev/zero: what a
// hostile repository can put where the product reads "a file the workspace contains".
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OutsideWorkspaceError } from './confinement';
import { FileTooLargeError, NotRegularFileError, readContainedFile, readRegularFileText } from './containedFile';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-contained-')));
const ws = path.join(base, 'ws');
const outside = path.join(base, 'outside');
const j = (...parts: string[]): string => path.join(...parts);

/** Settles within `ms`, or fails: an open that waits on a FIFO never would. */
async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('readContainedFile: files a workspace contains', () => {
  before(() => {
    fs.mkdirSync(j(ws, 'dir'), { recursive: true });
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(j(ws, 'dir/notes.md'), 'inside ✓');
    fs.writeFileSync(j(outside, 'secret.txt'), 'SECRET-OUTSIDE');
    fs.symlinkSync(j(outside, 'secret.txt'), j(ws, 'link-out.md'));
    fs.symlinkSync(j(ws, 'dir/notes.md'), j(ws, 'link-in.md'));
    fs.symlinkSync('/proc/self/environ', j(ws, 'environ.md'));
    fs.symlinkSync('/dev/zero', j(ws, 'zero.md'));
    execFileSync('mkfifo', [j(ws, 'fifo.md')]);
    execFileSync('mkfifo', [j(outside, 'fifo')]);
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  it('reads a regular file inside, and one reached through a link that stays inside', async () => {
    const direct = await readContainedFile(j(ws, 'dir/notes.md'), [ws], { maxBytes: 1000 });
    assert.deepEqual(direct, { path: j(ws, 'dir/notes.md'), text: 'inside ✓', cut: false, size: 10 });
    const linked = await readContainedFile(j(ws, 'link-in.md'), [ws], { maxBytes: 1000 });
    assert.equal(linked.text, 'inside ✓');
    assert.equal(linked.path, j(ws, 'dir/notes.md'), 'the file read is the link target that was checked');
  });

  it('refuses a link to a file outside, without reading it', async () => {
    await assert.rejects(readContainedFile(j(ws, 'link-out.md'), [ws], { maxBytes: 1000 }), OutsideWorkspaceError);
  });

  it('refuses a link to /proc/self/environ and to /dev/zero (outside the root)', async () => {
    await assert.rejects(readContainedFile(j(ws, 'environ.md'), [ws], { maxBytes: 1000 }), OutsideWorkspaceError);
    await assert.rejects(readContainedFile(j(ws, 'zero.md'), [ws], { maxBytes: 1000 }), OutsideWorkspaceError);
  });

  it('refuses a FIFO inside at once: the open does not wait for a writer', async () => {
    await assert.rejects(within(2000, readContainedFile(j(ws, 'fifo.md'), [ws], { maxBytes: 1000 })), NotRegularFileError);
  });

  it('refuses devices and FIFOs even where the caller confined the path itself', async () => {
    await assert.rejects(within(2000, readRegularFileText('/dev/zero', { maxBytes: 1000, overLimit: 'cut' })), NotRegularFileError);
    await assert.rejects(within(2000, readRegularFileText(j(outside, 'fifo'), { maxBytes: 1000 })), NotRegularFileError);
  });

  it('refuses a folder', async () => {
    await assert.rejects(readContainedFile(j(ws, 'dir'), [ws], { maxBytes: 1000 }), NotRegularFileError);
  });

  it('does not follow a final link swapped in after the check', async () => {
    // The caller opens the path confine() returned; a link found there now is refused (ELOOP).
    const swapped = j(ws, 'swapped.md');
    fs.symlinkSync(j(outside, 'secret.txt'), swapped);
    await assert.rejects(readRegularFileText(swapped, { maxBytes: 1000 }), { code: 'ELOOP' });
  });

  it('caps the bytes read: refused whole over the cap, or cut where the caller asks', async () => {
    const big = j(ws, 'big.md');
    fs.writeFileSync(big, 'x'.repeat(100));
    assert.equal((await readContainedFile(big, [ws], { maxBytes: 100 })).text.length, 100, 'exactly the cap is whole');
    await assert.rejects(readContainedFile(big, [ws], { maxBytes: 99 }), FileTooLargeError);
    assert.deepEqual(await readContainedFile(big, [ws], { maxBytes: 10, overLimit: 'cut' }), {
      path: big,
      text: 'x'.repeat(10),
      cut: true,
      size: 100,
    });
  });

  it('a cut inside a multi-byte character drops the partial character', async () => {
    const p = j(ws, 'multibyte.md');
    fs.writeFileSync(p, 'ab✓cd'); // ✓ is 3 bytes: a b [e2 9c 93] c d
    assert.equal((await readContainedFile(p, [ws], { maxBytes: 3, overLimit: 'cut' })).text, 'ab');
  });

  it('a 2 GiB sparse file costs the cap, not its size', async () => {
    const p = j(ws, 'sparse.md');
    fs.writeFileSync(p, 'head');
    fs.truncateSync(p, 2 * 1024 ** 3);
    const started = Date.now();
    const before = process.memoryUsage().rss;
    await assert.rejects(readContainedFile(p, [ws], { maxBytes: 64 * 1024 }), FileTooLargeError);
    const read = await readContainedFile(p, [ws], { maxBytes: 64 * 1024, overLimit: 'cut' });
    assert.ok(read.cut && read.text.startsWith('head') && read.text.length === 64 * 1024);
    assert.ok(Date.now() - started < 2000, 'read only the cap');
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024, 'memory bounded by the cap');
  });

  it('a missing file is ENOENT, as for any open', async () => {
    await assert.rejects(readContainedFile(j(ws, 'missing.md'), [ws], { maxBytes: 10 }), { code: 'ENOENT' });
  });
});
