// Reading an HTTP answer from a server we do not control, up to a size. `response.text()` reads
// the whole body before anyone can look at its size: a provider answering 300 MB grew the
// extension host (or the conductor) by more than that before the size check refused it. Here a
// declared Content-Length over the cap is refused before any of the body is read, and otherwise
// the body is read chunk by chunk and the download is cancelled as soon as it passes the cap.

export class BodyTooLargeError extends Error {}

/** `response`'s body as UTF-8 text; BodyTooLargeError as soon as it is known to exceed `maxBytes`. */
export async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const tooLarge = (): BodyTooLargeError =>
    new BodyTooLargeError(`the answer is larger than ${sizeText(maxBytes)}; it was not read further`);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    throw tooLarge();
  }
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
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, received).toString('utf8');
}

const sizeText = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
