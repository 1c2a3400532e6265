// The LSP client's writer: vscode-jsonrpc's framing, one write per message, made before write()
// returns; what it writes is read back by vscode-jsonrpc's own reader, in order, over a real pipe
// to a child process that echoes it (large messages included, so the pipe fills); a broken pipe
// is an error, not a hang.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { StreamMessageReader, type Message } from 'vscode-languageserver-protocol/node';
import { PipeMessageWriter } from './messageWriter';

function recordingStream(): { stream: Writable; writes: Buffer[] } {
  const writes: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk);
      done();
    },
  });
  return { stream, writes };
}

describe('ide-lsp message writer', () => {
  it('writes each message as one Content-Length frame (UTF-8 length), before write() returns', async () => {
    const { stream, writes } = recordingStream();
    const writer = new PipeMessageWriter(stream);
    const message = { jsonrpc: '2.0', id: 1, method: 'textDocument/references', params: { text: 'é ✓ 𝄞' } } as Message;
    const written = writer.write(message);
    assert.equal(writes.length, 1, 'written at once, not on a later turn');
    const body = JSON.stringify(message);
    assert.equal(writes[0]!.toString('utf8'), `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await written;
    await writer.write({ jsonrpc: '2.0', method: 'initialized', params: {} } as Message);
    assert.equal(writes.length, 2);
  });

  it("vscode-jsonrpc's reader gets every message back, in order, through a real pipe that fills", async () => {
    // A child that echoes its stdin: the pipe both ways is a real one, and 1 MB messages fill it.
    const child = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const writer = new PipeMessageWriter(child.stdin);
    const reader = new StreamMessageReader(child.stdout);
    const got: Message[] = [];
    const all = new Promise<void>((resolve) =>
      reader.listen((m) => {
        got.push(m);
        if (got.length === 40) resolve();
      }),
    );
    const sent: Message[] = [];
    for (let i = 0; i < 40; i++) {
      const text = i % 10 === 0 ? 'x'.repeat(1024 * 1024) : `message ${i} — ü`;
      const m = { jsonrpc: '2.0', id: i, method: 'test/echo', params: { text } } as Message;
      sent.push(m);
      void writer.write(m);
    }
    await all;
    assert.deepEqual(got, sent);
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
  });

  it('a write to a closed pipe rejects and reports the error to the connection', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: ['pipe', 'ignore', 'inherit'] });
    await new Promise((r) => child.once('exit', r));
    const writer = new PipeMessageWriter(child.stdin);
    const errors: Error[] = [];
    writer.onError(([err]) => errors.push(err));
    let rejected: unknown;
    for (let i = 0; i < 5 && rejected === undefined; i++)
      await writer.write({ jsonrpc: '2.0', method: 'x', params: {} } as Message).catch((err: unknown) => (rejected = err));
    assert.ok(rejected instanceof Error, 'the write was refused');
    assert.ok(errors.length >= 1, 'the connection heard of it');
  });
});
