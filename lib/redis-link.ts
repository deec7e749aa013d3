import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { CommandBatch } from './redis-batch.js';

// A limiter asks Redis on every request, so a hung Redis must never hold a
// request for long: past this, the command fails and the request is counted
// in process memory instead. A Redis next to the service answers in well
// under a millisecond; 250 ms leaves room for a busy machine's event-loop lag
// while keeping the few requests caught by a hang under a quarter second.
const COMMAND_TIMEOUT_MS = 250;
// While Redis holds the connection open without answering, one PING asks
// again this often; every request meanwhile counts in memory without waiting.
const PROBE_EVERY_MS = 1000;
// ioredis's error for a command that outlived commandTimeout.
const TIMED_OUT = 'Command timed out';
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
 * process's memory, so an outage costs the sharing, never a request. A Redis
 * that keeps the connection open but stops answering is an outage too: after
 * the first command times out, commands stop going out until a PING is
 * answered again. One warning per outage and one line when it is over.
 */
export class RedisLink {
  readonly client: Redis;
  /** Where the limiters send their commands: one pipeline per event-loop turn. */
  readonly batch: CommandBatch;
  private down = false;
  /** A command timed out on an open connection: nothing but the probe's PING goes out until one is answered. */
  private stalled = false;
  private probeTimer: NodeJS.Timeout | undefined;

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

  /** Whether a command sent now has a connection to go over and an answer to expect. */
  get usable(): boolean {
    return this.client.status === 'ready' && !this.stalled;
  }

  /**
   * A command was answered: an outage (a lost connection, or a command timed
   * out on a slow link while the connection stayed up) is over, and logged so.
   */
  answered(): void {
    this.stalled = false;
    if (!this.down) return;
    this.down = false;
    this.logger.info(
      { redis: redisUrlForLogs(this.url) },
      'Redis is reachable again: rate limits are shared across instances again',
    );
  }

  /** A command or the connection failed: the first failure of an outage is logged. */
  failed(err: Error): void {
    if (err.message === TIMED_OUT && !this.stalled) {
      this.stalled = true;
      this.probe();
    }
    if (this.down) return;
    this.down = true;
    this.logger.warn(
      { redis: redisUrlForLogs(this.url), reason: err.message },
      'Redis is unreachable: rate limits count in this process only until it is back (REDIS_URL)',
    );
  }

  /** Asks Redis whether it answers again, until it does (or a new connection is ready). */
  private readonly probe = (): void => {
    // One probe loop at a time: a new stall while a retry is pending replaces that retry.
    clearTimeout(this.probeTimer);
    this.client.ping().then(
      () => this.answered(),
      () => {
        if (this.stalled) this.probeTimer = setTimeout(this.probe, PROBE_EVERY_MS).unref();
      },
    );
  };

  async close(): Promise<void> {
    clearTimeout(this.probeTimer);
    this.stalled = false;
    this.client.removeAllListeners('error');
    this.client.on('error', () => {});
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
