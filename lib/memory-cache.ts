import { LRUCache } from 'lru-cache';

export interface MemoryCacheOptions<K extends {}, V extends {}> {
  /** The most entries held; past it the least recently used one goes. */
  max: number;
  /** How long an entry is kept after it was stored. Without it an entry stays until pushed out: right for answers of pure checks, which never go stale. */
  ttlMs?: number;
  /**
   * Loads a missing key for `cache.fetch(key)`: concurrent fetches of one key
   * share one call, and a rejection or an undefined answer is not kept.
   */
  load?: (key: K) => Promise<V | undefined>;
  /** With `sizeOf`: the most bytes the entries may take together; an entry larger than this is not kept. */
  maxBytes?: number;
  sizeOf?: (value: V, key: K) => number;
  /** How long a loaded answer is kept, when that depends on the answer (a failure kept briefly, say); else `ttlMs`. */
  ttlOf?: (value: V) => number;
}

/**
 * The one kind of server-side in-memory cache in the service: bounded, least
 * recently used first out, optionally expiring; lru-cache underneath. An
 * answer's HTTP caching is something else (a route's `cacheTtl`).
 *
 * One measured speed device on a hot path keeps its own form and stays where
 * it is (see docs/performance.md): the WeakMaps of routes/geo/sources.ts (and
 * their like in web/command-line/local-record.ts), which normalise each
 * record the geo databases' reader cache hands out once,
 * keyed by that record itself and weakly held, so an entry goes when the
 * reader cache drops its record.
 */
export function memoryCache<K extends {}, V extends {}>({
  max,
  ttlMs,
  load,
  maxBytes,
  sizeOf,
  ttlOf,
}: MemoryCacheOptions<K, V>): LRUCache<K, V> {
  return new LRUCache<K, V>({
    ...(maxBytes !== undefined && sizeOf
      ? { max, maxSize: maxBytes, sizeCalculation: sizeOf }
      : // Given `max`, lru-cache allocates every slot at once: the limiters'
        // 50,000 clients alone held 2 MB idle. Each entry counted as 1 against
        // `maxSize` bounds the count the same way, with slots made as entries come.
        { maxSize: max, sizeCalculation: () => 1 }),
    ttl: ttlMs,
    fetchMethod:
      load &&
      (async (key, _stale, { options }) => {
        const value = await load(key);
        // lru-cache stores a fetched value with these options once this resolves.
        if (value !== undefined && ttlOf) options.ttl = ttlOf(value);
        return value;
      }),
  });
}

/**
 * `fn` with its answers held in a memory cache, for pure checks that see the
 * same few values again and again (a site's Referers, the address a page
 * looks up from seven sources at once): a flood of distinct values costs at
 * most one check each and never more than `max` entries.
 */
export function memoized<V extends {}>(fn: (key: string) => V, max: number): (key: string) => V {
  const answers = memoryCache<string, V>({ max });
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = fn(key);
      answers.set(key, answer);
    }
    return answer;
  };
}
