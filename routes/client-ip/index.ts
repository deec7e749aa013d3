import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientIp } from '../../lib/client-ip.js';
import { HttpError } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { ClientIp, LargeClientIp } from '../../contract/client-ip.js';
import { allowedHostnames, refererMatcher } from '../../plugins/referer-gate.js';

/**
 * GET /api/client-ip (ours, not in the spec): the visitor's own address as
 * this service resolves it, for the site's home page. Never cached: it is
 * the caller's own.
 *
 * The addresses page also asks it through the operator's IPv4-only and
 * IPv6-only hostnames of this same service (IPV4_ONLY_ORIGIN,
 * IPV6_ONLY_ORIGIN), a cross-origin read: exactly the origins whose hostname
 * the Referer gate allows (localhost and ALLOWED_DOMAINS) may read it, and
 * only this route. The page's request is a simple GET, so the answer's
 * Access-Control-Allow-Origin is all CORS needs; @fastify/cors would also
 * register a wildcard OPTIONS route across /api for a preflight no page sends.
 *
 * GET /api/client-ip/large answers the same with ~100 KB of padding, for the
 * IPv6 readiness page's path-MTU test. Random bytes, made once: compression
 * cannot shrink them below the many full-size packets the test needs.
 */
const PADDING = randomBytes(75_000).toString('base64');

function callerOf(request: FastifyRequest): ClientIp {
  const ip = clientIp(request);
  // Only a request whose socket closed before it was read has no address at all.
  if (!ip) throw new HttpError(500, 'Client address unknown');
  return { ip, family: isIP(ip) === 4 ? 'IPv4' : 'IPv6' };
}

const clientIpRoute: FastifyPluginAsyncTypebox = async (app) => {
  const allowed = refererMatcher(allowedHostnames(app.config.ALLOWED_DOMAINS));
  app.addHook('onSend', async (request, reply) => {
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin && allowed(origin)) reply.header('access-control-allow-origin', origin);
  });
  app.get(
    '/client-ip',
    { schema: { summary: "The caller's address and its family", response: { 200: ClientIp, 500: ErrorBody } } },
    async (request) => callerOf(request),
  );
  app.get(
    '/client-ip/large',
    {
      schema: {
        summary: "The caller's address with ~100 KB of padding (the IPv6 readiness page's path-MTU test)",
        response: { 200: LargeClientIp, 500: ErrorBody },
      },
    },
    async (request) => ({ ...callerOf(request), padding: PADDING }),
  );
};

export default clientIpRoute;
export { examples } from './examples.js';
