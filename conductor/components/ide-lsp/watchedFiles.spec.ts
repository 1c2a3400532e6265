// Which file changes a language server hears of: LSP glob patterns, relative patterns and watch
// kinds from its registrations, and the default for a server that registered none.
import * as assert from 'node:assert/strict';
import { FileChangeType, globToRegExp, WatchedFiles } from './watchedFiles';

describe('ide-lsp watched files', () => {
  it('LSP globs: * and ? in a segment, ** across, {a,b}, [classes]', () => {
    const cases: [string, string, boolean][] = [
      ['**/*.py', '/w/pkg/mod.py', true],
      ['**/*.py', 'mod.py', true],
      ['**/*.py', '/w/pkg/mod.pyi', false],
      ['**/*.{ts,tsx}', '/w/a/b.tsx', true],
      ['**/*.{ts,tsx}', '/w/a/b.js', false],
      ['src/*.ts', 'src/a.ts', true],
      ['src/*.ts', 'src/x/a.ts', false],
      ['**/tsconfig.json', '/w/p/tsconfig.json', true],
      ['**/*', 'a/b/c', true],
      ['file?.go', 'file1.go', true],
      ['file[!0-9].go', 'file1.go', false],
      ['file[0-9].go', 'file1.go', true],
      ['a.b', 'axb', false],
    ];
    for (const [glob, file, expected] of cases) assert.equal(globToRegExp(glob).test(file), expected, `${glob} ~ ${file}`);
  });

  it('registrations: plain and relative patterns, watch kinds, unregistration; the default without any', () => {
    const w = new WatchedFiles(['.ts', '.js']);
    assert.equal(w.wants({ file: '/w/src/a.ts', type: FileChangeType.Created }), true, 'default: its own files');
    assert.equal(w.wants({ file: '/w/tsconfig.json', type: FileChangeType.Changed }), true, 'default: project files');
    assert.equal(w.wants({ file: '/w/notes.md', type: FileChangeType.Changed }), false);
    w.register({
      registrations: [
        { id: 'a', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/*.md', kind: 1 }] } },
        {
          id: 'b',
          method: 'workspace/didChangeWatchedFiles',
          registerOptions: { watchers: [{ globPattern: { baseUri: 'file:///w/src', pattern: '**/*' } }] },
        },
        { id: 'c', method: 'textDocument/formatting', registerOptions: {} },
      ],
    });
    assert.equal(w.wants({ file: '/w/notes.md', type: FileChangeType.Created }), true);
    assert.equal(w.wants({ file: '/w/notes.md', type: FileChangeType.Changed }), false, 'kind 1: creations only');
    assert.equal(w.wants({ file: '/w/src/deep/x.txt', type: FileChangeType.Deleted }), true, 'relative to its base');
    assert.equal(w.wants({ file: '/w/other/a.ts', type: FileChangeType.Changed }), false, 'outside the base, not the default any more');
    w.unregister({ unregisterations: [{ id: 'b', method: 'workspace/didChangeWatchedFiles' }] });
    assert.equal(w.wants({ file: '/w/src/deep/x.txt', type: FileChangeType.Deleted }), false);
    w.register({ registrations: 'nonsense' });
    w.register(null);
  });
});
