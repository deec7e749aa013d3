import { isIp, isIpv4, ipv6Groups } from './ip.js';

/**
 * An address with its tail hidden, as the report accepts it: IPv4 keeps three
 * octets (`203.0.113.x`), IPv6 its first four groups, the network (`2001:db8:0:1:x`).
 */
export function maskIp(ip: string): string {
  if (isIpv4(ip)) return `${ip.slice(0, ip.lastIndexOf('.'))}.x`;
  return `${ipv6Groups(ip)
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}:x`;
}

// The report's fields that may hold an address: every `ip`, and a test's `target` when it is one.
const ADDRESS_KEYS = new Set(['ip', 'target']);

/** A copy of `value` with every address field masked; everything else as it was. */
export function maskAddresses<T>(value: T): T {
  if (Array.isArray(value)) return value.map(maskAddresses) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = ADDRESS_KEYS.has(key) && typeof field === 'string' && isIp(field) ? maskIp(field) : maskAddresses(field);
  }
  return out as T;
}
