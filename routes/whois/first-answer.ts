import { DeadlinePassed, type Deadline } from '../../lib/deadline.js';

/**
 * The first usable answer of a source and its fallback, undefined when
 * neither gives one. The fallback starts as soon as `primary` ends without an
 * answer, or at `hedgeAt` while it is still running: a source that hangs then
 * costs half the chain's time instead of all of it, and one that is merely
 * slow can still win. Neither may reject; each turns its failure into
 * undefined (and logs it).
 */
export async function firstAnswer<T>(
  primary: Promise<T | undefined>,
  fallback: () => Promise<T | undefined>,
  hedgeAt: Deadline,
): Promise<T | undefined> {
  try {
    return (await hedgeAt.race(primary)) ?? (await fallback());
  } catch (err) {
    if (!(err instanceof DeadlinePassed)) throw err;
  }
  const sources = [primary, fallback()];
  return new Promise((resolve, reject) => {
    let pending = sources.length;
    for (const source of sources) {
      source.then((answer) => {
        if (answer !== undefined) resolve(answer);
        else if (--pending === 0) resolve(undefined);
      }, reject);
    }
  });
}
