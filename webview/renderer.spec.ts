import * as assert from 'node:assert/strict';
import { sameValue } from './renderer';

describe('renderer: sameValue (is a card unchanged?)', () => {
  it('compares JSON-like values deeply, as JSON.stringify equality would', () => {
    const cases: [unknown, unknown][] = [
      [
        { a: 1, b: [1, { c: 'x' }] },
        { b: [1, { c: 'x' }], a: 1 },
      ],
      [{ a: 1, skip: undefined }, { a: 1 }],
      [{ body: 'long '.repeat(1000) }, { body: 'long '.repeat(1000) }],
      [{ a: [1, 2] }, { a: [2, 1] }],
      [{ a: [] }, { a: {} }],
      [{ a: null }, { a: {} }],
      [{ a: 1 }, { a: '1' }],
      [{ a: { b: 1 } }, { a: { b: 1, c: 2 } }],
      [
        [1, 2],
        [1, 2, 3],
      ],
    ];
    for (const [a, b] of cases)
      assert.equal(sameValue(a, b), JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b)), JSON.stringify([a, b]));
  });
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  return v;
}
