import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * An IPv4 address in plain dotted-quad form or an IPv6 address without a zone
 * index, parsed; undefined for anything else (ipaddr.js alone would also take
 * `0x7f.1`, `127.1` and other legacy IPv4 spellings).
 */
export function parseIp(value: string): IpAddress | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return ipaddr.IPv4.parse(value);
  if (value.includes(':') && !value.includes('%') && ipaddr.IPv6.isValid(value)) return ipaddr.IPv6.parse(value);
  return undefined;
}

export function isIp(value: string): boolean {
  return parseIp(value) !== undefined;
}
