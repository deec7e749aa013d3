import { isIP } from 'node:net';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientIp } from '../../lib/client-ip.js';
import { HttpError } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';

const ClientIp = Type.Object({
  ip: Type.String(),
  family: Type.Union([Type.Literal('IPv4'), Type.Literal('IPv6')]),
});

/**
 * GET /api/client-ip (ours, not in the spec): the visitor's own address as
 * this service resolves it, for the site's home page. Never cached: it is
 * the caller's own.
 */
const clientIpRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/client-ip',
    { schema: { summary: "The caller's address and its family", response: { 200: ClientIp, 500: ErrorBody } } },
    async (request) => {
      const ip = clientIp(request);
      // Only a request whose socket closed before it was read has no address at all.
      if (!ip) throw new HttpError(500, 'Client address unknown');
      return { ip, family: isIP(ip) === 4 ? ('IPv4' as const) : ('IPv6' as const) };
    },
  );
};

export default clientIpRoute;
export { examples } from './examples.js';
