// readLines (src/node/textFiles.ts) against sliceLines (src/protocol/acpText.ts) on real files:
// the streaming reader must give exactly what reading the whole file and slicing gives.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sliceLines } from '../protocol/acpText';
import { NotRegularFileError } from './containedFile';
import { MAX_READ_CHARS, readLines } from './textFiles';

describe('readLines: sliceLines semantics, streamed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-readlines-'));
  let n = 0;
  const file = (content: string | Buffer): string => {
    const p = path.join(dir, `f${n++}.txt`);
    fs.writeFileSync(p, content);
    return p;
  };

  const texts = ['', 'one', 'one\n', 'one\ntwo\nthree', 'one\ntwo\nthree\n', '\n\n\n', 'a\r\nb\r\n', 'héllo\nwörld ✓\n𝄞 clef\n'];
  const lines: unknown[] = [undefined, null, 0, 1, 2, 3, 4, 9, 2.7, -1, '2'];
  const limits: unknown[] = [undefined, null, 0, 1, 2, 5, 1.5, -1, '1'];

  it('equals sliceLines for every line/limit on small files', async () => {
    for (const text of texts) {
      const p = file(text);
      for (const line of lines) {
        for (const limit of limits) {
          assert.equal(
            await readLines(p, line, limit),
            sliceLines(text, line, limit),
            `${JSON.stringify(text)} line ${String(line)} limit ${String(limit)}`,
          );
        }
      }
    }
  });

  it('equals sliceLines where lines and multi-byte characters cross chunk boundaries', async () => {
    // Lines of varying length with a 4-byte character, spanning several 64 KiB chunks.
    const text = Array.from({ length: 3000 }, (_, i) => `${i} ${'𝄞x'.repeat(i % 97)} ${'y'.repeat((i * 37) % 300)}`).join('\n');
    const p = file(text);
    for (const [line, limit] of [
      [1, undefined],
      [1, 1],
      [500, 3],
      [2999, 5],
      [3000, 1],
      [3001, 1],
      [1200, undefined],
      [undefined, 2500],
    ] as const) {
      assert.equal(await readLines(p, line, limit), sliceLines(text, line, limit), `line ${String(line)} limit ${String(limit)}`);
    }
  });

  it('reads only as far as needed: line 1 of a file with a 1 GiB sparse tail', async () => {
    const p = file('first\nsecond\n');
    fs.truncateSync(p, 1024 ** 3); // a sparse hole of zeros: reading it all would take seconds
    const started = Date.now();
    assert.equal(await readLines(p, 2, 1), 'second');
    assert.ok(Date.now() - started < 500, `took ${Date.now() - started} ms`);
    fs.rmSync(p);
  });

  it('a missing file is ENOENT, also with limit 0', async () => {
    await assert.rejects(readLines(path.join(dir, 'missing.txt'), 1, 0), { code: 'ENOENT' });
    await assert.rejects(readLines(path.join(dir, 'missing.txt')), { code: 'ENOENT' });
  });

  it('does not follow a symlink in the last component', async () => {
    const target = file('behind the link');
    const link = path.join(dir, 'link.txt');
    fs.symlinkSync(target, link);
    await assert.rejects(readLines(link), { code: 'ELOOP' });
  });

  it('reads regular files only: a FIFO is refused at once (no wait for a writer), /dev/zero is never read', async () => {
    const fifo = path.join(dir, 'fifo.txt');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    await assert.rejects(readLines(fifo, 1, 1), NotRegularFileError);
    await assert.rejects(readLines('/dev/zero'), NotRegularFileError);
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
  });

  it('refuses to return more than MAX_READ_CHARS, and says how to ask for less', async () => {
    const p = file('first\n');
    fs.truncateSync(p, MAX_READ_CHARS + 1024); // then one long line of NUL bytes, sparse
    await assert.rejects(readLines(p), /more than \d+ characters; ask for fewer with line and limit/);
    await assert.rejects(readLines(p, 2, 1), /more than \d+ characters/);
    assert.equal(await readLines(p, 1, 1), 'first', 'what fits is still read');
  });
});
