import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config } from './fastify.config.js';
import { createLogger } from './lib/logger.js';
import { secretValues } from './lib/secrets.js';
import { composeShared } from './composition.js';
import { buildApi } from './app.js';
import { buildWeb } from './web/app.js';
import { keepTickObjectShape } from './lib/tick-shape.js';
import { fixHeapGrowth } from './lib/heap-growth.js';
import type { Listener } from './operations/readiness.js';

fixHeapGrowth();

// Signals are handled from the first moment: a SIGTERM during start-up (a
// dataset download can take minutes) stops the process cleanly instead of
// killing it with temporary files left behind. Until there is something to
// tidy, stopping is just exiting.
let onSignal: (signal: NodeJS.Signals) => void = () => process.exit(0);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, (s) => onSignal(s));

// Settings may come from a .env file in the working directory, read with
// Node's own loader; a variable already in the environment keeps its value.
// Its presence is tested apart, as the loader reports a file it cannot open
// as missing.
const ENV_FILE = '.env';
const envFileRead = existsSync(ENV_FILE);
if (envFileRead) {
  try {
    process.loadEnvFile(ENV_FILE);
  } catch (err) {
    process.stderr.write(`Cannot read the settings file ${ENV_FILE}: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

let config: Config;
try {
  config = loadConfig(process.env);
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

const logger = createLogger(config, undefined, secretValues(config));
if (envFileRead) {
  logger.info({ file: ENV_FILE }, `settings read from ${ENV_FILE} (the environment wins where both set one)`);
}
for (const name of ['UPSTREAM_OVERRIDE_ORIGIN', 'DNS_OVERRIDE_SERVER', 'WHOIS_OVERRIDE_SERVER'] as const) {
  if (config[name]) logger.warn({ [name]: config[name] }, `${name} is set: upstream traffic is redirected`);
}

// Which listener is which. The first address printed is the one to open: the
// front listener's, named localhost on loopback, since the Referer gate lets
// pages from localhost call the API and refuses pages from 127.0.0.1. So is a
// listener on every address (HOST=::, which Fastify prints as http://[::]:port,
// an address no browser opens; HOST=0.0.0.0 it prints per interface, loopback
// first). The API listener answers scripts and the front listener, not a
// browser, so its address is written host:port, not as a link to click.
const LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|\[::1?\]|0\.0\.0\.0):(\d+)$/;
const LISTENING_TEXT: Record<Listener, (address: string) => string> = {
  api: (address) =>
    `API listener on ${address.replace(/^http:\/\//, '')} (the JSON API under /api; health at /healthz and /readyz)`,
  front: (address) => {
    const port = LOOPBACK.exec(address)?.[2];
    const site = port ? `http://localhost:${port}/` : address;
    return `front listener at ${site} (the site, and /api handed to the API)${port ? `: open it in a browser` : ''}`;
  },
};

/**
 * Listens, or logs why it cannot (a port in use, a port below 1024 without the
 * right, a HOST this machine does not have) and exits 1: an operator's error,
 * answered with one log line rather than a crash. Start-up goes no further.
 */
async function listen(server: FastifyInstance, listener: Listener, port: number): Promise<void> {
  try {
    await server.listen({ port, host: config.HOST, listenTextResolver: LISTENING_TEXT[listener] });
  } catch (err) {
    // An operator's error, not the service's: the reason in one line, no stack.
    const reason = (err as Error).message;
    logger.fatal(
      { listener, host: config.HOST, port, reason },
      `the ${listener} listener cannot listen on ${config.HOST}:${port}`,
    );
    logger.flush(() => process.exit(1));
    await new Promise<never>(() => {});
  }
}

// Past this, counted from the end of the drain, shutdown gives up on
// stragglers (a client holding a request open) and exits non-zero: with the
// default drain, 20 s in all, inside Kubernetes' default 30 s grace period and
// systemd's 90 s stop timeout.
const SHUTDOWN_DEADLINE_MS = 15 * 1000;
const IDLE_SWEEP_MS = 200;

let closing = false;
// Assigned once the front listener is built; shutdown() may run before that.
// eslint-disable-next-line prefer-const
let web: FastifyInstance | undefined;
let booting: Promise<void> = Promise.resolve();
/**
 * Front first, so nothing new reaches the API while it drains; then the
 * shared pieces both listeners used, whose stop callbacks also abandon a
 * start-up download in progress.
 */
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (closing) return;
  closing = true;
  await drain(signal);
  logger.info({ signal }, 'shutting down');
  const deadline = setTimeout(() => {
    logger.error({ ms: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time; exiting');
    logger.flush(() => process.exit(1));
  }, SHUTDOWN_DEADLINE_MS);
  // A keep-alive connection whose request was in flight when closing began
  // turns idle afterwards, and Node would hold it for the whole keep-alive
  // timeout: idle connections are closed as they appear.
  const sweep = setInterval(() => {
    for (const server of [web, api]) server?.server.closeIdleConnections();
  }, IDLE_SWEEP_MS);
  for (const [listener, server] of [
    ['front', web],
    ['api', api],
  ] as const) {
    if (!server) continue;
    await server.close();
    logger.info({ listener }, 'listener closed');
  }
  clearInterval(sweep);
  // Stopping also abandons a start-up download in progress (its temporary files are removed as it gives up).
  await shared.close();
  // Start-up steps give up once stopping; their clean-up must finish before the exit.
  await booting;
  clearTimeout(deadline);
  logger.flush(() => process.exit(0));
}

/**
 * A SIGTERM is how an orchestrator or a rolling update stops an instance, and
 * the load balancer in front learns of it only through the next readiness
 * probe: /readyz answers 503 at once while both listeners keep serving for
 * SHUTDOWN_DRAIN_MS, so nothing is sent to a closed port. Answers in the
 * meantime close their connection, so keep-alive clients reconnect to another
 * instance. Only a serving process drains; Ctrl-C (SIGINT) never waits.
 */
async function drain(signal: NodeJS.Signals): Promise<void> {
  const ms = config.SHUTDOWN_DRAIN_MS;
  if (signal !== 'SIGTERM' || ms === 0 || !shared.readiness.ready) return;
  shared.readiness.draining();
  for (const server of [web, api]) server?.server.prependListener('request', closeAfterAnswer);
  logger.info({ signal, ms }, `draining: /readyz answers 503 and the listeners close in ${ms} ms (SHUTDOWN_DRAIN_MS)`);
  await new Promise((resolve) => setTimeout(resolve, ms));
}

function closeAfterAnswer(_request: IncomingMessage, response: ServerResponse): void {
  response.setHeader('connection', 'close');
}

await keepTickObjectShape();
const shared = await composeShared({ config, logger });
const api = await buildApi({ shared });
onSignal = (signal) => void shutdown(signal);
await api.ready();
await listen(api, 'api', config.BACKEND_PORT);
shared.readiness.listening('api');
web = await buildWeb({ shared, frontendDir: config.FRONTEND_DIR, api });
// A signal during start-up: shutdown() has the process; nothing more starts.
if (closing) await new Promise<never>(() => {});
await listen(web, 'front', config.FRONTEND_PORT);
// The steps (dataset loads, the status pages' first poll) run in their order
// once both listeners are open, so nothing slow holds them back; boot() names
// every step as loading before it returns, so /readyz says not ready until
// the last one is over.
booting = shared.lifecycle.boot();
shared.readiness.listening('front');
