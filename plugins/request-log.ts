import fp from 'fastify-plugin';
import { UpstreamFailure } from '../lib/http-error.js';
import { redactUrl } from '../lib/logger.js';

const OUTCOME = Symbol('what the request threw');

/** What a thrown error says of the request's line: nothing (a client answer), an upstream's failure, or a bug. */
type Outcome = '' | 'upstream' | 'bug';

/** One line per /api request with method, URL, status and response time (LOG_HTTP=true). */
export default fp(
  async (app) => {
    app.decorateRequest(OUTCOME, '');
    // A deliberate client answer thrown as an error (a 429 from the limiter, a
    // 4xx from a route) is a warning like any other 4xx; so is an upstream's
    // failure, whatever its 5xx: the service expects it, and an error line is
    // for what it does not. Anything else thrown is an error.
    app.addHook('onError', async (request, _reply, error) => {
      const status = (error as { statusCode?: number }).statusCode;
      if (status && status >= 400 && status < 500) return;
      (request as unknown as Record<symbol, Outcome>)[OUTCOME] = error instanceof UpstreamFailure ? 'upstream' : 'bug';
    });
    app.addHook('onResponse', async (request, reply) => {
      if (!request.url.startsWith('/api')) return;
      const status = reply.statusCode;
      const outcome = (request as unknown as Record<symbol, Outcome>)[OUTCOME];
      const level =
        outcome === 'bug' || (status >= 500 && outcome !== 'upstream') ? 'error' : status >= 400 ? 'warn' : 'info';
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
