import ipaddr from 'ipaddr.js';
import { parseIp, type IpAddress } from './ip-address.js';

// IANA's special-purpose address registries (iana-ipv4-special-registry and
// iana-ipv6-special-registry, as of 2025), each block with its "Globally
// Reachable" column: true, false, or null where the registry says N/A
// (Teredo, 6to4, the deprecated ORCHID and 6to4 relay blocks). A block the
// registry does not call globally reachable (false or N/A) is not public; a
// more specific block overrides the one around it (2001:1::1 inside 2001::/23).
const SPECIAL: ReadonlyArray<[cidr: string, globallyReachable: boolean | null]> = [
  ['0.0.0.0/8', false],
  ['0.0.0.0/32', false],
  ['10.0.0.0/8', false],
  ['100.64.0.0/10', false],
  ['127.0.0.0/8', false],
  ['169.254.0.0/16', false],
  ['172.16.0.0/12', false],
  ['192.0.0.0/24', false],
  ['192.0.0.0/29', false],
  ['192.0.0.8/32', false],
  ['192.0.0.9/32', true],
  ['192.0.0.10/32', true],
  ['192.0.0.170/32', false],
  ['192.0.0.171/32', false],
  ['192.0.2.0/24', false],
  ['192.31.196.0/24', true],
  ['192.52.193.0/24', true],
  ['192.88.99.0/24', null],
  ['192.168.0.0/16', false],
  ['192.175.48.0/24', true],
  ['198.18.0.0/15', false],
  ['198.51.100.0/24', false],
  ['203.0.113.0/24', false],
  ['240.0.0.0/4', false],
  ['255.255.255.255/32', false],
  ['::1/128', false],
  ['::/128', false],
  ['::ffff:0:0/96', false],
  ['64:ff9b::/96', true],
  ['64:ff9b:1::/48', false],
  ['100::/64', false],
  ['100:0:0:1::/64', false],
  ['2001::/23', false],
  ['2001::/32', null],
  ['2001:1::1/128', true],
  ['2001:1::2/128', true],
  ['2001:1::3/128', true],
  ['2001:2::/48', false],
  ['2001:3::/32', true],
  ['2001:4:112::/48', true],
  ['2001:10::/28', null],
  ['2001:20::/28', true],
  ['2001:30::/28', true],
  ['2001:db8::/32', false],
  ['2002::/16', null],
  ['2620:4f:8000::/48', true],
  ['3fff::/20', false],
  ['5f00::/16', false],
  ['fc00::/7', false],
  ['fe80::/10', false],
];

type Block = { range: [IpAddress, number]; reachable: boolean | null };
// Per family, most specific first, so the first block that holds an address is the registry's word on it.
const blocksOf = (kind: 'ipv4' | 'ipv6'): Block[] =>
  SPECIAL.map(([cidr, reachable]) => ({ range: ipaddr.parseCIDR(cidr), reachable }))
    .filter(({ range }) => range[0].kind() === kind)
    .sort((a, b) => b.range[1] - a.range[1]);
const BLOCKS = { ipv4: blocksOf('ipv4'), ipv6: blocksOf('ipv6') };
// Outside the registry: multicast is never a host (the spec refuses it), and IPv6 is public only in the
// global unicast block; the rest of its space is unassigned.
const MULTICAST_V4 = ipaddr.parseCIDR('224.0.0.0/4');
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Whether an address is public: globally reachable by IANA's special-purpose registries, not multicast, not unassigned. */
export function isPublicAddress(addr: IpAddress): boolean {
  const kind = addr.kind();
  const block = BLOCKS[kind].find(({ range }) => addr.match(range));
  if (block) return block.reachable === true;
  return kind === 'ipv4' ? !addr.match(MULTICAST_V4) : addr.match(GLOBAL_UNICAST_V6);
}

/** Whether `value` is an IP address (see parseIp) in public space. */
export function isPublicIp(value: string): boolean {
  const addr = parseIp(value);
  return addr !== undefined && isPublicAddress(addr);
}
