// Writes that cannot lose what Sparkle keeps. Several sessions (and several conductors: one per
// workspace) write the same files under ~/.sparkle/, and the agent may call a tool while another
// call is still writing. So:
// - every write goes to a temp file in the same folder, is flushed, then renamed over the target:
//   a crash mid-write leaves the previous file whole (and at worst a stray `.…tmp` file);
// - read-modify-write (appends, config edits) runs under a per-file queue in this process AND a
//   lock file (`<file>.lock`, created exclusively) across processes, so two appends never
//   interleave and neither is lost;
// - new files that must not replace anything (checkpoints) are created with link(), which fails
//   when the name exists, so a complete file appears at once or not at all;
// - a store file that does not parse is renamed aside and reported, never overwritten;
// - reads take regular files only, and at most STORE_FILE_MAX_BYTES (src/node/containedFile.ts):
//   a FIFO, a device or a huge file in a store is an error, not a hang or the conductor's memory.
import { promises as fs } from 'node:fs';
import { createFileExclusive as createOwnFileExclusive, writeFileAtomic as writeOwnFileAtomic } from '../../../src/node/atomicWrite';
import { readRegularFile } from '../../../src/node/containedFile';
import { withFileLock } from '../../../src/node/fileLock';
import { errorText } from '../../../src/protocol/errorText';

/** The largest store file read whole (to append to it, parse it, back it up). */
export const STORE_FILE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * How a store reads one of its files: the bytes, or undefined when it does not exist. The home
 * store's (readIfExists) follows a final link; the workspace store passes one that confines and
 * does not (workspaceStore.ts).
 */
export type StoreReader = (path: string) => Promise<Buffer | undefined>;

const errnoCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

// Store files are the user's notes, readable as their other files are (umask), not 0o600.
const STORE_FILE_MODE = { mode: 0o666 };

/** Replaces a store file atomically (src/node/atomicWrite.ts). */
export function writeFileAtomic(path: string, data: string | Buffer): Promise<void> {
  return writeOwnFileAtomic(path, data, STORE_FILE_MODE);
}

/** Creates a store file unless it exists (src/node/atomicWrite.ts); false if it does. */
export function createFileExclusive(path: string, data: string | Buffer): Promise<boolean> {
  return createOwnFileExclusive(path, data, STORE_FILE_MODE);
}

export { withFileLock };

/** Appends `text` to `path` (created if missing) under its lock, by atomic replace. */
export async function appendAtomic(path: string, text: string, read: StoreReader = readIfExists): Promise<{ bytes: number }> {
  return withFileLock(path, async () => {
    const before = await read(path);
    const data = Buffer.concat([before ?? Buffer.alloc(0), Buffer.from(text, 'utf8')]);
    await writeFileAtomic(path, data);
    return { bytes: data.length };
  });
}

/** A file the user keeps (~/.sparkle): links followed, regular files only, at most STORE_FILE_MAX_BYTES. */
export async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return (await readRegularFile(path, { maxBytes: STORE_FILE_MAX_BYTES, followFinalLink: true })).bytes;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

export async function readTextIfExists(path: string, read: StoreReader = readIfExists): Promise<string | undefined> {
  return (await read(path))?.toString('utf8');
}

export type JsonRead =
  | { kind: 'missing' }
  | { kind: 'ok'; value: unknown; text: string }
  /** The file did not parse: it was renamed to `setAside` and is reported, never overwritten. */
  | { kind: 'set-aside'; setAside: string; error: string };

/** Reads a JSON store file; one that does not parse is moved to `<name>.bad-<time>` and reported. */
export async function readJsonOrSetAside(path: string, now = new Date(), read: StoreReader = readIfExists): Promise<JsonRead> {
  const text = await readTextIfExists(path, read);
  if (text === undefined) return { kind: 'missing' };
  try {
    return { kind: 'ok', value: JSON.parse(text), text };
  } catch (err) {
    const setAside = `${path}.bad-${now.toISOString().replace(/[:.]/g, '-')}`;
    await fs.rename(path, setAside);
    return { kind: 'set-aside', setAside, error: errorText(err) };
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw err;
  }
}
