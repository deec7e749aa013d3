import { appendFile, mkdir } from 'node:fs/promises';
import { redactUrl } from './logger.js';
import { dirname } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../fastify.config.js';
import type { AppMetrics } from '../operations/metrics.js';
import { fromAppRoot } from './app-root.js';
import { clientIp } from './client-ip.js';
import { LimiterCounters } from './limiter-counters.js';
import type { RedisLink } from './redis-link.js';

const RATE_LIMIT_WINDOW_MS = 20 * 60 * 1000;

/**
 * The global limiter's one state: SECURITY_RATE_LIMIT requests per client per
 * 20 minutes, counted in Redis when REDIS_URL is set (one limit across every
 * instance), else in this process. Both listeners limit with it (/api and the
 * command-line face), so a client's requests to either count against one
 * budget. Entering the limited state logs one warning and, with
 * SECURITY_BLACKLIST_LOG_FILE_PATH, appends one ledger line; later rejections
 * in the same window stay quiet.
 */
export class GlobalLimiter {
  readonly max: number;
  readonly timeWindow = RATE_LIMIT_WINDOW_MS;
  readonly counters: LimiterCounters;
  private readonly ledgerPath: string;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    config: Config,
    redisLink: RedisLink | undefined,
    private readonly metrics: AppMetrics,
  ) {
    this.max = config.SECURITY_RATE_LIMIT;
    this.counters = new LimiterCounters('api', redisLink, RATE_LIMIT_WINDOW_MS);
    this.ledgerPath = config.SECURITY_BLACKLIST_LOG_FILE_PATH
      ? fromAppRoot(config.SECURITY_BLACKLIST_LOG_FILE_PATH)
      : '';
  }

  /** @fastify/rate-limit's onExceeded: the request that took `key` over the limit is logged, counted and written down. */
  readonly onExceeded = (request: FastifyRequest, key: string): void => {
    if (!this.counters.entered(key)) return;
    this.metrics.limiterEntries.inc({ limiter: 'rate' });
    request.log.warn(
      { ip: clientIp(request), key, method: request.method, url: redactUrl(request.url) },
      'client entered the rate-limited state',
    );
    if (this.ledgerPath) {
      const write = this.writeLedger(request, key).finally(() => this.writing.delete(write));
      this.writing.add(write);
    }
  };

  /** A line still being written when the service stops is waited for, so no entry is lost to a shutdown. */
  async close(): Promise<void> {
    await Promise.all(this.writing);
  }

  private async writeLedger(request: FastifyRequest, key: string): Promise<void> {
    const line = `${new Date().toISOString()} ${key} ${request.method} ${redactUrl(request.url.split('?', 1)[0]!)}\n`;
    try {
      await mkdir(dirname(this.ledgerPath), { recursive: true });
      await appendFile(this.ledgerPath, line);
    } catch (err) {
      request.log.error({ err, path: this.ledgerPath }, 'could not write the rate-limit ledger');
    }
  }
}
