import * as assert from 'node:assert/strict';
import { isoUtc } from './isoTime';

describe('isoUtc (trace timestamps without Date)', () => {
  it('gives what Date#toISOString gives: the epoch, leap days, month and year ends, now', () => {
    const cases = [
      0,
      Date.UTC(2000, 1, 29, 12, 34, 56, 789),
      Date.UTC(1900, 1, 28, 23, 59, 59, 999),
      Date.UTC(2024, 1, 29),
      Date.UTC(2100, 2, 1),
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.now(),
    ];
    for (const ms of cases) assert.equal(isoUtc(ms), new Date(ms).toISOString(), String(ms));
  });

  it('agrees with Date over 100 000 instants spread across four centuries', () => {
    const from = Date.UTC(1800, 0, 1);
    const to = Date.UTC(2200, 0, 1);
    let seed = 42;
    for (let i = 0; i < 100_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const ms = from + Math.floor((seed / 2 ** 31) * (to - from));
      assert.equal(isoUtc(ms), new Date(ms).toISOString());
    }
  });
});
