import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { FailureDigest } from '../lib/failure-digest.js';
import type { LogFields } from '../lib/upstream-failure.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** For a lookup shared by many requests and outliving them (the AS organisation names): its own route name. */
    failuresOf(route: string): FailureLog;
  }
  interface FastifyRequest {
    /**
     * Logs an upstream's failure met while answering this request: the one way
     * a route or the error handler reports one (see lib/failure-digest.ts).
     */
    logUpstreamFailure(fields: LogFields, msg: string): void;
  }
}

/** What a route's helpers need to report an upstream's failure: the request itself will do. */
export type FailureLog = Pick<FastifyRequest, 'logUpstreamFailure'>;

/**
 * Request-time upstream failures as an operator can read them during an
 * outage: the first of a kind at once, its repeats summed up once a minute
 * (lib/failure-digest.ts). The summaries still counted are written at shutdown.
 */
export default fp(
  async (app) => {
    const digest = new FailureDigest(app.log);
    app.lifecycle.onStop('upstream failure summaries', () => digest.stop());
    app.decorateRequest('logUpstreamFailure', function (this: FastifyRequest, fields: LogFields, msg: string) {
      digest.report(this.log, this.routeOptions.url ?? this.url, fields, msg);
    });
    app.decorate('failuresOf', (route: string): FailureLog => ({
      logUpstreamFailure: (fields: LogFields, msg: string) => digest.report(app.log, route, fields, msg),
    }));
  },
  { name: 'failure-log' },
);
