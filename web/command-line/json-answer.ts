import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Described, Network, Place } from './local-record.js';
import { parseUserAgent } from './user-agent.js';
import { memoized } from '../../lib/memory-cache.js';

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

function describeUserAgent(raw: string): string {
  const members = Object.entries(parseUserAgent(raw)).map(
    ([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)}`,
  );
  return `"user_agent": {\n${members.join(',\n')}\n  }`;
}
// Each caller sends the same User-Agent and asks about the same address again and again. A tool's
// User-Agent is short; a longer one is described afresh, so no client can fill the memo with 16 KB headers.
const USER_AGENT_MEMO_LENGTH = 256;
const rememberedUserAgent = memoized(describeUserAgent, 1000);
const userAgentMember = (raw: string) =>
  raw.length <= USER_AGENT_MEMO_LENGTH ? rememberedUserAgent(raw) : describeUserAgent(raw);
const addressMembers = memoized((ip: string) => `"ip": ${JSON.stringify(ip)},\n  "ip_decimal": ${ipDecimal(ip)}`, 4096);

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
  let json = `{\n  ${addressMembers(ip)}`;
  if (place?.json) json += `,\n  ${place.json}`;
  if (network?.json) json += `,\n  ${network.json}`;
  if (userAgent) json += `,\n  ${userAgentMember(userAgent)}`;
  return `${json}\n}\n`;
}
