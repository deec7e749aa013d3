import { isIpv4, isIpv6, isReserved } from '../../lib/ip.js';
import type { ProbeResult } from './stun-probe.js';

/** What the test concludes, comparing WebRTC's public addresses with the one this site sees. */
export type Verdict =
  /** No server could even be asked: WebRTC is off or blocked, which keeps every address private. */
  | { kind: 'unavailable' }
  /** WebRTC works but exposed no public address (no STUN server answered: UDP blocked, or servers down). */
  | { kind: 'noAddress' }
  /** Some STUN servers answered, but saw only private or reserved addresses (servers inside the visitor's network). */
  | { kind: 'privateOnly'; answered: number; asked: number }
  /** WebRTC exposed public addresses, but this site's own view of the visitor is unknown. */
  | { kind: 'unknownSite'; addresses: string[] }
  /** WebRTC exposed an address other than the site's: behind a VPN or a proxy, the real one leaks. */
  | { kind: 'leak'; siteSees: string; others: string[]; otherFamilyOnly: boolean }
  | { kind: 'noLeak'; siteSees: string };

/** One spelling per address (IPv6 has many), so equal addresses compare equal. */
export function canonicalIp(ip: string): string {
  return isIpv6(ip) ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip;
}

function familyOf(ip: string): 4 | 6 {
  return isIpv4(ip) ? 4 : 6;
}

/**
 * The public addresses WebRTC exposed, each once, in the order found: those the
 * STUN servers saw and any public local address. A private or reserved address
 * (a LAN STUN server's view, a CGNAT address) names no one on the Internet and
 * is left out of the comparison.
 */
export function publicAddresses(results: readonly ProbeResult[]): string[] {
  const seen = new Set<string>();
  for (const { outcome, hosts } of results) {
    const found = outcome.status === 'found' ? [outcome.ip] : [];
    for (const ip of [...found, ...hosts]) {
      if ((isIpv4(ip) || isIpv6(ip)) && !isReserved(ip)) seen.add(canonicalIp(ip));
    }
  }
  return [...seen];
}

export function verdictOf(results: readonly ProbeResult[], siteSees: string | null): Verdict {
  if (results.length > 0 && results.every((r) => r.outcome.status === 'unavailable')) return { kind: 'unavailable' };
  const addresses = publicAddresses(results);
  if (addresses.length === 0) {
    // The local addresses' own probe (no URL) asks no server.
    const servers = results.filter((r) => r.url);
    const answered = servers.filter((r) => r.outcome.status === 'found').length;
    return answered ? { kind: 'privateOnly', answered, asked: servers.length } : { kind: 'noAddress' };
  }
  if (!siteSees) return { kind: 'unknownSite', addresses };
  const site = canonicalIp(siteSees);
  const others = addresses.filter((ip) => ip !== site);
  if (others.length === 0) return { kind: 'noLeak', siteSees: site };
  const otherFamilyOnly = others.every((ip) => familyOf(ip) !== familyOf(site));
  return { kind: 'leak', siteSees: site, others, otherFamilyOnly };
}
