import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import fp from 'fastify-plugin';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { clientIp, limiterKey } from '../lib/client-ip.js';
import { fromAppRoot } from '../lib/app-root.js';
import { HttpError } from '../lib/http-error.js';
import { isMonitoringPath } from './monitoring-path.js';
import { LimiterCounters, NamedCounterStore } from '../lib/limiter-counters.js';

const RATE_LIMIT_WINDOW_MS = 20 * 60 * 1000;
const TOO_MANY_REQUESTS = 'Too Many Requests';

/** Thrown by a limiter; the error handler answers it as `{ message }`. */
export class TooManyRequests extends HttpError {
  constructor() {
    super(429, TOO_MANY_REQUESTS);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A per-client limiter hook (limiterKey) for a route with its own limit; `name` keeps its counters apart from every other limiter's. */
    routeLimiter: (name: string, max: number, timeWindowMs: number) => onRequestHookHandler;
  }
}

type OnEntry = (request: FastifyRequest, key: string) => void;

/**
 * The global limiter (SECURITY_RATE_LIMIT requests per client per 20
 * minutes; a client is its limiterKey: an IPv4 address or an IPv6 /64) plus
 * the factory for route limiters. Counters live in Redis when
 * REDIS_URL is set (one limit across every instance), else in process memory.
 * Entering the limited state logs one warning and, with
 * SECURITY_BLACKLIST_LOG_FILE_PATH, appends one ledger line; later rejections
 * in the same window stay quiet.
 */
export default fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      keyGenerator: limiterKey,
      errorResponseBuilder: () => new TooManyRequests(),
      store: NamedCounterStore,
      // The spec asks for no quota headers; leaving them off the normal path
      // saves three header writes per request. A 429 still says when to retry.
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    });

    const limiter = (name: string, max: number, timeWindow: number, onEntry: OnEntry) => {
      const counters = new LimiterCounters(name, app.redisLink, timeWindow);
      const options: RateLimitOptions & { counters: LimiterCounters } = {
        max,
        timeWindow,
        counters,
        onExceeded: (request: FastifyRequest, key: string) => {
          if (counters.entered(key)) onEntry(request, key);
        },
      };
      return app.rateLimit(options);
    };

    app.decorate('routeLimiter', (name: string, max: number, timeWindow: number) =>
      limiter(name, max, timeWindow, (request, key) => {
        app.metrics.limiterEntries.inc({ limiter: name });
        request.log.warn(
          { ip: clientIp(request), key, limiter: name, method: request.method, url: request.url },
          `client entered the ${name} limiter's limited state`,
        );
      }),
    );

    const max = app.config.SECURITY_RATE_LIMIT;
    if (max === 0) return;

    const ledgerPath = app.config.SECURITY_BLACKLIST_LOG_FILE_PATH
      ? fromAppRoot(app.config.SECURITY_BLACKLIST_LOG_FILE_PATH)
      : '';

    // A line still being written when the service stops is waited for, so no entry is lost to a shutdown.
    const writing = new Set<Promise<void>>();
    app.addHook('onClose', async () => {
      await Promise.all(writing);
    });
    const writeLedger = async (request: FastifyRequest, key: string) => {
      const line = `${new Date().toISOString()} ${key} ${request.method} ${request.url.split('?', 1)[0]}\n`;
      try {
        await mkdir(dirname(ledgerPath), { recursive: true });
        await appendFile(ledgerPath, line);
      } catch (err) {
        request.log.error({ err, path: ledgerPath }, 'could not write the rate-limit ledger');
      }
    };

    const global = limiter('api', max, RATE_LIMIT_WINDOW_MS, (request, key) => {
      app.metrics.limiterEntries.inc({ limiter: 'rate' });
      request.log.warn(
        { ip: clientIp(request), key, method: request.method, url: request.url },
        'client entered the rate-limited state',
      );
      if (ledgerPath) {
        const write = writeLedger(request, key).finally(() => writing.delete(write));
        writing.add(write);
      }
    });

    // The plugin's handlers are async functions despite their hook type.
    const limit = global as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    app.lentToFront.globalLimit = limit;
    // Callback style: an async wrapper would add a promise and a microtask to every request.
    app.addHook('onRequest', (request, reply, done) => {
      if (isMonitoringPath(request)) return done();
      limit(request, reply).then(() => done(), done);
    });
  },
  { name: 'rate-limit', dependencies: ['shared-counters'] },
);
