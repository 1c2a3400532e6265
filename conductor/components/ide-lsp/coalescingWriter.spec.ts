// vscode-jsonrpc's writer through the coalescing stream: one write per message on the pipe, the
// bytes unchanged, and a lone chunk still sent in the same turn of the event loop.
import * as assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { StreamMessageWriter, type Message } from 'vscode-languageserver-protocol/node';
import { coalescingWriter } from './coalescingWriter';

function recordingPipe(): { pipe: Writable; writes: Buffer[] } {
  const writes: Buffer[] = [];
  const pipe = new Writable({
    write(chunk: Buffer, _e, done) {
      writes.push(chunk);
      done();
    },
  });
  return { pipe, writes };
}

describe('ide-lsp coalescing writer', () => {
  it('sends each LSP message (header and content) in one write, bytes unchanged', async () => {
    const { pipe, writes } = recordingPipe();
    const writer = new StreamMessageWriter(coalescingWriter(pipe));
    await writer.write({ jsonrpc: '2.0', id: 1, method: 'textDocument/references', params: { x: 'é' } } as Message);
    await writer.write({ jsonrpc: '2.0', method: 'initialized', params: {} } as Message);
    await new Promise((r) => setImmediate(r));
    assert.equal(writes.length, 2);
    const first = writes[0]!.toString('utf8');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'textDocument/references', params: { x: 'é' } });
    assert.equal(first, `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });

  it('a lone chunk is sent within the same turn of the event loop', async () => {
    const { pipe, writes } = recordingPipe();
    const stream = coalescingWriter(pipe);
    stream.write('alone');
    assert.equal(writes.length, 0);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      writes.map((w) => w.toString()),
      ['alone'],
    );
  });
});
