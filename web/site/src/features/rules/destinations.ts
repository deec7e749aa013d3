import { CLIENT_IP, type Detector, type Outcome } from '../../lib/echo.js';

/** At most as many destinations as the report's `ruletest` section holds. */
export const MAX_DESTINATIONS = 16;

// Without the operator's own hostnames, eight echo services on eight domains,
// each answering cross-origin: a proxy client's rules can send each domain its own way.
const BUILT_IN: ReadonlyArray<Pick<Detector, 'urls'>> = [
  { urls: [{ url: 'https://api4.ipify.org?format=json', read: 'json-ip' }] },
  { urls: [{ url: 'https://ipv4.myexternalip.com/json', read: 'json-ip' }] },
  { urls: [{ url: 'https://1.0.0.1/cdn-cgi/trace', read: 'trace' }] },
  { urls: [{ url: 'https://speed.cloudflare.com/cdn-cgi/trace', read: 'trace' }] },
  { urls: [{ url: 'https://myip.ipip.net/json', read: 'json-data-ip' }] },
  { urls: [{ url: 'https://pubstatic.b0.upaiyun.com/?_upnode', read: 'json-remote-addr' }] },
  { urls: [{ url: 'https://api6.ipify.org?format=json', read: 'json-ip' }] },
  { urls: [{ url: 'https://ipv6.myexternalip.com/json', read: 'json-ip' }] },
];

/**
 * The destinations the visitor's proxy rules are tested against: the
 * operator's hostnames of this same service (RULE_TEST_ORIGINS), each asked
 * for `/api/client-ip`, else the built-in echo services. Each is named by its host.
 */
export function destinations(origins: readonly string[]): Detector[] {
  const list = origins.length
    ? origins.map((origin) => ({ urls: [{ url: `${origin}${CLIENT_IP}`, read: 'json-ip' as const }] }))
    : BUILT_IN;
  return list.slice(0, MAX_DESTINATIONS).map((d, i) => ({
    id: String(i + 1),
    name: new URL(d.urls[0]!.url).host,
    family: null,
    urls: d.urls,
  }));
}

/** Distinct exit addresses among the answers: more than one means the rules send destinations different ways. */
export function uniqueExits(outcomes: ReadonlyArray<Outcome | null>): string[] {
  return [...new Set(outcomes.flatMap((o) => (o?.state === 'done' ? [o.ip] : [])))];
}
