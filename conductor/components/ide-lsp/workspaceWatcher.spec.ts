// The folder watcher on a real temporary folder: files created, changed, deleted, a folder moved
// in and one removed, node_modules watched for packages only, dot-folders and build output ignored.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../log';
import { FileChangeType, type FileChange } from './watchedFiles';
import { WorkspaceWatcher } from './workspaceWatcher';

const NAMES = { [FileChangeType.Created]: 'created', [FileChangeType.Changed]: 'changed', [FileChangeType.Deleted]: 'deleted' };

describe('ide-lsp workspace watcher', () => {
  let root: string;
  let outside: string;
  let watcher: WorkspaceWatcher | undefined;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'ide-lsp-watch-'));
    outside = mkdtempSync(join(tmpdir(), 'ide-lsp-watch-outside-'));
  });
  afterEach(() => {
    watcher?.dispose();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('reports created, changed and deleted files, folders moved in and removed; skips what a project does not own', async () => {
    mkdirSync(join(root, 'src/deep'), { recursive: true });
    mkdirSync(join(root, 'node_modules/old-pkg'), { recursive: true });
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'src/a.ts'), 'a');
    writeFileSync(join(root, 'src/deep/b.ts'), 'b');
    const seen: string[] = [];
    const record = (changes: FileChange[]): void =>
      void seen.push(...changes.map((c) => `${NAMES[c.type]} ${c.file.slice(root.length + 1)}`));
    watcher = new WorkspaceWatcher(
      root,
      createLogger('warn', 'test', () => undefined),
      record,
      10_000,
    );
    await watcher.ready;
    const step = async (change: () => void): Promise<string[]> => {
      seen.length = 0;
      change();
      await new Promise((r) => setTimeout(r, 100));
      await watcher!.flush();
      return [...seen].sort();
    };
    assert.deepEqual(await step(() => writeFileSync(join(root, 'src/new.ts'), 'n')), ['created src/new.ts']);
    assert.deepEqual(await step(() => writeFileSync(join(root, 'src/a.ts'), 'a2')), ['changed src/a.ts']);
    assert.deepEqual(await step(() => rmSync(join(root, 'src/new.ts'))), ['deleted src/new.ts']);
    mkdirSync(join(outside, 'lib'));
    writeFileSync(join(outside, 'lib/c.ts'), 'c');
    assert.deepEqual(await step(() => renameSync(join(outside, 'lib'), join(root, 'src/lib'))), ['created src/lib/c.ts']);
    assert.deepEqual(
      await step(() => writeFileSync(join(root, 'src/lib/d.ts'), 'd')),
      ['created src/lib/d.ts'],
      'the moved-in folder is watched',
    );
    assert.deepEqual(await step(() => rmSync(join(root, 'src/deep'), { recursive: true })), ['deleted src/deep/b.ts']);
    assert.deepEqual(await step(() => mkdirSync(join(root, 'node_modules/new-pkg'))), ['created node_modules/new-pkg']);
    assert.deepEqual(
      await step(() => {
        writeFileSync(join(root, '.git/HEAD'), 'x');
        writeFileSync(join(root, 'dist/out.js'), 'x');
        writeFileSync(join(root, 'node_modules/old-pkg/index.js'), 'x');
      }),
      [],
    );
  });
});
