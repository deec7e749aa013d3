import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { TooManyRequests } from './rate-limit.js';
import { Overloaded } from './load-shedding.js';

/**
 * The one error handler: JSON bodies with one key, never a stack trace. A
 * thrown error without a client status is a 500 carrying its message, as the
 * spec asks of upstream failures.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof TooManyRequests) return reply.code(429).send({ message: error.message });
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      if (status >= 500 && !(error instanceof Overloaded)) request.log.error({ err: error, url: request.url }, 'request failed');
      return reply.code(status).send({ error: error.message || 'Internal Server Error' });
    });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not Found' }));
  },
  { name: 'errors' },
);
