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
    case 6:
      // One spelling per address (`2001:DB8:0::1` is `2001:db8::1`); a zone index names no client.
      return ip.includes('%') ? undefined : ipaddr.IPv6.parse(ip).toString();
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

/** The request's slot for its client IP (see plugins/client-ip.ts); empty until first asked. */
export const CLIENT_IP = Symbol('clientIp');

declare module 'fastify' {
  interface FastifyRequest {
    [CLIENT_IP]?: string;
  }
}

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
  const headers = req.headers;
  const ip =
    address(first(headers['cf-connecting-ip'])) ??
    address(firstForwarded(headers['x-forwarded-for'])) ??
    address(first(headers['cf-connecting-ipv6'])) ??
    address(req.socket.remoteAddress) ??
    '';
  req[CLIENT_IP] = ip;
  return ip;
}
