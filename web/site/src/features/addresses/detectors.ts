import { CLIENT_IP, type Detector, type Family, type Outcome } from '../../lib/echo.js';

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
