import type { LRUCache } from 'lru-cache';
import { memoryCache } from '../../lib/memory-cache.js';

type Spent = { bytes: number; start: number };

// Clients tracked at once; past it the least recently seen one's count goes,
// which can only let that client start afresh, never refuse another.
const CLIENTS = 10_000;

export type Verdict = { ok: true } | { ok: false; retryAfterMs: number };

/** A transfer slot (`end` gives it back, once), or whose share is full: the client's or everyone's. */
export type Slot = { ok: true; end: () => void } | { ok: false; full: 'client' | 'everyone' };

/**
 * Each client's bytes moved in a fixed window, in this process's memory (a
 * speed test's bytes are this instance's own cost, so each instance counts
 * its own), its transfers running now, and all clients' transfers together,
 * so the speed test never holds more than its share of the listener's
 * connections however many addresses a flood comes from.
 */
export class ClientBudget {
  private readonly spent: LRUCache<string, Spent>;
  private readonly running = new Map<string, number>();
  private runningAll = 0;

  constructor(
    private readonly bytesPerWindow: number,
    private readonly windowMs: number,
    private readonly transfersAtOnce: number,
    private readonly transfersOfAll: number,
  ) {
    this.spent = memoryCache({ max: CLIENTS, ttlMs: windowMs });
  }

  /** Charges `bytes` to `key` unless that would pass its budget for this window. */
  charge(key: string, bytes: number): Verdict {
    const now = Date.now();
    let entry = this.spent.get(key);
    if (!entry) {
      entry = { bytes: 0, start: now };
      this.spent.set(key, entry);
    }
    if (entry.bytes + bytes > this.bytesPerWindow) {
      return { ok: false, retryAfterMs: entry.start + this.windowMs - now };
    }
    entry.bytes += bytes;
    return { ok: true };
  }

  /** Takes one of `key`'s transfer slots, which is also one of everyone's. */
  begin(key: string): Slot {
    const count = this.running.get(key) ?? 0;
    if (count >= this.transfersAtOnce) return { ok: false, full: 'client' };
    if (this.runningAll >= this.transfersOfAll) return { ok: false, full: 'everyone' };
    this.running.set(key, count + 1);
    this.runningAll++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.runningAll--;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    };
    return { ok: true, end };
  }
}
