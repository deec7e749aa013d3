import type { PushSubscription, WatchEntry } from '../../contract/watch.js';

// The entry and the subscription are the site's too: their schemas are in contract/watch.ts.
export type { PushSubscription, WatchEntry };

/** What the store keeps under a watch's id. */
export interface WatchRecord {
  createdAt: string;
  /** The owner list it is on (ownerId), for a watch created signed in. */
  owner?: string;
  /** Oldest first. */
  entries: WatchEntry[];
  webhook?: string;
  push?: PushSubscription;
}

/** Where an address is, as the caller's face found it in the local databases. */
export type Placed = Pick<WatchEntry, 'address' | 'asn' | 'network' | 'country'>;

/** How a call of `/watch/<token>` changed the history. */
export type Seen = 'first' | 'changed' | 'unchanged';

/**
 * The history after the caller was seen at `placed` at `now`: the same
 * address only moves its last-seen time, another one starts an entry; entries
 * past their expiry go, and the oldest beyond `maxEntries`.
 */
export function seenAt(
  entries: readonly WatchEntry[],
  placed: Placed,
  now: Date,
  ttlMs: number,
  maxEntries: number,
): { entries: WatchEntry[]; seen: Seen; previous?: WatchEntry } {
  const at = now.toISOString();
  const live = entries.filter((entry) => Date.parse(entry.lastSeen) + ttlMs > now.getTime());
  const last = live.at(-1);
  if (last && last.address === placed.address) {
    return { entries: [...live.slice(0, -1), { ...last, lastSeen: at }], seen: 'unchanged' };
  }
  const next = [...live, { ...placed, firstSeen: at, lastSeen: at }].slice(-maxEntries);
  return last ? { entries: next, seen: 'changed', previous: last } : { entries: next, seen: 'first' };
}

/** The history as the visitor may read it: entries past their expiry are gone even before the next write. */
export function liveEntries(entries: readonly WatchEntry[], now: number, ttlMs: number): WatchEntry[] {
  return entries.filter((entry) => Date.parse(entry.lastSeen) + ttlMs > now);
}
