// How the LSP client writes to a server's stdin: vscode-jsonrpc's framing (a `Content-Length`
// header, the JSON in UTF-8), one write per message, made at once. vscode-jsonrpc's own
// StreamMessageWriter queues each message behind a semaphore that takes a turn of the event loop
// (setImmediate) before the write and another after it, and writes the header and the content
// separately, awaiting the first. The conductor sends a request on behalf of an agent that waits
// for the answer, so the request should leave in the turn that made it, in one system call, and
// the conductor should then go idle: the language server and tsserver behind it need the CPU
// (this machine has two), and every turn the conductor still runs after its write delays them
// (the fallback bench, docs/benchmarks.md). The connection, the reader and the framing stay
// vscode-jsonrpc's; this is a MessageWriter of its own kind (AbstractMessageWriter), as the library
// allows.
//
// Order is the stream's (Node's Writable keeps writes in order); a full pipe keeps what it cannot
// take in the stream's buffer, and `write` resolves when the bytes are handed to the pipe.
import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver-protocol/node';

export class PipeMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errors = 0;

  constructor(private readonly target: Writable) {
    super();
    target.on('error', (err: Error) => this.fireError(err));
    target.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    const json = JSON.stringify(message);
    const length = Buffer.byteLength(json, 'utf8');
    const header = `Content-Length: ${length}\r\n\r\n`;
    const bytes = Buffer.allocUnsafe(header.length + length);
    bytes.write(header, 0, 'ascii');
    bytes.write(json, header.length, 'utf8');
    return new Promise((resolve, reject) => {
      this.target.write(bytes, (err) => {
        if (!err) return resolve();
        this.fireError(err, message, ++this.errors);
        reject(err);
      });
    });
  }

  end(): void {
    this.target.end();
  }
}
