import type { Clock } from './fetch-within.js';

type Timers = Pick<Clock, 'setTimeout' | 'clearTimeout'>;

/** Resolves after `ms`, or false at once when `signal` aborts first. */
export function pause(clock: Timers, ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clock.clearTimeout(handle);
      resolve(false);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Asks after `firstDelayMs`, then again as long as `next` names a delay for
 * the latest answer (null: that answer is the last). Null when `signal`
 * aborts: the page no longer wants the result.
 */
export async function poll<T>(
  clock: Timers,
  firstDelayMs: number,
  ask: () => Promise<T>,
  next: (answer: T) => number | null,
  signal?: AbortSignal,
): Promise<T | null> {
  let delay: number | null = firstDelayMs;
  let answer: T | null = null;
  while (delay !== null) {
    if (!(await pause(clock, delay, signal))) return null;
    answer = await ask();
    if (signal?.aborted) return null;
    delay = next(answer);
  }
  return answer;
}
