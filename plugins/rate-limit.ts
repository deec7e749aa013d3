import fp from 'fastify-plugin';
import { redactUrl } from '../lib/logger.js';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { clientIp, limiterKey } from '../lib/client-ip.js';
import type { GlobalLimiter } from '../lib/global-limiter.js';
import { HttpError } from '../lib/http-error.js';
import { isMonitoringPath } from './monitoring-path.js';
import { LimiterCounters, NamedCounterStore } from '../lib/limiter-counters.js';

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

/** The global limiter as a call: resolves when the request may go on, rejects with TooManyRequests past the limit. */
export type LimitCheck = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * @fastify/rate-limit as every limiter of the service uses it: a client is
 * its limiterKey (an IPv4 address or an IPv6 /64), each limiter brings its
 * own counters, and past the limit the answer is the spec's 429.
 */
export const limiterLibrary = fp(
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
  },
  { name: 'limiter-library' },
);

/** The global limiter's check in `app`'s context, which has limiterLibrary registered; its counts are the one limiter's. */
export function globalLimitCheck(app: FastifyInstance, limiter: GlobalLimiter): LimitCheck {
  const options: RateLimitOptions & { counters: LimiterCounters } = {
    max: limiter.max,
    timeWindow: limiter.timeWindow,
    counters: limiter.counters,
    onExceeded: limiter.onExceeded,
  };
  // The plugin's handlers are async functions despite their hook type.
  return app.rateLimit(options) as unknown as LimitCheck;
}

export interface RateLimitPluginOptions {
  /** The process's global limiter (composition.ts); absent while SECURITY_RATE_LIMIT is 0 (no limit). */
  globalLimiter: GlobalLimiter | undefined;
}

/**
 * The global limiter on every /api request but the monitoring tunnel's, plus
 * the factory for route limiters. Counters live in Redis when REDIS_URL is
 * set (one limit across every instance), else in process memory.
 */
export default fp<RateLimitPluginOptions>(
  async (app, { globalLimiter }) => {
    await app.register(limiterLibrary);

    app.decorate('routeLimiter', (name: string, max: number, timeWindow: number) => {
      const counters = new LimiterCounters(name, app.redisLink, timeWindow);
      const options: RateLimitOptions & { counters: LimiterCounters } = {
        max,
        timeWindow,
        counters,
        onExceeded: (request: FastifyRequest, key: string) => {
          if (!counters.entered(key)) return;
          app.metrics.limiterEntries.inc({ limiter: name });
          request.log.warn(
            { ip: clientIp(request), key, limiter: name, method: request.method, url: redactUrl(request.url) },
            `client entered the ${name} limiter's limited state`,
          );
        },
      };
      return app.rateLimit(options);
    });

    if (!globalLimiter) return;
    const limit = globalLimitCheck(app, globalLimiter);
    // Callback style: an async wrapper would add a promise and a microtask to every request.
    app.addHook('onRequest', (request, reply, done) => {
      if (isMonitoringPath(request)) return done();
      limit(request, reply).then(() => done(), done);
    });
  },
  { name: 'rate-limit' },
);
