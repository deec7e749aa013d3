import { createHash, randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { guarded, type Guard } from '../../schemas/guarded.js';

/** The answer, with 400, to a token that is not one this service could have made. */
export const INVALID_WATCH_TOKEN = 'Invalid watch token';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** 32 random bytes as 43 base64url characters: the watch's only key, shown to its visitor once. */
export function newWatchToken(): string {
  return randomBytes(32).toString('base64url');
}

export function isWatchToken(value: string): boolean {
  return TOKEN.test(value);
}

/** The path parameter `:token` of /api/watch/…: 400 Invalid watch token unless it has a token's shape. */
export const watchTokenGuard: Guard = {
  missing: INVALID_WATCH_TOKEN,
  invalid: INVALID_WATCH_TOKEN,
  check: (value) => (isWatchToken(value) ? value : { error: INVALID_WATCH_TOKEN }),
};

export const TokenParams = Type.Object({ token: guarded(watchTokenGuard) });

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

// The store holds digests only: whoever reads the store (a backup, a shared
// Redis) learns no token to call and no sign-in subject. A dot never occurs in
// a report id, so neither key can be read as a shared report.
/** The store's id of the watch a token opens. */
export const watchId = (token: string): string => `watch.${digest(token)}`;

/** The store's id of the list of watches a signed-in visitor holds. */
export const ownerId = (subject: string): string => `watch-owner.${digest(subject)}`;
