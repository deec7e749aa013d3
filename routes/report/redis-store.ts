import { UpstreamFailure } from '../../lib/upstream-failure.js';
import type { RedisLink } from '../../lib/redis-link.js';
import { isOutOfMemory } from '../../lib/redis-replies.js';
import { isExpired, parseStored, StoreError, type ReportStore, type StoredReport } from './store.js';

/** Where a report lives in Redis, beside the limiters' `netdiag:limit:…` keys when both share one. */
export const reportKey = (id: string): string => `netdiag:report:${id}`;

/** The answer, with 507, when a full Redis refused to store a report. */
const STORE_FULL = 'Report store is full';

/**
 * A Redis over its maxmemory with the noeviction policy refuses writes and
 * keeps what it holds: the visitor is told the store is full (507, the
 * storage status, not a 500 of ours), and the operator what to do, once per
 * minute at most (plugins/failure-log.ts).
 */
class StoreFull extends UpstreamFailure {
  constructor(cause: Error) {
    super(
      { status: 507, error: STORE_FULL },
      'the Redis for shared reports is full: new reports are refused until stored ones expire; raise its ' +
        'maxmemory (REPORT_REDIS_URL, docs/scale-out.md)',
      { reason: cause.message },
    );
  }
}

/**
 * Reports in Redis (REPORT_STORE=redis): REPORT_REDIS_URL's, or, without it,
 * the limiters' over their connection. Each key is written with its expiry in
 * the one command, so Redis removes it on its own. While the link is down or
 * stalled nothing is sent (the link logs the outage once) and sharing reads
 * as off.
 */
export class RedisReportStore implements ReportStore {
  constructor(private readonly link: RedisLink) {}

  get ready(): boolean {
    return this.link.usable;
  }

  get readable(): boolean {
    return this.link.usable;
  }

  async put(id: string, stored: StoredReport, ttlSeconds: number): Promise<void> {
    try {
      await this.link.client.set(reportKey(id), JSON.stringify(stored), 'EX', ttlSeconds);
    } catch (err) {
      throw isOutOfMemory(err as Error) ? new StoreFull(err as Error) : new StoreError(err);
    }
  }

  async get(id: string, now: number = Date.now()): Promise<StoredReport | undefined> {
    let text: string | null;
    try {
      text = await this.link.client.get(reportKey(id));
    } catch (err) {
      throw new StoreError(err);
    }
    if (text === null) return undefined;
    const stored = parseStored(text);
    // Redis drops the key at its TTL; the stored expiry is the promise made to the sharer, to the millisecond.
    return isExpired(stored, now) ? undefined : stored;
  }

  async delete(id: string): Promise<void> {
    try {
      await this.link.client.del(reportKey(id));
    } catch (err) {
      throw new StoreError(err);
    }
  }
}
