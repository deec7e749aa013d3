/**
 * The IPv6 readiness test's rules: which tests there are, which setting gives
 * each its origin, and how their outcomes become a score out of 10 per family,
 * a line per test and what to tell the ISP. Pure, so the rules are unit-tested
 * on recorded outcomes (test/site/ipv6-readiness.test.ts).
 */

export type Family = 'IPv4' | 'IPv6';

/** The tests in the order the page shows them. */
export const TEST_IDS = ['v4', 'v6', 'dual', 'fallback', 'literal', 'v4-large', 'v6-large', 'v6-dns'] as const;
export type TestId = (typeof TEST_IDS)[number];

/** The origins the operator set (site settings' `ipv6Readiness`, null where unset); `dual` is the site's own. */
export interface ReadinessOrigins {
  ipv4Origin: string | null;
  ipv6Origin: string | null;
  literalOrigin: string | null;
  fallbackOrigin: string | null;
  dnsOrigin: string | null;
}

/** The setting that turns each test on (none for `dual`, which asks the site's own origin). */
export const SETTING_OF: Record<TestId, keyof ReadinessOrigins | null> = {
  v4: 'ipv4Origin',
  v6: 'ipv6Origin',
  dual: null,
  fallback: 'fallbackOrigin',
  literal: 'literalOrigin',
  'v4-large': 'ipv4Origin',
  'v6-large': 'ipv6Origin',
  'v6-dns': 'dnsOrigin',
};

export const SETTING_NAME: Record<keyof ReadinessOrigins, string> = {
  ipv4Origin: 'IPV4_ONLY_ORIGIN',
  ipv6Origin: 'IPV6_ONLY_ORIGIN',
  literalOrigin: 'IPV6_LITERAL_ORIGIN',
  fallbackOrigin: 'IPV6_FALLBACK_ORIGIN',
  dnsOrigin: 'IPV6_DNS_ORIGIN',
};

export type Outcome =
  | { state: 'not-run'; setting: string }
  /** Answered: how long the whole request took, and the family the server saw it come over. */
  | { state: 'ok'; ms: number; family: Family }
  | { state: 'failed'; reason: 'timeout' | 'unreachable' };

/** A fallback slower than this is a delay a visitor notices on every dual-stack site. */
export const SLOW_FALLBACK_MS = 2000;

// What each failure costs the family's score: the basic reach is everything;
// a stalled large answer (path MTU) breaks many sites; a slow or failed
// fallback makes dual-stack sites hang; the literal and the resolver are
// rarer paths.
const COST: Partial<Record<TestId, number>> = { 'v4-large': 5, 'v6-large': 4, fallback: 3, literal: 1, 'v6-dns': 1 };
const SLOW_FALLBACK_COST = 2;
const PREFERS_IPV4_COST = 1;

export type Advice = 'no-ipv4' | 'no-ipv6' | 'mtu-ipv4' | 'mtu-ipv6' | 'broken-ipv6' | 'dns-ipv6';

export interface Line {
  test: TestId;
  /** The message under `ipv6.line.`: `<test>.<ok|slow|timeout|unreachable|not-run|ipv4|ipv6>`. */
  key: string;
  params: { ms?: number; family?: Family; setting?: string };
}

export interface Readiness {
  /** Out of 10, or null when the family's own test did not run (its origin is not set). */
  scores: Record<Family, number | null>;
  lines: Line[];
  /** What to tell the ISP, most important first; empty when nothing is wrong. */
  advice: Advice[];
}

const FAMILY_OF: Record<TestId, Family> = {
  v4: 'IPv4',
  'v4-large': 'IPv4',
  v6: 'IPv6',
  dual: 'IPv6',
  fallback: 'IPv6',
  literal: 'IPv6',
  'v6-large': 'IPv6',
  'v6-dns': 'IPv6',
};

function lineOf(test: TestId, outcome: Outcome): Line {
  if (outcome.state === 'not-run') return { test, key: `${test}.not-run`, params: { setting: outcome.setting } };
  if (outcome.state === 'failed') return { test, key: `${test}.${outcome.reason}`, params: {} };
  const params = { ms: Math.round(outcome.ms), family: outcome.family };
  if (test === 'dual') return { test, key: `dual.${outcome.family === 'IPv6' ? 'ipv6' : 'ipv4'}`, params };
  if (test === 'fallback' && outcome.ms > SLOW_FALLBACK_MS) return { test, key: 'fallback.slow', params };
  return { test, key: `${test}.ok`, params };
}

/** The score, lines and advice from every test's outcome (a test missing from `outcomes` counts as not run). */
export function readiness(outcomes: Partial<Record<TestId, Outcome>>): Readiness {
  const of = (test: TestId): Outcome => outcomes[test] ?? { state: 'not-run', setting: '' };
  const failed = (test: TestId) => of(test).state === 'failed';
  const lines = TEST_IDS.map((test) => lineOf(test, of(test)));

  const score = (family: Family, base: TestId): number | null => {
    const reached = of(base);
    if (reached.state === 'not-run') return null;
    if (reached.state === 'failed') return 0;
    let points = 10;
    for (const test of TEST_IDS) {
      if (FAMILY_OF[test] !== family || test === base) continue;
      const outcome = of(test);
      if (outcome.state === 'failed') points -= COST[test] ?? 0;
      else if (test === 'fallback' && outcome.state === 'ok' && outcome.ms > SLOW_FALLBACK_MS) {
        points -= SLOW_FALLBACK_COST;
      }
      // Reachable over IPv6, yet the browser takes IPv4 to a dual-stack name: IPv6 unused where it could be.
      else if (test === 'dual' && outcome.state === 'ok' && outcome.family === 'IPv4') points -= PREFERS_IPV4_COST;
    }
    return Math.max(0, points);
  };

  const advice: Advice[] = [];
  if (failed('v4')) advice.push('no-ipv4');
  if (failed('v6')) advice.push('no-ipv6');
  const fallback = of('fallback');
  if (fallback.state === 'failed' || (fallback.state === 'ok' && fallback.ms > SLOW_FALLBACK_MS)) {
    advice.push('broken-ipv6');
  }
  if (failed('v4-large') && !failed('v4')) advice.push('mtu-ipv4');
  if (failed('v6-large') && !failed('v6')) advice.push('mtu-ipv6');
  if (failed('v6-dns')) advice.push('dns-ipv6');

  return { scores: { IPv4: score('IPv4', 'v4'), IPv6: score('IPv6', 'v6') }, lines, advice };
}
