import fp from 'fastify-plugin';
import { redactUrl } from '../lib/logger.js';

const THREW = Symbol('whether the request threw an error that is not a client answer');

/** One line per /api request with method, URL, status and response time (LOG_HTTP=true). */
export default fp(
  async (app) => {
    app.decorateRequest(THREW, false);
    // The spec's levels: error for a 5xx or a thrown error, warn for a 4xx,
    // info otherwise. A deliberate client answer thrown as an error (a 429
    // from the limiter, a 4xx from a route) is a 4xx like any other. An
    // upstream's failure is a 5xx, so an error line too, as the spec says;
    // its cause is the failure log's warning (plugins/failure-log.ts).
    app.addHook('onError', async (request, _reply, error) => {
      const status = (error as { statusCode?: number }).statusCode;
      if (status && status >= 400 && status < 500) return;
      (request as unknown as Record<symbol, boolean>)[THREW] = true;
    });
    app.addHook('onResponse', async (request, reply) => {
      if (!request.url.startsWith('/api')) return;
      const status = reply.statusCode;
      const threw = (request as unknown as Record<symbol, boolean>)[THREW];
      const level = threw || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      request.log[level](
        {
          method: request.method,
          url: redactUrl(request.url),
          statusCode: status,
          responseTime: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request completed',
      );
    });
  },
  { name: 'request-log' },
);
