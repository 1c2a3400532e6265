// A lock on a file for read-modify-write across callers and processes: a per-key queue in this
// process, and `<file>.lock` created exclusively across processes. A lock not renewed for `staleMs`
// is taken to belong to a crashed process and taken over (its holder renews it while it works, so a
// long operation is never taken for a crash), and so is one whose holder, named in it, no longer
// runs on this machine. Sparkle's stores append under it, checkpoint repositories run git under it;
// anything shared by several conductors or windows can. (The history's ownership of a conversation
// is a different thing, a lease renewed by a heartbeat: src/history/ownership.ts.)
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { delay } from './deadline';

const errnoCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;

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

export interface LockOptions {
  /** A lock file not renewed for this long is taken to belong to a crashed process and is taken over. */
  staleMs?: number;
  /** Give up waiting for another process after this long. */
  timeoutMs?: number;
}

/** What a lock file says of its holder: `<pid> <host>`. */
const holderLine = (): string => `${process.pid} ${hostname()}\n`;

/** The lock's holder was a process of this machine that is no longer running. */
async function holderGone(lock: string): Promise<boolean> {
  const [pid, host] = (await fs.readFile(lock, 'utf8').catch(() => '')).trim().split(' ');
  if (host !== hostname() || !/^[1-9][0-9]*$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return errnoCode(err) === 'ESRCH';
  }
}

/** Runs `fn` holding `path`'s lock: one caller at a time in this process and across processes. */
export function withFileLock<T>(path: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const { staleMs = 30_000, timeoutMs = 15_000 } = options;
  return serialize(path, async () => {
    const lock = `${path}.lock`;
    await fs.mkdir(dirname(path), { recursive: true });
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        await fs.writeFile(lock, holderLine(), { flag: 'wx' });
        break;
      } catch (err) {
        if (errnoCode(err) !== 'EEXIST') throw err;
        const stat = await fs.stat(lock).catch(() => undefined);
        if (stat && (Date.now() - stat.mtimeMs > staleMs || (await holderGone(lock)))) {
          await fs.rm(lock, { force: true });
          continue;
        }
        if (Date.now() - started > timeoutMs)
          throw new Error(`${path} stayed locked by another process for ${timeoutMs} ms (${lock}); try again`);
        await delay(Math.min(50, 5 + attempt * 2) + Math.random() * 10);
      }
    }
    // The holder touches its lock every third of `staleMs`: only a holder that is gone leaves it stale.
    const renew = setInterval(
      () => {
        const now = new Date();
        fs.utimes(lock, now, now).catch(() => undefined);
      },
      Math.max(10, staleMs / 3),
    );
    renew.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await fs.rm(lock, { force: true });
    }
  });
}
