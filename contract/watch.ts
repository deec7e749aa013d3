import { Type } from 'typebox';
import { guarded } from '../../schemas/guarded.js';
import { Nullable } from '../../schemas/nullable.js';
import { PushSubscription, WatchEntry } from './record.js';
import { watchTokenGuard } from './token.js';

export const TokenParams = Type.Object({ token: guarded(watchTokenGuard) });

export const Created = Type.Object({
  /** The watch's only key: shown this once, stored only as its digest. */
  token: Type.String(),
  /** The line for cron, relative to the site: `curl <site>/watch/<token>`. */
  path: Type.String(),
  expiresAt: Type.String(),
});

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
