import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { clientIp } from '../lib/client-ip.js';
import { fromAppRoot } from '../lib/app-root.js';
import { HttpError } from '../lib/http-error.js';
import { isMonitoringPath } from './monitoring-path.js';

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
    /** A per-client-IP limiter hook, for a route with its own limit. */
    routeLimiter: (max: number, timeWindowMs: number) => onRequestHookHandler;
  }
}

/**
 * The global limiter (SECURITY_RATE_LIMIT requests per client IP per 20
 * minutes) plus the factory for route limiters. Entering the limited state
 * logs one warning and, with SECURITY_BLACKLIST_LOG_FILE_PATH, appends one
 * ledger line; later rejections in the same window stay quiet.
 */
export default fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      keyGenerator: clientIp,
      errorResponseBuilder: () => new TooManyRequests(),
      // The spec asks for no quota headers; leaving them off the normal path
      // saves three header writes per request. A 429 still says when to retry.
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    });

    app.decorate('routeLimiter', (max: number, timeWindow: number) => app.rateLimit({ max, timeWindow }));

    const max = app.config.SECURITY_RATE_LIMIT;
    if (max === 0) return;

    const ledgerPath = app.config.SECURITY_BLACKLIST_LOG_FILE_PATH ? fromAppRoot(app.config.SECURITY_BLACKLIST_LOG_FILE_PATH) : '';
    // Keys currently in the limited state, with the time they entered it.
    const limited = new Map<string, number>();

    const writeLedger = async (request: FastifyRequest, ip: string) => {
      const line = `${new Date().toISOString()} ${ip} ${request.method} ${request.url.split('?', 1)[0]}\n`;
      try {
        await mkdir(dirname(ledgerPath), { recursive: true });
        await appendFile(ledgerPath, line);
      } catch (err) {
        request.log.error({ err, path: ledgerPath }, 'could not write the rate-limit ledger');
      }
    };

    const limiter = app.rateLimit({
      max,
      timeWindow: RATE_LIMIT_WINDOW_MS,
      onExceeding: (_request: FastifyRequest, key: string) => {
        limited.delete(key);
      },
      onExceeded: (request: FastifyRequest, key: string) => {
        if (limited.has(key)) return;
        const now = Date.now();
        for (const [k, since] of limited) if (now - since > RATE_LIMIT_WINDOW_MS) limited.delete(k);
        limited.set(key, now);
        request.log.warn({ ip: key, method: request.method, url: request.url }, 'client entered the rate-limited state');
        if (ledgerPath) void writeLedger(request, key);
      },
    });

    // The plugin's handlers are async functions despite their hook type.
    const limit = limiter as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    // Callback style: an async wrapper would add a promise and a microtask to every request.
    app.addHook('onRequest', (request, reply, done) => {
      if (isMonitoringPath(request)) return done();
      limit(request, reply).then(() => done(), done);
    });
  },
  { name: 'rate-limit', dependencies: [] },
);
