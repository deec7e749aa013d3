import type { RedisLink } from '../../lib/redis-link.js';
import { isExpired, parseStored, StoreError, type ReportStore, type StoredReport } from './store.js';

/** Where a report lives in Redis, beside the limiters' `netdiag:limit:…` keys. */
export const reportKey = (id: string): string => `netdiag:report:${id}`;

/**
 * Reports in the Redis the limiters share (REPORT_STORE=redis, REDIS_URL),
 * over the same connection: each key is written with its expiry in the one
 * command, so Redis removes it on its own. While the link is down or stalled
 * nothing is sent (the link logs the outage once) and sharing reads as off.
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
      throw new StoreError(err);
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
}
