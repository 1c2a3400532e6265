// Hostile and ordinary zips (written by Python's zipfile, or patched by hand) against extractZip.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractZip } from './zipExtract';

/** A zip of `entries` ([name, text, unix mode?]) made by Python; text `@zeros:N` is N zeros. */
function zip(dir: string, entries: [string, string, number?][]): Buffer {
  const file = join(dir, `z${readdirSync(dir).length}.zip`);
  const py = [
    'import json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED)',
    'for name, text, mode in json.loads(sys.argv[2]):',
    '    i = zipfile.ZipInfo(name); i.compress_type = zipfile.ZIP_DEFLATED',
    '    if mode: i.external_attr = mode << 16',
    '    z.writestr(i, "0" * int(text[7:]) if text.startswith("@zeros:") else text)',
    'z.close()',
  ].join('\n');
  execFileSync('python3', ['-c', py, file, JSON.stringify(entries.map(([n, t, m]) => [n, t, m ?? 0]))]);
  return readFileSync(file);
}

describe('zip extraction (agent archives)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'symposium-zip-'));
  const work = mkdtempSync(join(dir, 'zips-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('extracts files and folders atomically, keeping the executable bit and never creating links', async () => {
    const bytes = zip(work, [
      ['tool/bin/run', '#!/bin/sh\n', 0o100755],
      ['tool/README', 'hello'],
      ['tool/link', '/etc/passwd', 0o120777],
    ]);
    const target = join(dir, 'out', 'ok');
    assert.equal(await extractZip(bytes, target), target);
    assert.equal(readFileSync(join(target, 'tool', 'README'), 'utf8'), 'hello');
    assert.ok(lstatSync(join(target, 'tool', 'bin', 'run')).mode & 0o100);
    assert.ok(!existsSync(join(target, 'tool', 'link')), 'the symlink entry is skipped');
    assert.deepEqual(readdirSync(join(dir, 'out')), ['ok'], 'no partial folder left');
  });

  it('refuses paths outside the target and leaves nothing behind', async () => {
    for (const name of ['../escape.txt', '/etc/evil', 'a/../../b']) {
      const out = mkdtempSync(join(dir, 'hostile-'));
      await assert.rejects(
        extractZip(
          zip(work, [
            ['ok.txt', 'x'],
            [name, 'evil'],
          ]),
          join(out, 't'),
        ),
        /refusing/,
      );
      assert.deepEqual(readdirSync(out), [], name);
    }
  });

  it('refuses an entry that inflates past its declared size (a bomb) and archives that are not zips', async () => {
    const bytes = Buffer.from(zip(work, [['big.bin', '@zeros:1000000']]));
    // Patch the declared size (central directory and local header) down to 10 bytes.
    const central = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(10, central + 24);
    bytes.writeUInt32LE(10, 22);
    const out = mkdtempSync(join(dir, 'bomb-'));
    await assert.rejects(extractZip(bytes, join(out, 't')), /does not inflate to its declared size|not its declared 10 bytes/);
    assert.deepEqual(readdirSync(out), []);
    await assert.rejects(extractZip(Buffer.from('not a zip at all, just text'), join(out, 't')), /no end of central directory/);
  });
});
