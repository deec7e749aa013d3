import fp from 'fastify-plugin';
import type { FastifyReply, onSendHookHandler } from 'fastify';

/**
 * Adds Referer to the answer's Vary, keeping what is there. Every /api route
 * stands behind the Referer gate, so a shared cache must keep one copy per
 * Referer or it would hand an answer to a caller the gate refuses.
 */
function varyOnReferer(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', 'Referer');
    return;
  }
  const names = String(vary)
    .split(',')
    .map((name) => name.trim().toLowerCase());
  if (!names.includes('referer') && !names.includes('*')) reply.header('vary', `${String(vary)}, Referer`);
}

/**
 * Every response is `no-store` unless its route declares `config.cacheTtl`,
 * and then it is publicly cacheable only when its status is below 400. A
 * route whose lifetime depends on the request (the radar views) may set the
 * header itself on success. Every cacheable answer varies on Referer; a
 * no-store one is never kept, so it need not. The cacheable routes get their
 * own onSend hook when they are declared, so no request pays for a per-request
 * route lookup.
 */
export default fp(
  async (app) => {
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (reply.statusCode >= 400 || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      else if (String(reply.getHeader('cache-control')).startsWith('public')) varyOnReferer(reply);
      done(null, payload);
    });
    app.addHook('onRoute', (route) => {
      const ttl = route.config?.cacheTtl;
      if (ttl === undefined) return;
      const value = `public, max-age=${ttl}`;
      const hook: onSendHookHandler = (_request, reply, payload, done) => {
        if (reply.statusCode < 400) {
          reply.header('cache-control', value);
          varyOnReferer(reply);
        }
        done(null, payload);
      };
      const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
      route.onSend = [...own, hook];
    });
  },
  { name: 'cache-control' },
);
