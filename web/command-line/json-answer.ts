import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Described, Network, Place } from './local-record.js';
import { parseUserAgent } from './user-agent.js';

/**
 * The address as one integer, in decimal digits: exact for IPv6 too (a
 * 128-bit number), which is why the answer is written here rather than by
 * JSON.stringify, whose numbers stop being exact past 2^53.
 */
export function ipDecimal(ip: string): string {
  if (isIPv4(ip)) {
    const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
    return String(((a << 24) >>> 0) + (b << 16) + (c << 8) + d);
  }
  let n = 0n;
  for (const part of ipaddr.IPv6.parse(ip).parts) n = (n << 16n) | BigInt(part);
  return n.toString();
}

function userAgentMember(raw: string): string {
  const agent = parseUserAgent(raw);
  const members = Object.entries(agent).map(([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)}`);
  return `"user_agent": {\n${members.join(',\n')}\n  }`;
}

/**
 * /json's answer, in the ifconfig.co engine's shape and order, indented as it
 * indents: the address, its integer, the place and network the local
 * databases hold (a field they lack left out), and the caller's User-Agent.
 */
export function jsonAnswer(
  ip: string,
  place: Described<Place> | undefined,
  network: Described<Network> | undefined,
  userAgent: string | undefined,
): string {
  const members = [`"ip": ${JSON.stringify(ip)}`, `"ip_decimal": ${ipDecimal(ip)}`];
  if (place) members.push(...place.members);
  if (network) members.push(...network.members);
  if (userAgent) members.push(userAgentMember(userAgent));
  return `{\n  ${members.join(',\n  ')}\n}\n`;
}
