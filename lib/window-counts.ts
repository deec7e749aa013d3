import type { LRUCache } from 'lru-cache';
import { memoryCache } from './memory-cache.js';

type Count = { current: number; start: number };

// The rate-limit library's own default for clients counted at once.
const COUNTING_CLIENTS = 5000;
// Filling it takes 50,000 clients each going over the limit within one window
// (about 2 MB then; the cache's slots are made as entries come).
const LIMITED_CLIENTS = 50_000;

/**
 * A limiter's fixed-window counts in process memory, answered as
 * @fastify/rate-limit's stores answer. Clients under the limit and clients
 * over it are held in two caches: a flood of new clients (5,000 and more)
 * only ever pushes out counts still under the limit, so it can reset those
 * but never lift a limited client's 429. Each entry expires with its window.
 */
export class WindowCounts {
  private readonly counting: LRUCache<string, Count>;
  private readonly limited: LRUCache<string, Count>;

  constructor(private readonly timeWindow: number) {
    this.counting = memoryCache({ max: COUNTING_CLIENTS, ttlMs: timeWindow });
    this.limited = memoryCache({ max: LIMITED_CLIENTS, ttlMs: timeWindow });
  }

  incr(key: string, max: number): { current: number; ttl: number } {
    const now = Date.now();
    let count = this.limited.get(key) ?? this.counting.get(key);
    if (!count) {
      count = { current: 0, start: now };
      this.counting.set(key, count);
    }
    count.current++;
    // Never 0: to lru-cache a ttl of 0 means no expiry at all.
    const ttl = Math.max(1, count.start + this.timeWindow - now);
    if (count.current === max + 1) {
      this.counting.delete(key);
      this.limited.set(key, count, { ttl });
    }
    return { current: count.current, ttl };
  }
}
