// Reading a file because a workspace contains it: Sparkle's `.sparkle-space/` memory, an agent's
// `fs/read_text_file`, a document a language server is shown. A cloned repository decides what
// such a path is, so it may be a link to a secret (`/proc/self/environ`, `~/.ssh/id_ed25519`), a
// FIFO that blocks whoever opens it, `/dev/zero`, or a 5 GB sparse file. Part of src/node/ (node:*
// only), so the extension host and the conductor share this one implementation.
//
// The rule, in order:
// 1. the path is confined (confinement.ts: every link followed, the target must lie in a root);
// 2. the resolved path is opened without following a final link (O_NOFOLLOW: a link put there
//    after the check is refused, not followed) and without blocking (O_NONBLOCK: opening a FIFO
//    with no writer would otherwise wait forever, holding one of libuv's four pool threads);
// 3. the open file is `fstat`ed: anything but a regular file is refused (FIFOs, devices, sockets);
// 4. at most `maxBytes` are read from that descriptor; a longer file is refused or cut, as the
//    caller asks. The size is not taken from fstat alone: /proc files say 0 and a file may grow.
import * as fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { confine, type ConfineOptions } from './confinement';

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const CHUNK_BYTES = 64 * 1024;

/** The file is not a regular file (a FIFO, a device, a socket, a folder). */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  readonly code = 'ENOTREGULAR';
}

/** The file holds more than the caller's cap and the caller asked for all or nothing. */
export class FileTooLargeError extends Error {
  override readonly name = 'FileTooLargeError';
  readonly code = 'EFBIG';
}

function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/**
 * Opens `resolved` for reading: no final link followed, no wait on a FIFO, regular files only.
 * `resolved` must be a path confine() returned. `followFinalLink` is for files the user keeps
 * (~/.sparkle, which a dotfiles manager may fill with links), never for a workspace's.
 */
export async function openRegularFile(resolved: string, followFinalLink = false): Promise<{ handle: FileHandle; stat: fs.Stats }> {
  const handle = await open(resolved, fs.constants.O_RDONLY | NONBLOCK | (followFinalLink ? 0 : NOFOLLOW));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new NotRegularFileError(`${resolved} is ${kindOf(stat)}; only regular files are read`);
    return { handle, stat };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export interface ReadCappedOptions {
  /** Bytes read at most. */
  maxBytes: number;
  /** `refuse` (the default): a longer file is a FileTooLargeError. `cut`: its first maxBytes are returned. */
  overLimit?: 'refuse' | 'cut';
  /** See openRegularFile; false unless the file is the user's own. */
  followFinalLink?: boolean;
}

export interface CappedBytes {
  /** The resolved path that was read. */
  path: string;
  bytes: Buffer;
  /** Set when the file went on past maxBytes (only with `overLimit: 'cut'`). */
  cut: boolean;
  /** The file's size as fstat told it (0 for most /proc files). */
  size: number;
}

export type CappedText = Omit<CappedBytes, 'bytes'> & { text: string };

/** The bytes of the regular file at `resolved` (see openRegularFile), at most `maxBytes` of them. */
export async function readRegularFile(resolved: string, options: ReadCappedOptions): Promise<CappedBytes> {
  const { handle, stat } = await openRegularFile(resolved, options.followFinalLink);
  try {
    const { maxBytes } = options;
    // One byte past the cap tells "exactly maxBytes" from "more".
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1));
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= maxBytes) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, maxBytes + 1 - total), null);
      if (bytesRead === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
      total += bytesRead;
    }
    const cut = total > maxBytes;
    if (cut && options.overLimit !== 'cut') {
      throw new FileTooLargeError(`${resolved} is larger than ${maxBytes} bytes; it was not read`);
    }
    return { path: resolved, bytes: Buffer.concat(chunks, Math.min(total, maxBytes)), cut, size: stat.size };
  } finally {
    await handle.close();
  }
}

/** readRegularFile as UTF-8 text; a cut inside a character drops that character's first bytes. */
export async function readRegularFileText(resolved: string, options: ReadCappedOptions): Promise<CappedText> {
  const { bytes, ...rest } = await readRegularFile(resolved, options);
  const decoder = new StringDecoder('utf8');
  const text = rest.cut ? decoder.write(bytes) : decoder.write(bytes) + decoder.end();
  return { ...rest, text };
}

export interface ContainedReadOptions extends ReadCappedOptions, ConfineOptions {}

/**
 * The text of `requested`, a file one of `roots` contains: confined (links followed, the target
 * inside a root, else OutsideWorkspaceError), then read as readRegularFileText does. A missing file
 * is the open's ENOENT.
 */
export async function readContainedFile(requested: string, roots: readonly string[], options: ContainedReadOptions): Promise<CappedText> {
  return readRegularFileText(confine(requested, roots, options), options);
}

/** readContainedFile's bytes, for a caller that writes them back unchanged. */
export async function readContainedBytes(requested: string, roots: readonly string[], options: ContainedReadOptions): Promise<CappedBytes> {
  return readRegularFile(confine(requested, roots, options), options);
}
