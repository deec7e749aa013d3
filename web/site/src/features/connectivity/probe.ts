import { fetchWithin, inTurn, type Clock } from '../../lib/fetch-within.js';
import type { Report } from '@contract/report.js';
import { PROBE_TIMEOUT_MS, type ProbeResult } from './result.js';
import { CUSTOM, type Target } from './targets.js';

/** Probes of one pass start this far apart, so a long list does not open every connection at once. */
export const STAGGER_MS = 50;

/**
 * Whether the browser reaches `url`, and how fast. The request is `no-cors`:
 * the answer is opaque, so any answer at all, even an error page, means the
 * site is reachable; a refused connection, a failed name lookup or TLS is
 * unreachable; no answer within the limit is a timeout (MyIP never says
 * timeout; a visitor expects to). The time includes the name lookup and the
 * connection on a first contact. Null when `cancel` fired first.
 */
export async function probe(url: string, clock: Clock, cancel?: AbortSignal): Promise<ProbeResult | null> {
  const fetched = await fetchWithin(
    url,
    { mode: 'no-cors', cache: 'no-store', credentials: 'omit' },
    { limitMs: PROBE_TIMEOUT_MS, clock, cancel, read: () => undefined },
  );
  switch (fetched.outcome) {
    case 'answered':
      return { status: 'ok', timeMs: fetched.timeMs };
    case 'failed':
      return { status: 'unreachable', timeMs: fetched.timeMs };
    case 'timeout':
      return { status: 'timeout', timeMs: fetched.timeMs };
    default:
      return null;
  }
}

/** Probes every target, STAGGER_MS apart, handing each result over as it lands; resolves once all are in. */
export function probeAll(
  targets: readonly Target[],
  onResult: (target: Target, result: ProbeResult) => void,
  clock: Clock,
  cancel?: AbortSignal,
): Promise<void> {
  return inTurn(targets, STAGGER_MS, clock, (target) => probe(target.url, clock, cancel), onResult);
}

/** The report's `connectivity` section as recordSection takes it (without `testedAt`). */
export type ConnectivitySection = Omit<NonNullable<Report['sections']['connectivity']>, 'testedAt'>;

/** The report's `connectivity` section: every target with a result, in the list's order. */
export function connectivitySection(
  targets: readonly Target[],
  results: ReadonlyMap<string, ProbeResult>,
): ConnectivitySection {
  const reported = targets.flatMap((target) => {
    const result = results.get(target.id);
    if (!result) return [];
    return [
      {
        id: target.id.slice(0, 48),
        name: target.name.slice(0, 64),
        status: result.status,
        ...(result.status === 'ok' ? { timeMs: Math.min(result.timeMs, 600_000) } : {}),
        ...(target.group === CUSTOM ? { custom: true } : {}),
      },
    ];
  });
  return { targets: reported.slice(0, 72) };
}
