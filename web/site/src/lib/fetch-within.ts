/** What a timed request needs from the browser, passed in so the tests run it without one. */
export interface Clock {
  fetch: typeof fetch;
  now: () => number;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export const browserClock = (): Clock => ({
  fetch: (...args) => fetch(...args),
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

export type Fetched<T> =
  | { outcome: 'answered'; value: T; timeMs: number }
  /** No answer: the name did not resolve, the connection was refused or reset, TLS failed, a blocker stopped it. */
  | { outcome: 'failed'; timeMs: number }
  | { outcome: 'timeout'; timeMs: number }
  /** `cancel` fired first: the page no longer wants the answer. */
  | { outcome: 'cancelled' };

/**
 * One request of a browser tool, given up after `limitMs` (reading the answer
 * with `read` included), told apart from a failure: a visitor expects "no
 * answer in time" and "refused" to read differently. Times are whole
 * milliseconds from the request's start.
 */
export async function fetchWithin<T>(
  url: string,
  init: RequestInit,
  options: { limitMs: number; clock: Clock; cancel?: AbortSignal; read: (response: Response) => Promise<T> | T },
): Promise<Fetched<T>> {
  const { limitMs, clock, cancel, read } = options;
  if (cancel?.aborted) return { outcome: 'cancelled' };
  const controller = new AbortController();
  let timedOut = false;
  const stop = () => controller.abort();
  cancel?.addEventListener('abort', stop, { once: true });
  const timer = clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limitMs);
  const start = clock.now();
  const elapsed = () => Math.max(0, Math.round(clock.now() - start));
  const settled = (): Fetched<T> | null => {
    if (timedOut) return { outcome: 'timeout', timeMs: limitMs };
    return cancel?.aborted ? { outcome: 'cancelled' } : null;
  };
  try {
    const response = await clock.fetch(url, { ...init, signal: controller.signal });
    const timeMs = elapsed();
    const value = await read(response);
    return settled() ?? { outcome: 'answered', value, timeMs };
  } catch {
    return settled() ?? { outcome: 'failed', timeMs: elapsed() };
  } finally {
    clock.clearTimeout(timer);
    cancel?.removeEventListener('abort', stop);
  }
}

function pause(ms: number, clock: Clock): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/**
 * Runs `run` for every item, each `gapMs` after the one before (so a long list
 * does not open every connection at once), handing over each non-null result
 * as it lands; resolves once all are in.
 */
export async function inTurn<T, R>(
  items: readonly T[],
  gapMs: number,
  clock: Clock,
  run: (item: T) => Promise<R | null>,
  onResult: (item: T, result: R) => void,
): Promise<void> {
  await Promise.all(
    items.map(async (item, i) => {
      if (i) await pause(i * gapMs, clock);
      const result = await run(item);
      if (result !== null) onResult(item, result);
    }),
  );
}
