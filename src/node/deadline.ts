// Waiting with a deadline, one way for the extension and the conductor. Node's timers/promises
// gives the plain wait; `within` adds what it lacks: a race against a timer that is cleared as soon
// as the work settles, so a finished wait leaves no timer holding the process open.
import { setTimeout as delay } from 'node:timers/promises';

export { delay };

/**
 * `work`'s value as `{ value }`, or undefined when it has not settled after `ms`. A failure before
 * the deadline is thrown; one after it is ignored (nobody waits for it any more).
 */
export async function within<T>(ms: number, work: Promise<T>): Promise<{ value: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  work.catch(() => undefined);
  try {
    return await Promise.race([work.then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}
