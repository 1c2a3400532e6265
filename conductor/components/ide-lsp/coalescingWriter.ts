// One write per LSP message to a server's stdin. vscode-jsonrpc's StreamMessageWriter writes a
// message's header and its content separately, awaiting the first write before the second, so
// every request costs two system calls on the pipe; on a loaded machine each one is a visible
// part of a ~2 ms round trip (the fallback bench, docs/benchmarks.md). This stream sits between
// the writer and the pipe: it accepts chunks at once and passes them on together — as soon as a
// header and its content are both there, or at the latest in the same turn of the event loop —
// keeping the pipe's backpressure (a full pipe holds the writer until it drains). The framing
// stays vscode-jsonrpc's.
import { Writable } from 'node:stream';

export function coalescingWriter(target: Writable): Writable {
  let chunks: Buffer[] = [];
  let timer: NodeJS.Immediate | undefined;
  const flush = (): void => {
    if (timer) clearImmediate(timer);
    timer = undefined;
    if (chunks.length === 0 || target.destroyed) return void (chunks = []);
    const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    chunks = [];
    target.write(data);
  };
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      // The writer sends a header, then its content: the pair is one message.
      if (chunks.length >= 2) flush();
      else timer ??= setImmediate(flush);
      if (target.writableNeedDrain) target.once('drain', () => done());
      else done();
    },
    final(done) {
      flush();
      done();
    },
  });
}
