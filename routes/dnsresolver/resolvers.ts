import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../../lib/app-root.js';

/**
 * One provider of the comparison: a plain-DNS server (`ip` or `ip:port`),
 * a DNS-over-HTTPS JSON endpoint (an https URL, maybe with fixed query
 * parameters), or both. `country` is where the operator is based: an ISO
 * 3166-1 code, or EU.
 */
export interface ResolverSpec {
  id: string;
  provider: string;
  country: string;
  udp?: string;
  doh?: string;
}

const RESOLVERS_FILE = join(APP_ROOT, 'routes', 'dnsresolver', 'resolvers.json');

export function loadResolvers(file = RESOLVERS_FILE): ResolverSpec[] {
  const list: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(list) || list.length === 0 || !list.every(isResolverSpec)) {
    throw new Error(`${file}: not a list of resolvers`);
  }
  return list;
}

function isResolverSpec(value: unknown): value is ResolverSpec {
  if (typeof value !== 'object' || value === null) return false;
  const spec = value as Record<string, unknown>;
  if (typeof spec.id !== 'string' || !/^[a-z0-9-]+$/.test(spec.id)) return false;
  if (typeof spec.provider !== 'string' || spec.provider === '') return false;
  if (typeof spec.country !== 'string' || !/^[A-Z]{2}$/.test(spec.country)) return false;
  if (spec.udp === undefined && spec.doh === undefined) return false;
  if (spec.udp !== undefined && (typeof spec.udp !== 'string' || spec.udp === '')) return false;
  return spec.doh === undefined || (typeof spec.doh === 'string' && /^https:\/\/[^/?#]+\/[^#]*$/.test(spec.doh));
}
