import { memoryCache } from './memory-cache.js';

export interface SharedLookupsOptions<V> {
  /** The most settled outcomes held; past it the least recently used one goes. */
  maxEntries: number;
  /** The most bytes (as `sizeOf` counts them) the held outcomes may take. */
  maxBytes: number;
  /** How long a failure is remembered, at most (never longer than the answer itself may be kept). */
  failureMs: number;
  sizeOf: (value: V) => number;
}

type Outcome<V> = { ok: true; value: V } | { ok: false; error: unknown };

// A held failure or the bookkeeping of an entry: what it costs besides its own bytes.
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * Identical lookups share one call while it is in flight, and its outcome is
 * held for the next callers: an answer for as long as the caller says it may
 * be kept, a failure briefly, so a dead upstream is not asked for every
 * visitor yet a recovery shows soon. Every caller of one key gets the same
 * value or the same error: keys must name only what the answer depends on,
 * never who asked.
 */
export class SharedLookups<V extends {}> {
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly outcomes;

  constructor(private readonly options: SharedLookupsOptions<V>) {
    this.outcomes = memoryCache<string, Outcome<V>>({
      max: options.maxEntries,
      maxBytes: options.maxBytes,
      sizeOf: (outcome, key) =>
        key.length + ENTRY_OVERHEAD_BYTES + (outcome.ok ? this.options.sizeOf(outcome.value) : 0),
    });
  }

  /**
   * `load()`'s outcome for `key`: held, in flight, or asked now and held up to
   * `keepForMs`; an answer `isFailure` finds no use to a caller (an upstream's
   * 5xx, say) is held like a failure.
   */
  run(key: string, keepForMs: number, load: () => Promise<V>, isFailure?: (value: V) => boolean): Promise<V> {
    const held = this.outcomes.get(key);
    if (held) return held.ok ? Promise.resolve(held.value) : Promise.reject(held.error);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const failureMs = Math.min(this.options.failureMs, keepForMs);
    const call = load().then(
      (value) => {
        this.inFlight.delete(key);
        this.hold(key, { ok: true, value }, isFailure?.(value) ? failureMs : keepForMs);
        return value;
      },
      (error: unknown) => {
        this.inFlight.delete(key);
        this.hold(key, { ok: false, error }, failureMs);
        throw error;
      },
    );
    this.inFlight.set(key, call);
    return call;
  }

  private hold(key: string, outcome: Outcome<V>, forMs: number): void {
    if (forMs > 0) this.outcomes.set(key, outcome, { ttl: forMs });
  }
}
