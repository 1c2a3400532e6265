// The nesting cap on parse (jsonrpc/message.ts): what is refused, and what is read of a refused
// line (its id and kind) so that the conductor can answer a request or fail a response.
import * as assert from 'node:assert/strict';
import { MAX_DEPTH, parseLine, rawTextOf, tooDeep } from '../jsonrpc/message';

const nest = (depth: number, open = '[', close = ']'): string => open.repeat(depth) + '1' + close.repeat(depth);

describe('JSON-RPC nesting cap', () => {
  it('accepts MAX_DEPTH levels and refuses one more, keeping the id and kind', () => {
    // params itself is one level inside the message object.
    const at = (depth: number): string => `{"jsonrpc":"2.0","id":7,"method":"m","params":${nest(depth - 1)}}`;
    assert.ok(parseLine(at(MAX_DEPTH)).ok);
    const refused = parseLine(at(MAX_DEPTH + 1));
    assert.deepEqual(refused, {
      ok: false,
      id: 7,
      kind: 'request',
      error: { code: -32600, message: `message nested deeper than ${MAX_DEPTH} levels` },
    });
  });

  it('reads the top-level id and kind wherever they stand, and ignores brackets inside strings', () => {
    const deep = nest(5000);
    assert.deepEqual(tooDeep(`{"params":${deep},"method":"x","id":"a\\"b","jsonrpc":"2.0"}`), { id: 'a"b', kind: 'request' });
    assert.deepEqual(tooDeep(`{"jsonrpc":"2.0","method":"n","params":{"id":5,"x":${deep}}}`), { id: null, kind: 'notification' });
    assert.deepEqual(tooDeep(`{"jsonrpc":"2.0","id": -12 ,"result":${deep}}`), { id: -12, kind: 'response' });
    assert.deepEqual(tooDeep(deep), { id: null });
    const inString = `{"jsonrpc":"2.0","method":"n","params":{"text":"${'['.repeat(5000)}"}}`;
    assert.equal(tooDeep(inString), undefined);
    assert.ok(parseLine(inString).ok);
  });

  it('remembers the line a message was parsed from, for forwarding it unchanged', () => {
    const line = '{"jsonrpc":"2.0","method":"n","params":{"b":1,  "a":2}}';
    const r = parseLine(line);
    assert.ok(r.ok);
    assert.equal(rawTextOf(r.message), line);
    assert.equal(rawTextOf({ ...r.message }), undefined, 'a changed copy is serialized afresh');
  });
});
