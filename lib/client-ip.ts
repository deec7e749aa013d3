import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

/**
 * The one address a header value (its first value, trimmed) holds, in one
 * canonical spelling; undefined when it is anything else. The limiters key
 * their counters and the ledger its lines by this value, so header text that
 * is not an address (a 16 KB blob, spaces, a forged line) never becomes a key.
 */
function address(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let ip = value.trim();
  if (ip.startsWith('::ffff:') && ip.includes('.')) ip = ip.slice(7);
  switch (isIP(ip)) {
    case 4:
      return ip;
    case 6: {
      // A zone index names no client.
      if (ip.includes('%')) return undefined;
      const parsed = ipaddr.IPv6.parse(ip);
      // An IPv4 client in IPv6 clothing (`::ffff:c000:201`) is that IPv4 client; any other
      // gets one spelling per address (`2001:DB8:0::1` is `2001:db8::1`).
      return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : parsed.toString();
    }
    default:
      return undefined;
  }
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The first entry of an X-Forwarded-For list. */
function firstForwarded(value: string | string[] | undefined): string | undefined {
  const list = first(value);
  const comma = list?.indexOf(',') ?? -1;
  return comma < 0 ? list : list!.slice(0, comma);
}

/** The request's slots for its client IP and its limiter key (see plugins/client-ip.ts); empty until first asked. */
export const CLIENT_IP = Symbol('clientIp');
export const LIMITER_KEY = Symbol('limiterKey');

declare module 'fastify' {
  interface FastifyRequest {
    [CLIENT_IP]?: string;
    [LIMITER_KEY]?: string;
  }
}

/** How many leading bits of an IPv6 address name one client to the limiters (plugins/README.md says why 64). */
const IPV6_CLIENT_PREFIX = 64;
const PREFIX_WORDS = IPV6_CLIENT_PREFIX / 16;

/**
 * The caller's address, by the spec's order: cf-connecting-ip, the first entry
 * of x-forwarded-for, cf-connecting-ipv6, then the socket. A source that is
 * missing or is not an address is skipped. One trusted proxy hop is assumed,
 * so the listener must not be reachable except through that proxy.
 * Remembered on the request, since both limiters ask for it, one of them
 * twice; written out rather than as a list of sources, since calling each
 * through one shared call site cost more than the rest of the work.
 */
export function clientIp(req: FastifyRequest): string {
  if (req[CLIENT_IP]) return req[CLIENT_IP];
  const ip = callerAddress(req.headers, req.socket.remoteAddress);
  req[CLIENT_IP] = ip;
  return ip;
}

/** clientIp's answer for a request not (yet) handed to Fastify: its headers and its socket's peer. */
export function callerAddress(headers: IncomingHttpHeaders, remoteAddress: string | undefined): string {
  return (
    address(first(headers['cf-connecting-ip'])) ??
    address(firstForwarded(headers['x-forwarded-for'])) ??
    address(first(headers['cf-connecting-ipv6'])) ??
    address(remoteAddress) ??
    ''
  );
}

/** The address Cloudflare names the visitor by (`CF-Connecting-IP`), when it is present and an address. */
export function cfConnectingIp(req: FastifyRequest): string | undefined {
  return address(first(req.headers['cf-connecting-ip']));
}

/**
 * Who the limiters count a request against: an IPv4 client by its address,
 * an IPv6 client by the /64 its address is in (`2001:db8:1:2::/64`), since
 * one home or one server is given a whole /64 and can answer from any of its
 * 2^64 addresses. Only the limiters and their ledger use it; every other
 * use of the client's address gets the full address from clientIp().
 */
export function limiterKey(req: FastifyRequest): string {
  if (req[LIMITER_KEY]) return req[LIMITER_KEY];
  const ip = clientIp(req);
  const key = ip.includes(':') ? ipv6Network(ip) : ip;
  req[LIMITER_KEY] = key;
  return key;
}

/** The /64 a canonical IPv6 address is in, in canonical CIDR form. */
function ipv6Network(ip: string): string {
  const words = ipaddr.IPv6.parse(ip).parts.map((word, i) => (i < PREFIX_WORDS ? word : 0));
  return `${new ipaddr.IPv6(words).toString()}/${IPV6_CLIENT_PREFIX}`;
}
