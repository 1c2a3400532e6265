// A download read chunk by chunk up to a byte limit. Checking the size after `res.text()` or
// `arrayBuffer()` is too late: a server that sends no Content-Length (or a false one) gets its
// whole answer held in memory first. Here the body is read as a stream, and once more than the
// limit arrived the stream is cancelled, which closes the connection: nothing more is read.

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${limit} bytes`);
  }
}

/**
 * The whole body of a fetch Response, at most `maxBytes`; more is a BodyTooLargeError, thrown as
 * soon as the chunk that crosses the limit arrives. `onBytes` hears the running count.
 */
export async function readCappedBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  onBytes?: (received: number) => void,
): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
    onBytes?.(received);
  }
  return Buffer.concat(chunks, received);
}
