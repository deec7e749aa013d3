import fp from 'fastify-plugin';
import slowDown from 'fastify-slow-down';
import { limiterKey } from '../lib/client-ip.js';
import { isMonitoringPath } from './monitoring-path.js';
import { slowDownCounters } from '../lib/slow-down-counters.js';

const SLOW_DOWN_WINDOW_MS = 60 * 60 * 1000;
const SLOW_DOWN_STEP_MS = 400;
// A cap keeps one abusive client from pinning sockets open for minutes; at
// 10 s a client gets at most six requests a minute through, which is the point.
export const SLOW_DOWN_MAX_DELAY_MS = 10 * 1000;

/**
 * After SECURITY_DELAY_AFTER requests per client (limiterKey) in 60 minutes, each further
 * one waits (hits over the threshold) × 400 ms. Counted in Redis when REDIS_URL
 * is set (one count across every instance), else in process memory.
 */
export default fp(
  async (app) => {
    const delayAfter = app.config.SECURITY_DELAY_AFTER;
    if (delayAfter === 0) return;
    await app.register(slowDown, {
      delayAfter,
      delay: SLOW_DOWN_STEP_MS,
      maxDelay: SLOW_DOWN_MAX_DELAY_MS,
      timeWindow: SLOW_DOWN_WINDOW_MS,
      keyGenerator: limiterKey,
      skip: isMonitoringPath,
      // Like the rate limiter, no quota headers: they would tell every client
      // the threshold and its count, and cost two header writes per request.
      headers: false,
      redis: app.redisLink && slowDownCounters(app.redisLink, SLOW_DOWN_WINDOW_MS),
      onLimitReached: () => app.metrics.limiterEntries.inc({ limiter: 'slow-down' }),
    });
  },
  { name: 'slow-down' },
);
