import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import health from './health.js';
import type { AppMetrics, Metrics } from './metrics.js';
import { isCounting } from './no-metrics.js';
import type { Listener, Readiness } from './readiness.js';

export interface OperationsOptions {
  listener: Listener;
  readiness: Readiness;
  /** The process's metrics; the no-op stand-in when METRICS is off. */
  metrics: AppMetrics;
}

/**
 * What a listener answers for its operator rather than for the site: the
 * health routes on both listeners (the datasets' details on the API listener
 * only), and with METRICS=true the request metrics of every route and, on the
 * API listener only, GET /metrics. Registered on a listener's root before
 * anything else, so its hook sees every route and no /api hook sees its routes.
 */
export default fp<OperationsOptions>(
  async (app, { listener, readiness, metrics }) => {
    await app.register(health, { listener, readiness });
    if (isCounting(metrics)) countRequests(app, listener, metrics);
    if (listener === 'api' && isCounting(metrics)) {
      app.get(
        '/metrics',
        { schema: { summary: 'Prometheus metrics (METRICS=true)', produces: ['text/plain'] } },
        async (_request, reply) =>
          reply
            .type(metrics.contentType)
            .header('cache-control', 'no-store')
            .send(await metrics.text()),
      );
    }
    if (listener === 'front') {
      // Never the metrics, and not the single-page app's page either, which a navigation path would get.
      app.get('/metrics', { schema: { hide: true } }, (_request, reply) =>
        reply.code(404).header('cache-control', 'no-store').type('text/plain').send('Not Found'),
      );
    }
  },
  { name: 'operations' },
);

function countRequests(app: FastifyInstance, listener: Listener, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(listener, request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime);
    done();
  });
}
