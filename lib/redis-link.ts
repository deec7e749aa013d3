import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { CommandBatch } from './redis-batch.js';
import { isOutOfMemory, redisUrlForLogs, TIMED_OUT } from './redis-replies.js';

// A limiter asks Redis on every request, so a hung Redis must never hold a
// request for long: past this, the command fails and the request is counted
// in process memory instead. A Redis next to the service answers in well
// under a millisecond; 250 ms leaves room for a busy machine's event-loop lag
// while keeping the few requests caught by a hang under a quarter second.
const COMMAND_TIMEOUT_MS = 250;
// While Redis holds the connection open without answering, one PING asks
// again this often; every request meanwhile counts in memory without waiting.
const PROBE_EVERY_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;
const RECONNECT_MAX_MS = 2000;

/** What a link is used for, as its log lines name it, and the setting that points it elsewhere. */
export interface LinkUse {
  name: string;
  setting: 'REDIS_URL' | 'REPORT_REDIS_URL';
  /** What runs degraded while the link cannot be used. */
  degraded: string;
  /** What works again once it can. */
  restored: string;
}

export const LIMITS_LINK: LinkUse = {
  name: 'Redis',
  setting: 'REDIS_URL',
  degraded: 'rate limits count in this process only',
  restored: 'rate limits are shared across instances again',
};

export const REPORTS_LINK: LinkUse = {
  name: 'Redis for shared reports',
  setting: 'REPORT_REDIS_URL',
  degraded: 'report sharing is off',
  restored: 'report sharing is on again',
};

/**
 * A connection to a Redis (or Valkey) server shared with the other
 * instances, the limiters' (REDIS_URL) or the reports' (REPORT_REDIS_URL,
 * `use` names it in the log lines), and whether it can be used right now. Commands are never
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
  /** Why the link is out of use, from its first failure until a command is answered: logged once each time. */
  private down: 'unreachable' | 'full' | undefined;
  /** A command timed out on an open connection: nothing but the probe's PING goes out until one is answered. */
  private stalled = false;
  private probeTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly url: string,
    private readonly logger: FastifyBaseLogger,
    readonly use: LinkUse = LIMITS_LINK,
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
    const { name, restored } = this.use;
    const again = this.down === 'full' ? `${name} has room again` : `${name} is reachable again`;
    this.down = undefined;
    this.logger.info({ redis: redisUrlForLogs(this.url) }, `${again}: ${restored}`);
  }

  /**
   * A command or the connection failed: the first failure of an outage is
   * logged. A write refused for lack of memory (a full Redis whose policy is
   * noeviction) is an outage of its own kind: the connection is fine, so
   * commands keep going out and the first one Redis takes again ends it.
   */
  failed(err: Error): void {
    if (err.message === TIMED_OUT && !this.stalled) {
      this.stalled = true;
      this.probe();
    }
    if (this.down) return;
    const { name, degraded, setting } = this.use;
    this.down = isOutOfMemory(err) ? 'full' : 'unreachable';
    this.logger.warn(
      { redis: redisUrlForLogs(this.url), reason: err.message },
      this.down === 'full'
        ? `${name} is full (used memory over maxmemory, nothing evicted): ${degraded} until it has room; ` +
            `raise its maxmemory (${setting}, docs/scale-out.md)`
        : `${name} is unreachable: ${degraded} until it is back (${setting})`,
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
