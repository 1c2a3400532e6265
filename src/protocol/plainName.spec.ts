// The folder-name rule shared by the extension's sparkler setting and the conductor's Sparkle tools.
import * as assert from 'node:assert/strict';
import { plainNameProblem, visibleName } from './plainName';

describe('plainNameProblem: a name that becomes one folder', () => {
  const refused: [string, RegExp][] = [
    ['', /is empty/],
    ['x'.repeat(65), /longer than 64/],
    ['a/b', /path separator/],
    ['a\\b', /path separator/],
    ['a..b', /"\.\."/],
    ['.hidden', /starts with a dot/],
    ['tab\there', /U\+0009/],
    ['c1\u0085', /U\+0085/],
    ['Nova\u202egpj.exe', /invisible, control or direction-changing character \(U\+202E\)/],
    ['Spar\u200bkle', /\(U\+200B\)/],
    ['zero\u200dwidth joiner', /\(U\+200D\)/],
    ['\u2066isolate\u2069', /\(U\+2066\)/],
    ['bom\ufeff', /\(U\+FEFF\)/],
    ['line\u2028sep', /\(U\+2028\)/],
    ['a:b', /one of < > : " \| \? \*/],
  ];
  for (const [name, why] of refused)
    it(`refuses ${JSON.stringify(name).slice(0, 30)}`, () => assert.match(plainNameProblem(name) ?? '', why));

  it('accepts plain names, accented and non-Latin letters included', () => {
    for (const name of ['Sparkle', 'Nova-2', 'Zoë', '星', 'a b', '..notes'.slice(2)]) assert.equal(plainNameProblem(name), undefined, name);
  });

  it('quotes a refused name with its invisible characters shown', () => {
    assert.equal(visibleName('Nova\u202egpj.exe'), 'Nova?gpj.exe');
  });
});
