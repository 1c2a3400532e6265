import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confine, OutsideWorkspaceError } from './confinement';

describe('confinement to the workspace folder', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'symposium-confine-')));
  const ws = path.join(base, 'ws');
  const other = path.join(base, 'other');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.mkdirSync(other, { recursive: true });
  fs.writeFileSync(path.join(other, 'secret.txt'), 'x');
  fs.symlinkSync(other, path.join(ws, 'link-out'));
  fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'link-in'));

  it('allows paths inside, existing or new (with new folders)', () => {
    assert.equal(confine(path.join(ws, 'src/a.ts'), [ws]), path.join(ws, 'src/a.ts'));
    assert.equal(confine(path.join(ws, 'new/dir/b.ts'), [ws]), path.join(ws, 'new/dir/b.ts'));
    assert.equal(confine(path.join(ws, 'link-in/c.ts'), [ws]), path.join(ws, 'src/c.ts'));
    assert.equal(confine('src/a.ts', [ws]), path.join(ws, 'src/a.ts'));
  });

  it('refuses .. and symlinks that escape, naming the path and the rule', () => {
    assert.throws(() => confine(path.join(ws, '../other/secret.txt'), [ws]), OutsideWorkspaceError);
    assert.throws(() => confine(path.join(ws, 'link-out/secret.txt'), [ws]), (e: Error) => /resolves to .*other\/secret\.txt/.test(e.message) && /symposium\.allowedFolders/.test(e.message));
    assert.throws(() => confine('/etc/passwd', [ws]), /\/etc\/passwd is outside the folders/);
    assert.throws(() => confine(`${ws}/a\0b`, [ws]), OutsideWorkspaceError);
  });

  it('allows folders the user added', () => {
    assert.equal(confine(path.join(other, 'secret.txt'), [ws, other]), path.join(other, 'secret.txt'));
  });
});
