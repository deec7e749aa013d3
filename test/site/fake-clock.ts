import type { Clock } from '../../web/site/src/lib/fetch-within.js';

/** How the fake network treats one URL: answer, fail (refused, blocked) or never answer, after `after` ms. */
export type Behaviour =
  | { kind: 'answer'; after: number; status?: number; body?: string }
  | { kind: 'fail'; after: number }
  | { kind: 'hang' };

/**
 * A clock whose time moves only when a test says, and a fetch on it that
 * answers each URL as `behaviour` says and honours abort signals as a
 * browser's does, so timeouts are tested without waiting for them.
 */
export class FakeClock implements Clock {
  private time = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; run: () => void }>();
  readonly requests: Array<{ url: string; init: RequestInit | undefined }> = [];

  constructor(private readonly behaviour: (url: string) => Behaviour) {}

  now = (): number => this.time;

  setTimeout = (run: () => void, ms: number): unknown => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  fetch = ((input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    this.requests.push({ url, init });
    const behaviour = this.behaviour(url);
    return new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
      if (behaviour.kind === 'answer') {
        this.setTimeout(
          () => resolve(new Response(behaviour.body ?? '', { status: behaviour.status ?? 200 })),
          behaviour.after,
        );
      } else if (behaviour.kind === 'fail') {
        this.setTimeout(() => reject(new TypeError('Failed to fetch')), behaviour.after);
      }
    });
  }) as typeof fetch;

  /** Moves time on by `ms`, running every timer due on the way, each followed by the promise work it starts. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = end;
    await settle();
  }
}

/** Lets every pending promise callback run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
