import ipaddr from 'ipaddr.js';
import { parseIp, type IpAddress } from './ip-address.js';

// ipaddr.js files documentation, benchmarking, 240/4 and the other special
// blocks under 'reserved'; only plain unicast is public. IPv6 must also sit in
// the global unicast block 2000::/3.
const GLOBAL_V6 = ipaddr.parseCIDR('2000::/3');

/** Whether an address is public: not private, loopback, CGNAT, link-local, documentation, multicast, IPv4-mapped or otherwise reserved. */
export function isPublicAddress(addr: IpAddress): boolean {
  if (addr.range() !== 'unicast') return false;
  return addr.kind() === 'ipv4' || (addr as ipaddr.IPv6).match(GLOBAL_V6 as [ipaddr.IPv6, number]);
}

/** Whether `value` is an IP address (see parseIp) in public space. */
export function isPublicIp(value: string): boolean {
  const addr = parseIp(value);
  return addr !== undefined && isPublicAddress(addr);
}
