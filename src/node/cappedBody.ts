// Reading an HTTP answer from a server we do not control, up to a size. `response.text()` or
// `arrayBuffer()` reads the whole body before anyone can look at its size: a server that sends no
// Content-Length (or a false one) gets its whole answer held in memory first (a provider answering
// 300 MB grew the extension host by more than that before the size check refused it). Here the
// body is read as a stream, and once more than the limit arrived the stream is cancelled, which
// closes the connection: nothing more is read. A declared Content-Length over the limit is refused
// before any of the body is read.

export class BodyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    message = `larger than ${limit} bytes`,
  ) {
    super(message);
  }
}

/**
 * The whole body, at most `maxBytes`; more is a BodyTooLargeError, thrown as soon as the chunk
 * that crosses the limit arrives. `onBytes` hears the running count.
 */
async function readCappedBody(
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
      // Closes the connection: the rest of the body is never downloaded.
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
    onBytes?.(received);
  }
  return Buffer.concat(chunks, received);
}

/**
 * `response`'s body, at most `maxBytes`: a declared Content-Length over the limit is refused before
 * any of the body is read, a longer body as soon as it crosses the limit (BodyTooLargeError).
 */
export async function readCappedResponse(response: Response, maxBytes: number, onBytes?: (received: number) => void): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  return readCappedBody(response.body, maxBytes, onBytes);
}

/** `response`'s body as UTF-8 text; BodyTooLargeError (saying so in words) once it is known to exceed `maxBytes`. */
export async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  try {
    return (await readCappedResponse(response, maxBytes)).toString('utf8');
  } catch (e) {
    throw e instanceof BodyTooLargeError
      ? new BodyTooLargeError(maxBytes, `the answer is larger than ${sizeText(maxBytes)}; it was not read further`)
      : e;
  }
}

/** A byte count as a person reads it: "64 MiB", "128 KiB", "16 bytes". */
export const sizeText = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
