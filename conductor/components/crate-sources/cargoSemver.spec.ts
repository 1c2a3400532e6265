import * as assert from 'node:assert/strict';
import { parseVersion, parseVersionReq, satisfies, selectVersion } from './cargoSemver';

const ok = (req: string, version: string): boolean => satisfies(parseVersion(version), parseVersionReq(req));

describe('Cargo version requirements', () => {
  it('treats a bare version as a caret requirement', () => {
    assert.ok(ok('1.2', '1.9.0'));
    assert.ok(ok('1.2', '1.2.0'));
    assert.ok(!ok('1.2', '2.0.0'));
    assert.ok(!ok('1.2', '1.1.9'));
    assert.ok(ok('0.2.3', '0.2.9'));
    assert.ok(!ok('0.2.3', '0.3.0'));
    assert.ok(ok('0.0.3', '0.0.3'));
    assert.ok(!ok('0.0.3', '0.0.4'));
    assert.ok(ok('0', '0.9.9'));
    assert.ok(!ok('0.0', '0.1.0'));
  });
  it('handles tilde, exact, comparisons and lists', () => {
    assert.ok(ok('~1.2.3', '1.2.9'));
    assert.ok(!ok('~1.2.3', '1.3.0'));
    assert.ok(ok('~1', '1.9.0'));
    assert.ok(ok('=1.2.3', '1.2.3'));
    assert.ok(!ok('=1.2.3', '1.2.4'));
    assert.ok(ok('=1.2', '1.2.7'));
    assert.ok(ok('>1.2', '1.3.0'));
    assert.ok(!ok('>1.2', '1.2.9'));
    assert.ok(ok('<=1.2', '1.2.9'));
    assert.ok(!ok('<1.2', '1.2.0'));
    assert.ok(ok('>=1.0, <1.5', '1.4.9'));
    assert.ok(!ok('>=1.0, <1.5', '1.5.0'));
  });
  it('handles wildcards', () => {
    assert.ok(ok('*', '7.3.1'));
    assert.ok(ok('1.*', '1.8.0'));
    assert.ok(!ok('1.*', '2.0.0'));
    assert.ok(ok('1.2.x', '1.2.5'));
    assert.ok(!ok('1.2.*', '1.3.0'));
  });
  it('matches pre-releases only when asked for the same version', () => {
    assert.ok(!ok('^1.0', '1.1.0-beta.1'));
    assert.ok(!ok('*', '2.0.0-rc.1'));
    assert.ok(ok('^1.1.0-beta.1', '1.1.0-beta.2'));
    assert.ok(!ok('^1.1.0-beta.1', '1.2.0-beta.2'));
    assert.ok(ok('^1.1.0-beta.1', '1.3.0'));
  });
  it('rejects malformed requirements with a clear error', () => {
    for (const bad of ['', 'abc', '1.2.3.4', '>=*', '^1.x.3', '1.2-beta']) {
      assert.throws(() => parseVersionReq(bad), /invalid version requirement|empty/);
    }
  });
  it('selects the newest matching version, skipping yanked and pre-releases unless asked', () => {
    const all = [
      { version: '1.0.100' },
      { version: '1.0.219' },
      { version: '1.0.220', yanked: true },
      { version: '2.0.0-alpha.1' },
      { version: '0.9.15' },
    ];
    assert.equal(selectVersion(all, undefined), '1.0.219');
    assert.equal(selectVersion(all, parseVersionReq('0.9')), '0.9.15');
    assert.equal(selectVersion(all, parseVersionReq('=1.0.220')), '1.0.220');
    assert.equal(selectVersion(all, parseVersionReq('2.0.0-alpha.1')), '2.0.0-alpha.1');
    assert.equal(selectVersion(all, parseVersionReq('3')), undefined);
  });
});
