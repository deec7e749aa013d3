import fp from 'fastify-plugin';
import type { onSendHookHandler } from 'fastify';

/**
 * Every response is `no-store` unless its route declares `config.cacheTtl`,
 * and then it is publicly cacheable only when its status is below 400. A
 * route whose lifetime depends on the request (the radar views) may set the
 * header itself on success. The cacheable routes get their own onSend hook when they are
 * declared, so no request pays for a per-request route lookup.
 */
export default fp(
  async (app) => {
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (reply.statusCode >= 400 || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      done(null, payload);
    });
    app.addHook('onRoute', (route) => {
      const ttl = route.config?.cacheTtl;
      if (ttl === undefined) return;
      const value = `public, max-age=${ttl}`;
      const hook: onSendHookHandler = (_request, reply, payload, done) => {
        if (reply.statusCode < 400) reply.header('cache-control', value);
        done(null, payload);
      };
      const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
      route.onSend = [...own, hook];
    });
  },
  { name: 'cache-control' },
);
