// Reading and writing the text files ACP's fs/* methods name, after confinement.ts has resolved
// them. Part of src/node/ (Node-only, node:* imports only), used by the extension host's
// fs/read_text_file, the conductor's fs-adapter and the crate-sources research reads.
//
// readLines streams: asking for line 1 of a 200 MiB file reads one chunk, not the file. Its
// result equals sliceLines(readFile(path), line, limit) (src/protocol/acpText.ts): 1-based
// `line`, at most `limit` lines, lines split on '\n'.
//
// Both open WITHOUT following a symlink in the last component (O_NOFOLLOW where the platform has
// it): callers pass the link-free path confine() returned, so a link found there now was put
// there after the check, and following it could leave the allowed folders. readLines reads regular
// files only (containedFile.ts: a FIFO or a device in the workspace is refused, never waited on or
// read forever) and returns at most MAX_READ_CHARS: a bigger answer could not cross the ACP pipe
// (64 MiB per message) and would cost its size in memory first.
import * as fs from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { FileTooLargeError, openRegularFile } from './containedFile';

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const CHUNK_BYTES = 64 * 1024;
/** The most text readLines returns; asking for more is refused, naming `line` and `limit`. */
export const MAX_READ_CHARS = 16 * 1024 * 1024;

/** The part of the file at `file` that `fs/read_text_file` asks for, read only as far as needed. */
export async function readLines(file: string, line?: unknown, limit?: unknown): Promise<string> {
  const from = typeof line === 'number' && line >= 1 ? Math.floor(line) : 1;
  const count = typeof limit === 'number' && limit >= 0 ? Math.floor(limit) : undefined;
  const { handle } = await openRegularFile(file);
  try {
    if (count === 0) return ''; // opened anyway, so a missing file is still an error
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const kept: string[] = []; // the complete lines taken so far
    let current: string[] = []; // pieces of the line being read, if it is taken
    let lineNo = 1;
    let keptChars = 0;
    const take = (text: string): boolean => {
      let start = 0;
      for (;;) {
        const nl = text.indexOf('\n', start);
        if (lineNo >= from) {
          const piece = text.slice(start, nl === -1 ? text.length : nl);
          keptChars += piece.length + 1;
          if (keptChars > MAX_READ_CHARS)
            throw new FileTooLargeError(
              `${file}: the lines asked for hold more than ${MAX_READ_CHARS} characters; ask for fewer with line and limit`,
            );
          current.push(piece);
        }
        if (nl === -1) return false;
        if (lineNo >= from) {
          kept.push(current.join(''));
          current = [];
          if (count !== undefined && kept.length === count) return true;
        }
        lineNo++;
        start = nl + 1;
      }
    };
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      if (take(decoder.write(buffer.subarray(0, bytesRead)))) return kept.join('\n');
    }
    if (take(decoder.end())) return kept.join('\n');
    // The text after the last '\n' is a line too (possibly empty), as in split('\n').
    if (lineNo >= from) kept.push(current.join(''));
    return kept.join('\n');
  } finally {
    await handle.close();
  }
}

/** Creates or replaces `file` with `content`, refusing (ELOOP) if `file` is now a symlink. */
export async function writeTextNoFollow(file: string, content: string): Promise<void> {
  const handle = await open(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | NOFOLLOW, 0o666);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}
