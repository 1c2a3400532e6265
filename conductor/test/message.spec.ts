import * as assert from 'node:assert/strict';
import { chunk } from '../../src/agents/textChunkMerge.spec';
import { messageSlot, parseLine, rawTextOf, type RpcMessage } from '../jsonrpc/message';

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

describe('streamed text chunks in the ACP SDK spelling (parsed without JSON.parse of the line)', () => {
  it('gives exactly what JSON.parse gives, and remembers the line', () => {
    const texts = ['chunk 1 ', '', 'say "hi"\n\\ back\tslash', '\u0001\u001f é 漢字 😀', '\ud83d', ' / </script>'];
    for (const text of texts)
      for (const extra of [
        {},
        { kind: 'agent_thought_chunk' },
        { kind: 'user_message_chunk', messageId: 'm "1"' },
        { sessionId: 's\\1' },
      ]) {
        const line = chunk(text, extra);
        const r = parseLine(line);
        assert.ok(r.ok, line);
        // The same own data, nested objects plain as JSON.parse makes them (the message itself is
        // a class instance that keeps its line privately).
        assert.deepEqual({ ...r.message }, JSON.parse(line));
        assert.equal(JSON.stringify(r.message), JSON.stringify(JSON.parse(line)), 'serializes the same, key order included');
        assert.equal(rawTextOf(r.message), line);
        assert.equal(rawTextOf({ ...r.message }), undefined, 'a copy does not carry the line');
      }
  });

  it("keeps a message slot's value on a chunk, not on its copies", () => {
    const slot = messageSlot<string>('test');
    const r = parseLine(chunk('x'));
    assert.ok(r.ok);
    assert.equal(slot.get(r.message), undefined);
    slot.set(r.message, 'kept');
    assert.equal(slot.get(r.message), 'kept');
    assert.equal(slot.get({ ...r.message }), undefined);
    assert.equal(slot.get(structuredClone(r.message)), undefined);
    assert.deepEqual(Object.getOwnPropertySymbols(r.message), [], 'nothing visible on the object');
  });

  it('leaves every other spelling, and anything invalid, to the full parser and its checks', () => {
    const respelled =
      '{"method":"session/update","jsonrpc":"2.0","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}';
    const withMeta = chunk('x').replace('"text":"x"}', '"text":"x","_meta":{"a":1}}');
    for (const line of [respelled, withMeta]) {
      const r = parseLine(line);
      assert.ok(r.ok);
      assert.deepEqual(r.message, JSON.parse(line));
    }
    for (const line of [
      chunk('X').replace('X', 'raw\ttab'),
      chunk('X').replace('X', 'bad \\x escape'),
      chunk('X').replace('X', 'short \\u12'),
      chunk('X').replace('"X"}}}}', '"X"}}}'),
      chunk('X').replace('"jsonrpc":"2.0"', '"jsonrpc":"1.0"'),
    ]) {
      const r = parseLine(line);
      assert.equal(r.ok, false, line);
    }
  });
});
