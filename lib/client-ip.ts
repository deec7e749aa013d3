import type { FastifyRequest } from 'fastify';

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}

// The spec's order. One trusted proxy hop is assumed, so the listener must not
// be reachable except through that proxy.
const SOURCES: ReadonlyArray<(req: FastifyRequest) => string | undefined> = [
  (req) => header(req, 'cf-connecting-ip'),
  (req) => header(req, 'x-forwarded-for')?.split(',')[0]?.trim() || undefined,
  (req) => header(req, 'cf-connecting-ipv6'),
  (req) => req.socket.remoteAddress || undefined,
];

const unmapped = (ip: string) => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);

/** The first address `accept` takes, trying cf-connecting-ip, the first entry of x-forwarded-for, cf-connecting-ipv6, then the socket. */
export function firstClientIp(req: FastifyRequest, accept: (ip: string) => boolean): string | undefined {
  for (const source of SOURCES) {
    const ip = source(req);
    if (ip === undefined) continue;
    const bare = unmapped(ip);
    if (accept(bare)) return bare;
  }
  return undefined;
}

const any = () => true;

/** The request's slot for its client IP (see plugins/client-ip.ts); empty until first asked. */
export const CLIENT_IP = Symbol('clientIp');

declare module 'fastify' {
  interface FastifyRequest {
    [CLIENT_IP]?: string;
  }
}

/**
 * The caller's address: the first of the spec's sources that is present.
 * Remembered on the request, since both limiters ask for it, one of them twice.
 */
export function clientIp(req: FastifyRequest): string {
  return (req[CLIENT_IP] ||= firstClientIp(req, any) ?? '');
}
