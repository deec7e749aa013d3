import { readFileSync } from 'node:fs';
import { FakeClock, type Behaviour } from './fake-clock.js';

/** One of the demo private API's fixtures, as the site's route passes it on. */
export function privateFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/private-api.example/${name}`, import.meta.url), 'utf8')) as T;
}

/** The route's JSON answer 10 ms after it is asked. */
export const answer = (body: unknown, status = 200): Behaviour => ({
  kind: 'answer',
  after: 10,
  status,
  body: JSON.stringify(body),
});

/**
 * Runs a poller on a fake clock whose n-th request gets `respond(n)`, for `spanMs` of fake time:
 * what it came to, and when each poll was sent.
 */
export async function polled<T>(
  respond: (n: number) => Behaviour,
  run: (clock: FakeClock) => Promise<T>,
  spanMs: number,
): Promise<{ outcome: T; times: number[]; requests: FakeClock['requests'] }> {
  let n = 0;
  const times: number[] = [];
  const clock: FakeClock = new FakeClock(() => {
    times.push(clock.now());
    return respond(n++);
  });
  const result = run(clock);
  await clock.advance(spanMs);
  return { outcome: await result, times, requests: clock.requests };
}
