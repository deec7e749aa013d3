import { Type, type Static } from 'typebox';
import { Nullable } from '../schemas/nullable.js';

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

export const Created = Type.Object({
  /** The watch's only key: shown this once, stored only as its digest. */
  token: Type.String(),
  /** The line for cron, relative to the site: `curl <site>/watch/<token>`. */
  path: Type.String(),
  expiresAt: Type.String(),
});
export type Created = Static<typeof Created>;

export const WatchAnswer = Type.Object({
  createdAt: Type.String(),
  /** When the watch goes unless it is called (or changed) before. */
  expiresAt: Type.String(),
  /** Oldest first. */
  entries: Type.Array(WatchEntry),
  webhook: Nullable(Type.String()),
  webPush: Type.Object({
    /** Whether this server sends web push (its three WEB_PUSH_* settings). */
    available: Type.Boolean(),
    /** The VAPID public key a page subscribes with; null while web push is off. */
    publicKey: Nullable(Type.String()),
    subscribed: Type.Boolean(),
  }),
});
export type WatchAnswer = Static<typeof WatchAnswer>;

// Bodies are checked in the handler, with the capability's own words, not Ajv's.
export const WebhookBody = Type.Object({ url: Nullable(Type.String()) });
export const WebhookAnswer = Type.Object({ webhook: Nullable(Type.String()) });

export const PushBody = Type.Object({ subscription: Nullable(PushSubscription) });
export const PushAnswer = Type.Object({ subscribed: Type.Boolean() });

export const DeliveryAnswer = Type.Object({
  delivered: Type.Boolean(),
  status: Nullable(Type.Integer()),
  reason: Nullable(Type.String()),
});
export type DeliveryAnswer = Static<typeof DeliveryAnswer>;
