import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { Config } from './fastify.config.js';
import './lib/fastify-types.js';
import { Lifecycle } from './lib/lifecycle.js';
import { fastifyLoggingTo } from './lib/logger.js';
import { Upstream } from './lib/upstream.js';
import { SignInTokens } from './lib/sign-in-tokens.js';
import { foldingSerializerFactory } from './lib/response-serializer.js';
import { createListenerServer } from './lib/http-server.js';
import { GUARD_KEYWORD } from './schemas/guarded.js';
import globalPlugins from './plugins/index.js';
import capabilities, { CAPABILITIES } from './routes/index.js';
import operations from './operations/index.js';
import openapi from './openapi/index.js';
import { Readiness } from './operations/readiness.js';
import { NO_METRICS } from './operations/no-metrics.js';
import { LentToFront } from './lib/lent-to-front.js';

const JSON_BODY_LIMIT = 500 * 1024;

export interface ApiOptions {
  config: Config;
  logger: Logger;
  /** Replaces undici's global dispatcher (a MockAgent in unit tests). */
  dispatcher?: Dispatcher;
  /** The routes under /api: every capability, unless a test adds routes of its own beside them. */
  routes?: FastifyPluginAsync;
}

/**
 * The API listener's application: the operator's routes (health, metrics) at
 * its root, and beside them the /api chain, global plugins then every
 * capability, in a context of its own so none of its hooks reaches the
 * operator's routes.
 */
export async function buildApi({
  config,
  logger,
  dispatcher,
  routes = capabilities,
}: ApiOptions): Promise<FastifyInstance> {
  const app = fastifyLoggingTo(logger, {
    bodyLimit: JSON_BODY_LIMIT,
    serverFactory: (handler) => createListenerServer(handler, { listener: 'api', logger }),
    ajv: { customOptions: { keywords: [GUARD_KEYWORD] } },
    schemaController: { compilersFactory: { buildSerializer: foldingSerializerFactory } },
  });
  const readiness = new Readiness();
  // prom-client is loaded only when METRICS is on.
  const metrics = config.METRICS ? new (await import('./operations/metrics.js')).Metrics(readiness) : undefined;
  app.decorate('config', config);
  app.decorate('readiness', readiness);
  app.decorate('metrics', metrics ?? NO_METRICS);
  app.decorate(
    'upstream',
    new Upstream({
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      siteUrl: config.SITE_URL,
      overrideOrigin: config.UPSTREAM_OVERRIDE_ORIGIN,
      dispatcher,
      dnsServer: config.DNS_OVERRIDE_SERVER,
      logger,
      observe: metrics?.observeUpstream,
      failureMemoryMs: config.UPSTREAM_FAILURE_MEMORY_MS,
    }),
  );
  app.decorate(
    'signInTokens',
    new SignInTokens({
      issuer: config.OIDC_ISSUER,
      audience: config.OIDC_CLIENT_ID,
      // The issuer is reached where OIDC_ISSUER says, never through UPSTREAM_OVERRIDE_ORIGIN: the
      // browser signs in there, and the tokens name it; a test or the demo runs a real provider.
      upstream: new Upstream({
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        siteUrl: config.SITE_URL,
        overrideOrigin: '',
        dispatcher,
        logger,
        observe: metrics?.observeUpstream,
        failureMemoryMs: config.UPSTREAM_FAILURE_MEMORY_MS,
      }),
    }),
  );
  app.decorate('lifecycle', new Lifecycle(logger));
  readiness.addStartUp(() => app.lifecycle.loading);
  app.decorate('lentToFront', new LentToFront());
  app.addHook('onClose', async () => app.lifecycle.stop());
  app.addHook('onClose', async () => app.upstream.close());

  await app.register(openapi, { examples: CAPABILITIES.flatMap((capability) => capability.examples) });
  await app.register(operations, { listener: 'api', readiness, metrics: app.metrics });
  await app.register(async (api) => {
    await api.register(globalPlugins);
    await api.register(routes, { prefix: '/api' });
  });
  return app;
}
