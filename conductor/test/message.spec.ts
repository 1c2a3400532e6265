import * as assert from 'node:assert/strict';
import { parseLine, rawTextOf, type RpcMessage } from '../jsonrpc/message';

describe('JSON-RPC validation', () => {
  const bad = (line: string): { code: number; message: string } => {
    const r = parseLine(line);
    assert.equal(r.ok, false);
    return (r as { error: { code: number; message: string } }).error;
  };
  it('accepts requests, notifications and responses, keeping unknown fields', () => {
    const r = parseLine('{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"x":1}},"other":2}');
    assert.ok(r.ok);
    assert.deepEqual(r.message, { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: { x: 1 } }, other: 2 });
    assert.ok(parseLine('{"jsonrpc":"2.0","method":"n"}').ok);
    assert.ok(parseLine('{"jsonrpc":"2.0","id":"a","result":null}').ok);
    assert.ok(parseLine('{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}').ok);
  });
  it('rejects malformed input with the right code', () => {
    assert.equal(bad('not json').code, -32700);
    assert.equal(bad('[1,2]').code, -32600);
    assert.equal(bad('{"id":1,"method":"m"}').code, -32600);
    assert.equal(bad('{"jsonrpc":"2.0","id":{},"method":"m"}').code, -32600);
    assert.equal(bad('{"jsonrpc":"2.0","id":1,"method":""}').code, -32600);
    assert.equal(bad('{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}').code, -32600);
    assert.equal(bad('{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}').code, -32600);
    assert.equal(bad('{"jsonrpc":"2.0","id":1,"method":"m","params":5}').code, -32600);
  });
  it('keeps the id of an invalid request when it can', () => {
    const r = parseLine('{"jsonrpc":"1.0","id":42,"method":"m"}');
    assert.equal(r.ok, false);
    assert.equal((r as { id: unknown }).id, 42);
  });
  it('remembers the very line a message came from, and only for that object (a changed copy has none)', () => {
    const line = '{ "method":"session/update", "jsonrpc":"2.0","params":{"text":"caf\\u00e9 ☕"} }';
    const r = parseLine(line);
    assert.ok(r.ok);
    assert.equal(rawTextOf(r.message), line);
    // Invisible to everything that reads the message as JSON.
    assert.deepEqual(Object.keys(r.message), ['method', 'jsonrpc', 'params']);
    assert.equal(JSON.stringify(r.message), '{"method":"session/update","jsonrpc":"2.0","params":{"text":"café ☕"}}');
    const copies: RpcMessage[] = [{ ...r.message }, Object.assign({}, r.message), structuredClone(r.message)];
    for (const copy of copies) assert.equal(rawTextOf(copy), undefined);
  });
});
