import type { FastifyRequest } from 'fastify';

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The caller's address, in the spec's order: cf-connecting-ip, the first entry
 * of x-forwarded-for, cf-connecting-ipv6, then the socket. One trusted proxy hop
 * is assumed, so the listener must not be reachable except through that proxy.
 */
export function clientIp(req: FastifyRequest): string {
  const forwarded = header(req, 'x-forwarded-for')?.split(',')[0]?.trim();
  const ip =
    header(req, 'cf-connecting-ip') ??
    (forwarded ? forwarded : undefined) ??
    header(req, 'cf-connecting-ipv6') ??
    req.socket.remoteAddress ??
    '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
