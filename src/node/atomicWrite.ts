// The one way a file we own is replaced: written to a temp file beside it (created exclusively, so
// a link someone left in its place is never followed), flushed to disk, then renamed over the
// target. A crash mid-write leaves the previous file whole (at worst a stray `.…tmp` file); a
// reader never sees half a file. Used by the history, checkpoints, Sparkle's stores and ElizACP's
// saved sessions. Also: creating a file that must not replace anything (link(), all or nothing).
import * as fs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomHex } from './randomHex';

export interface AtomicWriteOptions {
  /** The new file's mode (default 0o600: what we keep is the user's alone). */
  mode?: number;
}

const errnoCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;
const tempName = (target: string): string => join(dirname(target), `.${basename(target)}.${process.pid}.${randomHex(4)}.tmp`);

async function writeTemp(target: string, data: string | Uint8Array, mode: number): Promise<string> {
  const tmp = tempName(target);
  const handle = await fs.promises.open(tmp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  return tmp;
}

/** Replaces (or creates) `path` with `data` atomically; creates the folder if needed. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  await fs.promises.mkdir(dirname(path), { recursive: true });
  const tmp = await writeTemp(path, data, options.mode ?? 0o600);
  try {
    await fs.promises.rename(tmp, path);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}

/** writeFileAtomic for callers that must finish before they return (a window closing, a journal before a restore). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  fs.mkdirSync(dirname(path), { recursive: true });
  const tmp = tempName(path);
  const fd = fs.openSync(tmp, 'wx', options.mode ?? 0o600);
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, path);
  } catch (err) {
    try {
      fs.closeSync(fd);
    } catch {
      // already closed
    }
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Creates `path` with `data` unless it exists; false (and nothing written) if it does. */
export async function createFileExclusive(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<boolean> {
  await fs.promises.mkdir(dirname(path), { recursive: true });
  const tmp = await writeTemp(path, data, options.mode ?? 0o600);
  try {
    await fs.promises.link(tmp, path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    // Filesystems without hard links: exclusive create, then the data (not atomic, still no clobber).
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(errnoCode(err) ?? '')) throw err;
    try {
      await fs.promises.writeFile(path, data, { flag: 'wx', mode: options.mode ?? 0o600 });
      return true;
    } catch (inner) {
      if (errnoCode(inner) === 'EEXIST') return false;
      throw inner;
    }
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}
