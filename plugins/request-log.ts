import fp from 'fastify-plugin';

const THREW = Symbol('request threw');

/** One line per /api request with method, URL, status and response time (LOG_HTTP=true). */
export default fp(
  async (app) => {
    app.decorateRequest(THREW, false);
    // A deliberate client answer thrown as an error (a 429 from the limiter, a
    // 4xx from a route) is a warning like any other 4xx; anything else thrown is an error.
    app.addHook('onError', async (request, _reply, error) => {
      const status = (error as { statusCode?: number }).statusCode;
      if (!(status && status >= 400 && status < 500)) (request as unknown as Record<symbol, boolean>)[THREW] = true;
    });
    app.addHook('onResponse', async (request, reply) => {
      if (!request.url.startsWith('/api')) return;
      const status = reply.statusCode;
      const threw = (request as unknown as Record<symbol, boolean>)[THREW];
      const level = status >= 500 || threw ? 'error' : status >= 400 ? 'warn' : 'info';
      request.log[level](
        {
          method: request.method,
          url: request.url,
          statusCode: status,
          responseTime: Math.round(reply.elapsedTime * 100) / 100,
        },
        'request completed',
      );
    });
  },
  { name: 'request-log' },
);
