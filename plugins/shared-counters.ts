import fp from 'fastify-plugin';
import { RedisLink } from '../lib/redis-link.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Redis the limiters share with other instances (REDIS_URL); undefined keeps every count in this process. */
    redisLink: RedisLink | undefined;
  }
}

export default fp(
  async (app) => {
    const url = app.config.REDIS_URL;
    const link = url ? new RedisLink(url, app.log) : undefined;
    app.decorate('redisLink', link);
    if (link) app.addHook('onClose', () => link.close());
  },
  { name: 'shared-counters' },
);
