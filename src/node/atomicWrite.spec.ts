// The one atomic write: the target replaced whole, never through a link, nothing left on failure.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from './atomicWrite';

const temp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'atomic-write-'));

describe('atomic write (src/node/atomicWrite.ts)', () => {
  for (const [name, write] of [
    ['sync', async (f: string, d: string) => writeFileAtomicSync(f, d)],
    ['async', (f: string, d: string) => writeFileAtomic(f, d)],
  ] as const) {
    it(`${name}: creates the folder, replaces the file, owner-only by default`, async () => {
      const file = path.join(temp(), 'a', 'b.json');
      await write(file, 'one');
      await write(file, 'two');
      assert.equal(fs.readFileSync(file, 'utf8'), 'two');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(fs.readdirSync(path.dirname(file)), ['b.json']);
    });

    it(`${name}: a link in the target's place is replaced, its target untouched`, async () => {
      const dir = temp();
      const outside = path.join(temp(), 'victim.txt');
      fs.writeFileSync(outside, 'keep');
      fs.symlinkSync(outside, path.join(dir, 'f.json'));
      await write(path.join(dir, 'f.json'), 'new');
      assert.equal(fs.readFileSync(outside, 'utf8'), 'keep');
      assert.equal(fs.lstatSync(path.join(dir, 'f.json')).isSymbolicLink(), false);
    });

    it(`${name}: a failed rename leaves no temp file`, async () => {
      const dir = temp();
      fs.mkdirSync(path.join(dir, 'taken', 'inner'), { recursive: true });
      await assert.rejects(async () => write(path.join(dir, 'taken'), 'x'));
      assert.deepEqual(fs.readdirSync(dir), ['taken']);
    });
  }
});
