import fp from 'fastify-plugin';
import { redactUrl } from '../lib/logger.js';
import type { FastifyError } from 'fastify';
import { HttpError, INTERNAL_ERROR } from '../lib/http-error.js';
import { TooManyRequests } from './rate-limit.js';
import { Overloaded } from './load-shedding.js';
import { UpstreamFailure } from '../lib/upstream-failure.js';

const isErrorStatus = (status: unknown): status is number =>
  typeof status === 'number' && status >= 400 && status < 600;

/**
 * The one error handler: JSON bodies with one key, never a stack trace, and
 * one log line per failure. An upstream's failure (UpstreamFailure) is
 * answered with its status and the spec's string, and logged through the
 * failure digest (plugins/failure-log.ts): a warning, or a counted repeat; a
 * client error keeps its status and message; our own 5xx answers (HttpError) keep theirs and are
 * logged as errors; anything else is a bug, answered with a fixed 500 whose
 * text says nothing of it, and logged with its stack.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof TooManyRequests) return reply.code(429).send({ message: error.message });
      if (error instanceof UpstreamFailure) {
        request.logUpstreamFailure(error.logFields, error.logMessage);
        return reply.code(error.statusCode).send({ error: error.message });
      }
      const status = isErrorStatus(error.statusCode) ? error.statusCode : 500;
      if (status < 500) return reply.code(status).send({ error: error.message });
      if (!(error instanceof Overloaded)) {
        request.log.error({ err: error, url: redactUrl(request.url) }, 'request failed');
      }
      return reply.code(status).send({ error: error instanceof HttpError ? error.message : INTERNAL_ERROR });
    });
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not Found' }));
  },
  { name: 'errors', dependencies: ['failure-log'] },
);
