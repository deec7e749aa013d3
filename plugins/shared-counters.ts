import fp from 'fastify-plugin';
import type { RedisLink } from '../lib/redis-link.js';
import { reportRedisUrl } from '../routes/report/configured.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Redis the limiters share with other instances (REDIS_URL); undefined keeps every count in this process. */
    redisLink: RedisLink | undefined;
  }
}

export default fp(
  async (app) => {
    const url = app.config.REDIS_URL;
    // Loaded only where Redis is used: the client's module graph is a tenth of the service's start-up.
    const link = url ? new (await import('../lib/redis-link.js')).RedisLink(url, app.log) : undefined;
    app.decorate('redisLink', link);
    if (!link) return;
    app.addHook('onClose', () => link.close());
    const { watchRedis } = await import('../lib/redis-policy.js');
    watchRedis(app, link, reportRedisUrl(app.config) === url ? 'limitsAndReports' : 'limits');
  },
  { name: 'shared-counters' },
);
