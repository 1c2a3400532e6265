// Capability-driven assembly as a table: adapters only where the editor lacks their capability,
// and the adapters a component names placed right before it when not enabled explicitly.
import * as assert from 'node:assert/strict';
import { assembleChain } from './assembly';
import type { ComponentFactory } from './component';

const factory = (name: string, extra: Partial<ComponentFactory> = {}): ComponentFactory => ({
  name,
  description: name,
  kind: 'component',
  create: () => ({ name }),
  ...extra,
});
const registry = new Map(
  [
    factory('info'),
    factory('fs', { kind: 'adapter', providedUpstream: (caps) => caps.fs === true }),
    factory('lsp', { kind: 'adapter', providedUpstream: (caps) => caps.ide === true }),
    factory('ide', { adapters: ['lsp'] }),
  ].map((f) => [f.name, f]),
);

describe('assembleChain', () => {
  const cases: { enabled: string[]; caps: Record<string, unknown>; chain: string[]; skipped: string[] }[] = [
    { enabled: ['info', 'fs', 'lsp', 'ide'], caps: {}, chain: ['info', 'fs', 'lsp', 'ide'], skipped: [] },
    { enabled: ['info', 'fs', 'lsp', 'ide'], caps: { fs: true, ide: true }, chain: ['info', 'ide'], skipped: ['fs', 'lsp'] },
    // The adapter a component relies on comes with it, right before it (closer to the editor)…
    { enabled: ['ide', 'info'], caps: {}, chain: ['lsp', 'ide', 'info'], skipped: [] },
    // …and only when the editor lacks what it supplies.
    { enabled: ['ide'], caps: { ide: true }, chain: ['ide'], skipped: ['lsp'] },
    { enabled: ['info', 'nope'], caps: {}, chain: ['info'], skipped: ['nope'] },
    { enabled: [], caps: {}, chain: [], skipped: [] },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.enabled)} with ${JSON.stringify(c.caps)} → ${JSON.stringify(c.chain)}`, () => {
      const a = assembleChain(c.enabled, registry, c.caps);
      assert.deepEqual(
        a.components.map((x) => x.name),
        c.chain,
      );
      assert.deepEqual(
        a.skipped.map((s) => s.name),
        c.skipped,
      );
    });
  }
  it('a withheld component is never placed: neither enabled nor pulled in as an adapter, and says why', () => {
    const withheld = new Map([['lsp', 'not here']]);
    for (const enabled of [['ide'], ['lsp', 'ide']]) {
      const a = assembleChain(enabled, registry, {}, withheld);
      assert.deepEqual(
        a.components.map((x) => x.name),
        ['ide'],
      );
      assert.deepEqual(a.skipped, [{ name: 'lsp', reason: 'not here' }]);
    }
  });

  it('a component that fails to start is skipped with its error; the others are placed', () => {
    const broken = factory('broken', {
      create: () => {
        throw new Error('no config');
      },
    });
    const a = assembleChain(['info', 'broken', 'ide'], new Map([...registry, ['broken', broken]]), { ide: true });
    assert.deepEqual(
      a.components.map((x) => x.name),
      ['info', 'ide'],
    );
    assert.deepEqual(a.skipped, [
      { name: 'broken', reason: 'could not start: no config' },
      { name: 'lsp', reason: 'the editor already provides this capability' },
    ]);
  });
});
