import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './fastify.config.js';
import { createLogger } from './lib/logger.js';
import { buildApi } from './app.js';
import { buildWeb } from './web/app.js';

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

const api = await buildApi({ config, logger });
await api.ready();
await api.lifecycle.boot();
await api.listen({ port: config.BACKEND_PORT, host: config.HOST });
const apiAddress = api.server.address();
const apiPort = typeof apiAddress === 'object' && apiAddress ? apiAddress.port : config.BACKEND_PORT;
const apiHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
const web = await buildWeb({
  logger,
  frontendDir: config.FRONTEND_DIR,
  apiOrigin: `http://${apiHost.includes(':') ? `[${apiHost}]` : apiHost}:${apiPort}`,
});
await web.listen({ port: config.FRONTEND_PORT, host: config.HOST });

let closing = false;
async function shutdown(signal: string, servers: FastifyInstance[]): Promise<void> {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'shutting down');
  // Front first, so nothing new reaches the API while it drains.
  for (const server of servers) await server.close();
  logger.flush();
  process.exit(0);
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(signal, [web, api]));
