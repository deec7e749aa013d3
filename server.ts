import { ConfigError, loadConfig, type Config } from './fastify.config.js';
import { createLogger } from './lib/logger.js';
import { buildApi } from './app.js';
import { buildWeb } from './web/app.js';
import { keepTickObjectShape } from './lib/tick-shape.js';

let config: Config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

const logger = createLogger(config);
for (const name of ['UPSTREAM_OVERRIDE_ORIGIN', 'DNS_OVERRIDE_SERVER', 'WHOIS_OVERRIDE_SERVER'] as const) {
  if (config[name]) logger.warn({ [name]: config[name] }, `${name} is set: upstream traffic is redirected`);
}

await keepTickObjectShape();
const api = await buildApi({ config, logger });
await api.ready();
await api.lifecycle.boot();
await api.listen({ port: config.BACKEND_PORT, host: config.HOST });
const web = await buildWeb({ logger, frontendDir: config.FRONTEND_DIR, api });
await web.listen({ port: config.FRONTEND_PORT, host: config.HOST });

// Past this, shutdown gives up on stragglers (a client holding a request open)
// and exits non-zero, well inside systemd's default 90 s stop timeout.
const SHUTDOWN_DEADLINE_MS = 15 * 1000;

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'shutting down');
  const deadline = setTimeout(() => {
    logger.error({ ms: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time; exiting');
    logger.flush(() => process.exit(1));
  }, SHUTDOWN_DEADLINE_MS);
  // Front first, so nothing new reaches the API while it drains.
  for (const [listener, server] of [['front', web], ['api', api]] as const) {
    await server.close();
    logger.info({ listener }, 'listener closed');
  }
  clearTimeout(deadline);
  logger.flush(() => process.exit(0));
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(signal));
