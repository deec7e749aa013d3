import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import './lib/fastify-types.js';
import { fastifyLoggingTo } from './lib/logger.js';
import { foldingSerializerFactory } from './lib/response-serializer.js';
import { validatorsOnUse } from './lib/validator-on-use.js';
import { createListenerServer } from './lib/http-server.js';
import { GUARD_KEYWORD } from './schemas/guarded.js';
import globalPlugins from './plugins/index.js';
import capabilities, { CAPABILITIES } from './routes/index.js';
import operations from './operations/index.js';
import openapi from './openapi/index.js';
import type { Shared } from './composition.js';

const JSON_BODY_LIMIT = 500 * 1024;

export interface ApiOptions {
  /** The process's shared pieces (composition.ts); their owner closes them, not this app. */
  shared: Shared;
  /** The routes under /api: every capability, unless a test adds routes of its own beside them. */
  routes?: FastifyPluginAsync;
}

/**
 * The API listener's application: the operator's routes (health, metrics) at
 * its root, and beside them the /api chain, global plugins then every
 * capability, in a context of its own so none of its hooks reaches the
 * operator's routes. The shared pieces the capabilities use are decorated on
 * its root, as handed over.
 */
export async function buildApi({ shared, routes = capabilities }: ApiOptions): Promise<FastifyInstance> {
  const { logger } = shared;
  const app = fastifyLoggingTo(logger, {
    bodyLimit: JSON_BODY_LIMIT,
    serverFactory: (handler) => createListenerServer(handler, { listener: 'api', logger }),
    ajv: { customOptions: { keywords: [GUARD_KEYWORD] } },
    schemaController: {
      compilersFactory: { buildValidator: validatorsOnUse(), buildSerializer: foldingSerializerFactory },
    },
  });
  app.decorate('config', shared.config);
  app.decorate('readiness', shared.readiness);
  app.decorate('metrics', shared.metrics);
  app.decorate('upstream', shared.upstream);
  app.decorate('signInTokens', shared.signInTokens);
  app.decorate('lifecycle', shared.lifecycle);
  app.decorate('redisLink', shared.redisLink);
  app.decorate('geoDatabases', shared.geoDatabases);
  app.decorate('reportStore', shared.reportStore);
  app.decorate('watches', shared.watches);

  await app.register(openapi, { examples: CAPABILITIES.flatMap((capability) => capability.examples) });
  await app.register(operations, { listener: 'api', readiness: shared.readiness, metrics: shared.metrics });
  await app.register(async (api) => {
    await api.register(globalPlugins, { globalLimiter: shared.globalLimiter });
    await api.register(routes, { prefix: '/api' });
  });
  return app;
}
