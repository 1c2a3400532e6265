// The session key: equal pairs give equal keys, different pairs different ones, whatever
// characters the actor key or the agent's session id contain.
import * as assert from 'node:assert/strict';
import { sessionKey } from './sessionKey';

describe('sessionKey', () => {
  it('is one key per (actor, session) pair, even when the parts contain separators', () => {
    assert.equal(sessionKey('actor', 's1'), sessionKey('actor', 's1'));
    const pairs: [string, string][] = [
      ['a\nb', 'c'],
      ['a', 'b\nc'],
      ['a\u0000b', 'c'],
      ['a', 'b\u0000c'],
      ['a","b', 'c'],
      ['a', '","b", "c'],
      ['', 'ab'],
      ['ab', ''],
    ];
    const keys = pairs.map(([a, s]) => sessionKey(a, s));
    assert.equal(new Set(keys).size, pairs.length);
  });
});
