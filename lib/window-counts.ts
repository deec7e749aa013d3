type Count = { current: number; start: number };

// The library's own default for clients counted at once.
const COUNTING_CLIENTS = 5000;
// About 120 bytes each: at most 12 MB, and filling it takes 100,000 clients
// each going over the limit within one window.
const LIMITED_CLIENTS = 100_000;

/**
 * A limiter's fixed-window counts in process memory, with the answer
 * @fastify/rate-limit's stores give. Clients under the limit and clients over
 * it are kept apart: a flood of new clients (5,000 and more) only ever pushes
 * out counts still under the limit, so it can reset those but never lift a
 * limited client's 429. Each map holds its clients in the order they came in
 * (their window's start, or their entry into the limited state), so its
 * first entry is the one to drop: expired, or else the oldest.
 */
export class WindowCounts {
  private readonly counting = new Map<string, Count>();
  private readonly limited = new Map<string, Count>();

  constructor(
    private readonly countingCap = COUNTING_CLIENTS,
    private readonly limitedCap = LIMITED_CLIENTS,
  ) {}

  incr(key: string, timeWindow: number, max: number): { current: number; ttl: number } {
    const now = Date.now();
    let count = this.limited.get(key) ?? this.counting.get(key);
    if (count && count.start + timeWindow <= now) {
      this.limited.delete(key);
      this.counting.delete(key);
      count = undefined;
    }
    if (!count) {
      count = { current: 0, start: now };
      this.add(this.counting, this.countingCap, key, count, timeWindow, now);
    }
    count.current++;
    if (count.current === max + 1) {
      this.counting.delete(key);
      this.add(this.limited, this.limitedCap, key, count, timeWindow, now);
    }
    return { current: count.current, ttl: count.start + timeWindow - now };
  }

  private add(map: Map<string, Count>, cap: number, key: string, count: Count, timeWindow: number, now: number) {
    for (const [first, { start }] of map) {
      if (start + timeWindow > now && map.size < cap) break;
      map.delete(first);
    }
    map.set(key, count);
  }
}
