import type { Server } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyHttpOptions, type FastifyInstance } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../fastify.config.js';
import { lazyRequestLoggers } from './request-logger.js';
import { SecretScrubber } from './secrets.js';
import { expectedFailure } from './upstream-failure.js';

// Header values and query keys that carry credentials; they never reach a log line.
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'cookie',
];

/**
 * An error as a log line shows it. A failure the service expects (no network,
 * an upstream that refuses, times out or answers badly) is one line: its kind,
 * its message, its reason where the message does not say it, and its code; its stack would only say where our code noticed it,
 * in ten lines an operator must scroll past. Anything else keeps its stack.
 */
function serializeError(err: unknown): unknown {
  const reason = expectedFailure(err);
  if (reason === undefined || !(err instanceof Error)) return pino.stdSerializers.err(err as Error);
  // A system error's code (ECONNREFUSED); a DOMException's legacy number says nothing more than its name.
  const code = (err as { code?: unknown }).code;
  // The reason says what the message may not: "timed out" for an abort, a wrapped cause's own words.
  return {
    type: err.name,
    message: err.message,
    ...(reason !== err.message ? { reason } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/**
 * The service's one logger. `secrets` (see lib/secrets.ts) are replaced in
 * every line as it is written, whatever carried them there: an upstream's
 * error text, an error's stack, a URL.
 */
export function createLogger(
  config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>,
  destination?: DestinationStream,
  secrets: readonly string[] = [],
): Logger {
  const scrubber = new SecretScrubber(secrets);
  const options = {
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    ...(scrubber.empty ? {} : { hooks: { streamWrite: (line: string) => scrubber.scrub(line) } }),
  };
  if (destination) return pino(options, destination);
  if (config.LOG_FORMAT === 'json') return pino(options, pino.destination({ fd: 1, sync: false }));
  // One line per entry, context keys at its end; an error's stack still gets its own lines.
  return pino({
    ...options,
    transport: { target: 'pino-pretty', options: { destination: 1, translateTime: 'SYS:standard', singleLine: true } },
  });
}

const SECRET_PARAMS = /([?&](?:key|token|apiKey|api_key|license_key)=)[^&#]*/gi;
// An address watch's token is its only key (routes/watch), and it travels in the path.
const WATCH_TOKEN_PATH = /(\/watch\/)[A-Za-z0-9_-]+/g;

/** A URL with its credential query parameters (and an address watch's token) masked, for log lines. */
export function redactUrl(url: string): string {
  return url
    .replace(SECRET_PARAMS, '$1[redacted]')
    .replace(WATCH_TOKEN_PATH, '$1[redacted]')
    .replace(/\/\/[^/@\s]+@/, '//[redacted]@');
}

/**
 * A listener's Fastify instance, logging through `logger` and leaving request
 * lines to plugins/request-log.ts. Fastify gets no logger instance: with one,
 * it hangs 'finish' and 'error' listeners on every response for the
 * request-completed line that is turned off here anyway, 3–5 µs of a cheap
 * route's CPU. Each request's logger comes from childLoggerFactory, and
 * `logger` becomes the instance's `log`, and so every plugin's.
 */
export function fastifyLoggingTo(logger: Logger, options: FastifyHttpOptions<Server>): FastifyInstance {
  const app = Fastify({
    ...options,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLoggers(logger as FastifyBaseLogger),
  });
  app.log = logger as FastifyBaseLogger;
  return app;
}
