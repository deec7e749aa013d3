import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { SYSTEM_NAMES } from '../../lib/network/name-resolver.js';
import { isPublicIp } from '../../lib/network/public-address.js';

/** Every address a name resolves to, as node:dns `lookup` with `all: true` gives them. */
export type Lookup = (hostname: string) => Promise<LookupAddress[]>;

/** The system's DNS servers through the process's cached resolver (c-ares, never getaddrinfo's thread pool). */
export const systemLookup: Lookup = (hostname) => SYSTEM_NAMES.all(hostname);

// Special-use names (RFC 6761, RFC 8375, ICANN's .internal): never a public
// server, whatever a local resolver answers for them.
const INTERNAL_SUFFIXES = ['internal', 'localhost', 'local', 'home.arpa'];

/** A server a referral named, refused before any connection. */
export class HostRefused extends Error {
  constructor(
    readonly host: string,
    reason: string,
  ) {
    super(`Refused ${host}: ${reason}`);
    this.name = 'HostRefused';
  }
}

/**
 * Why `host` can never be a public server, without asking DNS: a special-use
 * name, a single label, or an IP literal outside public space. Undefined when
 * only its DNS answer can tell.
 */
export function refusedWithoutLookup(host: string): string | undefined {
  const name = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (isIP(name)) return isPublicIp(name) ? undefined : 'not a public address';
  if (!name.includes('.')) return 'a single-label name';
  if (INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) return 'a special-use name';
  return undefined;
}

/**
 * The address to connect to for `host`: refused when the name is one no public
 * server has, or when any address it resolves to is loopback, private,
 * link-local or otherwise not public (the project's `isPublicIp`). The caller
 * connects to the returned address, never the name again, so a second DNS
 * answer cannot differ from the one checked.
 */
export async function publicAddress(host: string, lookup: Lookup): Promise<string> {
  const reason = refusedWithoutLookup(host);
  if (reason) throw new HostRefused(host, reason);
  const name = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(name)) return name;
  const addresses = await lookup(name);
  const inward = addresses.find((a) => !isPublicIp(a.address));
  if (inward) throw new HostRefused(host, `resolves to ${inward.address}, not a public address`);
  const first = addresses[0];
  if (!first) throw new HostRefused(host, 'resolves to no address');
  return first.address;
}
