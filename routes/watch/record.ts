import { Type, type Static } from 'typebox';
import { Nullable } from '../../schemas/nullable.js';

/** One address a watch has seen: where the local databases place it, and when it was first and last seen. */
export const WatchEntry = Type.Object({
  address: Type.String(),
  /** The autonomous system, as AS15169; null when the ASN database holds none for the address (or is not loaded). */
  asn: Nullable(Type.String()),
  /** The autonomous system's organisation. */
  network: Nullable(Type.String()),
  /** ISO 3166-1 alpha-2. */
  country: Nullable(Type.String()),
  firstSeen: Type.String(),
  lastSeen: Type.String(),
});
export type WatchEntry = Static<typeof WatchEntry>;

/** A web push subscription as the browser's PushManager gives it (its `toJSON()`). */
export const PushSubscription = Type.Object({
  endpoint: Type.String({ maxLength: 2048 }),
  keys: Type.Object({
    p256dh: Type.String({ minLength: 1, maxLength: 200 }),
    auth: Type.String({ minLength: 1, maxLength: 100 }),
  }),
});
export type PushSubscription = Static<typeof PushSubscription>;

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
