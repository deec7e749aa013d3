import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { Config } from './fastify.config.js';
import './lib/fastify-types.js';
import { Lifecycle } from './lib/lifecycle.js';
import { fastifyLoggingTo } from './lib/logger.js';
import { Upstream } from './lib/upstream.js';
import { foldingSerializerFactory } from './lib/response-serializer.js';
import { createListenerServer } from './lib/http-server.js';
import { GUARD_KEYWORD } from './schemas/guards.js';
import globalPlugins from './plugins/index.js';
import routes from './routes/index.js';

const JSON_BODY_LIMIT = 500 * 1024;

export interface ApiOptions {
  config: Config;
  logger: Logger;
  /** Replaces undici's global dispatcher (a MockAgent in unit tests). */
  dispatcher?: Dispatcher;
}

/** The API listener's application: global plugins, then every capability under /api. */
export async function buildApi({ config, logger, dispatcher }: ApiOptions): Promise<FastifyInstance> {
  const app = fastifyLoggingTo(logger, {
    bodyLimit: JSON_BODY_LIMIT,
    serverFactory: createListenerServer,
    ajv: { customOptions: { keywords: [GUARD_KEYWORD] } },
    schemaController: { compilersFactory: { buildSerializer: foldingSerializerFactory } },
  });
  app.decorate('config', config);
  app.decorate(
    'upstream',
    new Upstream({
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      siteUrl: config.SITE_URL,
      overrideOrigin: config.UPSTREAM_OVERRIDE_ORIGIN,
      dispatcher,
      logger,
    }),
  );
  app.decorate('lifecycle', new Lifecycle(logger));
  app.addHook('onClose', async () => app.lifecycle.stop());

  await app.register(globalPlugins);
  await app.register(routes, { prefix: '/api' });
  return app;
}
