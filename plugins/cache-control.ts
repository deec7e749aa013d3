import fp from 'fastify-plugin';

/**
 * Every response starts as `no-store`; a route that declares `config.cacheTtl`
 * is made publicly cacheable, but only when its status is below 400.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const ttl = request.routeOptions.config.cacheTtl;
      if (ttl !== undefined && reply.statusCode < 400) reply.header('cache-control', `public, max-age=${ttl}`);
      else if (reply.statusCode >= 400) reply.header('cache-control', 'no-store');
      return payload;
    });
  },
  { name: 'cache-control' },
);
