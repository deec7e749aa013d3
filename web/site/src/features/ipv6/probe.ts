import type { ClientIp } from '@contract/client-ip.js';
import { fetchWithin, type Clock } from '../../lib/fetch-within';
import { SETTING_NAME, SETTING_OF, type Outcome, type ReadinessOrigins, type TestId } from './readiness';

/** Long enough for a slow line to take 100 KB, short enough that a stall reads as one. */
export const LIMIT_MS = 10_000;

const SMALL = '/api/client-ip';
const LARGE = '/api/client-ip/large';

/** The URL each test asks, or null when the operator has not set its origin; `dual` asks the site itself. */
export function urlOf(test: TestId, origins: ReadinessOrigins): string | null {
  const setting = SETTING_OF[test];
  if (setting === null) return SMALL;
  const origin = origins[setting];
  if (!origin) return null;
  return `${origin}${test.endsWith('-large') ? LARGE : SMALL}`;
}

/** Runs one test: the family the server saw and the whole request's time, or why it failed, or why it did not run. */
export async function probe(
  test: TestId,
  origins: ReadinessOrigins,
  clock: Clock,
  cancel: AbortSignal,
): Promise<Outcome | null> {
  const url = urlOf(test, origins);
  if (url === null) return { state: 'not-run', setting: SETTING_NAME[SETTING_OF[test]!] };
  // The body is read whole inside the limit: a path-MTU stall happens after the headers, in the large body.
  const fetched = await fetchWithin(
    url,
    { cache: 'no-store', headers: { accept: 'application/json' } },
    {
      limitMs: LIMIT_MS,
      clock,
      cancel,
      read: async (response) => (response.ok ? ((await response.json()) as ClientIp) : null),
    },
  );
  if (fetched.outcome === 'cancelled') return null;
  if (fetched.outcome === 'timeout') return { state: 'failed', reason: 'timeout' };
  if (fetched.outcome === 'failed' || !fetched.value) return { state: 'failed', reason: 'unreachable' };
  return { state: 'ok', ms: fetched.timeMs, family: fetched.value.family };
}
