import { isIpv4, isIpv6 } from '../../lib/ip.js';

export type Family = 'IPv4' | 'IPv6';

/** How a detector's answer names the address. */
type Reader = 'trace' | 'json-ip' | 'json-data-ip' | 'json-remote-addr';

/**
 * A service that answers the address a request came from. Each is asked in
 * the visitor's browser, so each sees the path to its own servers: a
 * detector that sees another address means traffic to it leaves another way
 * (split routing, a proxy for some destinations).
 */
export interface Detector {
  id: string;
  name: string;
  /** The family the answer must be in; null takes either (the browser's own choice). */
  family: Family | null;
  /** Tried in order; the first usable answer wins. */
  urls: Array<{ url: string; read: Reader }>;
}

const CLIENT_IP = '/api/client-ip';

/**
 * This site's own answer, then its IPv4-only and IPv6-only hostnames when the
 * operator set them, then the independent detectors the most popular site of
 * this kind asks (browser-tools reference, "IP info cards").
 */
export function detectors(origins: { ipv4Origin: string | null; ipv6Origin: string | null }): Detector[] {
  const own = (id: string, family: Family, origin: string | null): Detector[] =>
    origin
      ? [{ id, name: `This site (${family})`, family, urls: [{ url: `${origin}${CLIENT_IP}`, read: 'json-ip' }] }]
      : [];
  return [
    { id: 'site', name: 'This site', family: null, urls: [{ url: CLIENT_IP, read: 'json-ip' }] },
    ...own('site-v4', 'IPv4', origins.ipv4Origin),
    ...own('site-v6', 'IPv6', origins.ipv6Origin),
    {
      id: 'cloudflare-v4',
      name: 'Cloudflare IPv4',
      family: 'IPv4',
      urls: [
        { url: 'https://1.0.0.1/cdn-cgi/trace', read: 'trace' },
        { url: 'https://ipv4.myexternalip.com/json', read: 'json-ip' },
      ],
    },
    {
      id: 'cloudflare-v6',
      name: 'Cloudflare IPv6',
      family: 'IPv6',
      urls: [
        { url: 'https://[2606:4700:4700::1111]/cdn-cgi/trace', read: 'trace' },
        { url: 'https://ipv6.myexternalip.com/json', read: 'json-ip' },
      ],
    },
    {
      id: 'ipify-v4',
      name: 'ipify IPv4',
      family: 'IPv4',
      urls: [{ url: 'https://api4.ipify.org?format=json', read: 'json-ip' }],
    },
    {
      id: 'ipify-v6',
      name: 'ipify IPv6',
      family: 'IPv6',
      urls: [{ url: 'https://api6.ipify.org?format=json', read: 'json-ip' }],
    },
    {
      id: 'china',
      name: 'From China (ipip.net)',
      family: null,
      urls: [
        { url: 'https://myip.ipip.net/json', read: 'json-data-ip' },
        { url: 'https://pubstatic.b0.upaiyun.com/?_upnode', read: 'json-remote-addr' },
      ],
    },
  ];
}

/** The `ip=` line of a Cloudflare trace (`key=value` lines). */
function traceIp(text: string): unknown {
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0 && line.slice(0, at).trim() === 'ip') return line.slice(at + 1).trim();
  }
  return undefined;
}

function jsonField(text: string, path: string[]): unknown {
  try {
    return path.reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      JSON.parse(text),
    );
  } catch {
    return undefined;
  }
}

/** The address an answer names, if it names one of the wanted family. */
export function readAddress(text: string, read: Reader, family: Family | null): string | null {
  const value =
    read === 'trace'
      ? traceIp(text)
      : jsonField(
          text,
          read === 'json-data-ip' ? ['data', 'ip'] : read === 'json-remote-addr' ? ['remote_addr'] : ['ip'],
        );
  if (typeof value !== 'string') return null;
  if (family === 'IPv4') return isIpv4(value) ? value : null;
  if (family === 'IPv6') return isIpv6(value) ? value : null;
  return isIpv4(value) || isIpv6(value) ? value : null;
}

export type Outcome =
  { state: 'done'; ip: string; family: Family } | { state: 'error'; reason: 'timeout' | 'failed' | 'unusable' };

export const DETECTOR_TIMEOUT_MS = 5000;

/**
 * Asks a detector: each URL in turn, each within `timeoutMs`; the first
 * answer naming an address of the detector's family wins. The reason kept
 * is the last URL's.
 */
export async function detect(
  detector: Detector,
  fetcher: typeof fetch,
  signal: AbortSignal,
  timeoutMs = DETECTOR_TIMEOUT_MS,
): Promise<Outcome> {
  let outcome: Outcome = { state: 'error', reason: 'failed' };
  for (const { url, read } of detector.urls) {
    if (signal.aborted) break;
    const step = new AbortController();
    const stop = () => step.abort();
    signal.addEventListener('abort', stop);
    const timer = setTimeout(stop, timeoutMs);
    try {
      const response = await fetcher(url, {
        signal: step.signal,
        cache: 'no-store',
        headers: { accept: 'application/json, text/plain' },
      });
      const ip = response.ok ? readAddress(await response.text(), read, detector.family) : null;
      if (ip) return { state: 'done', ip, family: isIpv4(ip) ? 'IPv4' : 'IPv6' };
      outcome = { state: 'error', reason: response.ok ? 'unusable' : 'failed' };
    } catch {
      outcome = { state: 'error', reason: step.signal.aborted && !signal.aborted ? 'timeout' : 'failed' };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
  }
  return outcome;
}

/**
 * Per family, the addresses the detectors saw. More than one means some
 * destinations see the visitor elsewhere; the address this site sees (else
 * the most seen) is the reference the others are compared with.
 */
export function familySummary(
  results: ReadonlyArray<{ id: string; outcome: Outcome }>,
  family: Family,
): { addresses: string[]; reference: string | null; differing: Set<string> } {
  const seen = results.flatMap((r) =>
    r.outcome.state === 'done' && r.outcome.family === family ? [{ id: r.id, ip: r.outcome.ip }] : [],
  );
  const counts = new Map<string, number>();
  for (const { ip } of seen) counts.set(ip, (counts.get(ip) ?? 0) + 1);
  const own = seen.find((s) => s.id.startsWith('site'))?.ip;
  const reference = own ?? [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return {
    addresses: [...counts.keys()],
    reference,
    differing: new Set(seen.filter((s) => s.ip !== reference).map((s) => s.id)),
  };
}
