import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { CommandBatch } from './redis-batch.js';

// A limiter asks Redis on every request, so a hung Redis must never hold a
// request for long: past this, the command fails and the request is counted
// in process memory instead. Long enough that a merely busy machine does not
// count as an outage.
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;
const RECONNECT_MAX_MS = 2000;

/** `redis://user:secret@host:6379/0` without its password, for log lines. */
export function redisUrlForLogs(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = 'redacted';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}

/**
 * The connection to the Redis (or Valkey) server the limiters share with the
 * other instances, and whether it can be used right now. Commands are never
 * queued while the connection is down: a limiter then counts in this
 * process's memory, so an outage costs the sharing, never a request. One
 * warning per outage and one line when it is over.
 */
export class RedisLink {
  readonly client: Redis;
  /** Where the limiters send their commands: one pipeline per event-loop turn. */
  readonly batch: CommandBatch;
  private down = false;

  constructor(
    private readonly url: string,
    private readonly logger: FastifyBaseLogger,
  ) {
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 200, RECONNECT_MAX_MS),
    });
    this.batch = new CommandBatch(this.client);
    this.client.on('error', (err: Error) => this.failed(err));
    this.client.on('ready', () => this.answered());
  }

  /** Whether a command sent now has a connection to go over. */
  get usable(): boolean {
    return this.client.status === 'ready';
  }

  /**
   * A command was answered: an outage (a lost connection, or a command timed
   * out on a slow link while the connection stayed up) is over, and logged so.
   */
  answered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info(
      { redis: redisUrlForLogs(this.url) },
      'Redis is reachable again: rate limits are shared across instances again',
    );
  }

  /** A command or the connection failed: the first failure of an outage is logged. */
  failed(err: Error): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn(
      { redis: redisUrlForLogs(this.url), reason: err.message },
      'Redis is unreachable: rate limits count in this process only until it is back (REDIS_URL)',
    );
  }

  async close(): Promise<void> {
    this.client.removeAllListeners('error');
    this.client.on('error', () => {});
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
