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
import { basename, dirname, join } from 'node:path';
import { readRegularFile } from '../../../src/node/containedFile';
import { randomHex } from '../../../src/node/randomHex';
import { errorText } from '../../../src/protocol/errorText';

/** The largest store file read whole (to append to it, parse it, back it up). */
export const STORE_FILE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * How a store reads one of its files: the bytes, or undefined when it does not exist. The home
 * store's (readIfExists) follows a final link; the workspace store passes one that confines and
 * does not (workspaceStore.ts).
 */
export type StoreReader = (path: string) => Promise<Buffer | undefined>;

const queues = new Map<string, Promise<void>>();

/** Runs `fn` after every earlier `serialize` call with the same key has settled. */
export function serialize<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

const errnoCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

async function writeTemp(target: string, data: string | Buffer): Promise<string> {
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomHex(4)}.tmp`);
  const handle = await fs.open(tmp, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  return tmp;
}

/** Replaces (or creates) `path` with `data` atomically; creates the folder if needed. */
export async function writeFileAtomic(path: string, data: string | Buffer): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true });
  const tmp = await writeTemp(path, data);
  try {
    await fs.rename(tmp, path);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Creates `path` with `data` unless it exists; false (and nothing written) if it does. */
export async function createFileExclusive(path: string, data: string | Buffer): Promise<boolean> {
  await fs.mkdir(dirname(path), { recursive: true });
  const tmp = await writeTemp(path, data);
  try {
    await fs.link(tmp, path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    // Filesystems without hard links: exclusive create, then the data (not atomic, still no clobber).
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(errnoCode(err) ?? '')) throw err;
    try {
      await fs.writeFile(path, data, { flag: 'wx' });
      return true;
    } catch (inner) {
      if (errnoCode(inner) === 'EEXIST') return false;
      throw inner;
    }
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

export interface LockOptions {
  /** A lock file older than this is taken to belong to a crashed process and is taken over. */
  staleMs?: number;
  /** Give up waiting for another process after this long. */
  timeoutMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` holding `path`'s lock: one caller at a time in this process and across processes. */
export function withFileLock<T>(path: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const { staleMs = 30_000, timeoutMs = 15_000 } = options;
  return serialize(path, async () => {
    const lock = `${path}.lock`;
    await fs.mkdir(dirname(path), { recursive: true });
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.writeFile(lock, `${process.pid}\n`, { flag: 'wx' });
        break;
      } catch (err) {
        if (errnoCode(err) !== 'EEXIST') throw err;
        const stat = await fs.stat(lock).catch(() => undefined);
        if (stat && Date.now() - stat.mtimeMs > staleMs) {
          await fs.rm(lock, { force: true });
          continue;
        }
        if (Date.now() - started > timeoutMs)
          throw new Error(`${path} stayed locked by another process for ${timeoutMs} ms (${lock}); try again`);
        await sleep(Math.min(50, 5 + attempt * 2) + Math.random() * 10);
      }
    }
    try {
      return await fn();
    } finally {
      await fs.rm(lock, { force: true });
    }
  });
}

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
