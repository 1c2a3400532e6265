// OpenCtx answers are validated entry by entry, both `meta` shapes read as one, and selectors
// (path globs, contentContains) decide which documents a provider annotates.
import * as assert from 'node:assert/strict';
import {
  globMatches,
  itemText,
  selectorsMatch,
  takeOpenCtxSessionConfig,
  validateItems,
  validateMentions,
  validateMeta,
  withOpenCtxSessionConfig,
} from './openctx';

describe('OpenCtx protocol', () => {
  it('globs: ** across folders, * and ? within one, {a,b}, [classes], bare patterns on the file name', () => {
    const cases: [string, string, boolean][] = [
      ['**/*.ts', '/home/a/src/x.ts', true],
      ['**/*.ts', '/home/a/src/x.tsx', false],
      ['**/*.{ts,js}', '/a/b.js', true],
      ['/home/*/x.ts', '/home/a/x.ts', true],
      ['/home/*/x.ts', '/home/a/b/x.ts', false],
      ['src/**', '/ws/src/deep/file.md', true],
      ['*.md', '/ws/docs/README.md', true],
      ['README.?d', '/ws/README.md', true],
      ['[ab].txt', '/ws/c.txt', false],
      ['[!c].txt', '/ws/a.txt', true],
      ['**/(x).ts', '/ws/(x).ts', true],
    ];
    for (const [glob, p, want] of cases) assert.equal(globMatches(glob, p), want, `${glob} vs ${p}`);
  });

  it('selectors: undefined selects all, [] none; path against the URI host and path; contentContains', () => {
    assert.equal(selectorsMatch(undefined, 'file:///a.ts', ''), true);
    assert.equal(selectorsMatch([], 'file:///a.ts', ''), false);
    assert.equal(selectorsMatch([{ path: '**/my%20dir/*.ts' }], 'file:///x/my%20dir/a.ts', ''), false, 'decoded before matching');
    assert.equal(selectorsMatch([{ path: '**/my dir/*.ts' }], 'file:///x/my%20dir/a.ts', ''), true);
    assert.equal(selectorsMatch([{ path: 'github.com/**' }], 'https://github.com/o/r', ''), true);
    assert.equal(selectorsMatch([{ path: '**/*.ts', contentContains: 'TODO' }], 'file:///a.ts', 'no'), false);
    assert.equal(selectorsMatch([{ path: '**/*.md' }, { contentContains: 'TODO' }], 'file:///a.ts', 'TODO'), true);
  });

  it('meta: the current shape and protocol 0.1; unusable metas are refused with a reason', () => {
    assert.deepEqual(validateMeta({ name: 'N', items: {} }, 'u'), { name: 'N', mentions: false, items: true, annotations: false });
    assert.deepEqual(validateMeta({}, 'u'), { name: 'u', mentions: true, items: true, annotations: true });
    assert.deepEqual(validateMeta({ selector: [] }, 'u'), {
      name: 'u',
      mentions: true,
      items: true,
      annotations: true,
      annotationSelectors: [],
    });
    assert.match(validateMeta([], 'u') as string, /not an object/);
    assert.match(validateMeta({ name: 'N', annotations: { selectors: [3] } }, 'u') as string, /invalid selector/);
  });

  it('drops malformed entries, keeps the good ones, and says what was dropped', () => {
    const m = validateMentions([{ title: 'ok', uri: 'u', extra: 1 }, { title: 'x' }, null, { title: 't', uri: 'u', data: [] }]);
    assert.deepEqual(m.values, [{ title: 'ok', uri: 'u' }]);
    assert.equal(m.dropped.length, 3);
    const i = validateItems([
      { title: 'a', ui: { hover: { text: 't' } } },
      { title: 'b', ai: { content: 3 } },
    ]);
    assert.deepEqual(i.values, [{ title: 'a', ui: { hover: { text: 't' } } }]);
    assert.equal(itemText(i.values[0]!), 't');
    assert.deepEqual(validateItems(new Array(600).fill({ title: 'x' })).values.length, 500);
  });

  it('session config travels in _meta.symposium.openctx and is taken out whole (other _meta stays)', () => {
    const config = { providers: [{ uri: 'https://p.example', settings: { token: 't' } }], allowModules: false };
    const params = withOpenCtxSessionConfig(
      { cwd: '/ws', mcpServers: [], _meta: { other: 1, symposium: { research: { crate: 'x' } } } },
      config,
    );
    assert.deepEqual(takeOpenCtxSessionConfig(params), {
      params: { cwd: '/ws', mcpServers: [], _meta: { other: 1, symposium: { research: { crate: 'x' } } } },
      config,
    });
    assert.deepEqual(takeOpenCtxSessionConfig(withOpenCtxSessionConfig({ cwd: '/ws' }, config)).params, { cwd: '/ws' });
    assert.deepEqual(takeOpenCtxSessionConfig({ cwd: '/ws' }), { params: { cwd: '/ws' } });
    const bad = takeOpenCtxSessionConfig({
      cwd: '/ws',
      _meta: { symposium: { openctx: { providers: [{ uri: 'ftp://x', settings: { token: 's3cret' } }], allowModules: true } } },
    });
    assert.deepEqual(bad.params, { cwd: '/ws' });
    assert.equal(bad.config, undefined);
    assert.ok(bad.problem && !bad.problem.includes('s3cret'), 'the problem names no settings');
  });
});
