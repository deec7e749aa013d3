import type { Static } from 'typebox';
import type { LeakSession } from '@contract/private-tools.js';
import type { Clock } from '../../lib/fetch-within.js';
import { callPrivate, type PrivateOutcome } from '../../lib/private-call.js';
import { poll } from '../../lib/poll.js';

export type Session = Static<typeof LeakSession>;
export type RandomBytes = (length: number) => Uint8Array;

export const browserRandom: RandomBytes = (length) => crypto.getRandomValues(new Uint8Array(length));

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

/** The reference's schedule: the lookups get 3.5 s to reach the companion's name server, then polls 2.5 s apart. */
export const FIRST_POLL_MS = 3500;
export const POLL_INTERVAL_MS = 2500;
const ATTEMPTS = 3;
const EMPTY_PULLS = 2;
export const LOOKUPS = 4;

/**
 * A run's session: a token of 16 random bytes (32 lower-case hex, the route's guard) and four names
 * `<nonce>.<token>.<zone>`, each nonce 4 random bytes, so every lookup misses every cache on the way.
 */
export function newSession(zone: string, random: RandomBytes = browserRandom): { token: string; names: string[] } {
  const token = hex(random(16));
  const names = Array.from({ length: LOOKUPS }, () => `${hex(random(4))}.${token}.${zone}`);
  return { token, names };
}

/**
 * Makes the browser look each name up: a no-cors fetch, which the site's CSP allows for any HTTPS origin.
 * Only the lookup matters (the companion's name server logs the resolver that asks); no answer is read,
 * and a failed connection is expected.
 */
export async function lookUp(clock: Pick<Clock, 'fetch' | 'now'>, names: readonly string[]): Promise<void> {
  await Promise.all(
    names.map((name) =>
      clock
        .fetch(`https://${name}/probe.gif?t=${Math.round(clock.now())}`, {
          mode: 'no-cors',
          cache: 'no-store',
          credentials: 'omit',
        })
        .then(
          () => undefined,
          () => undefined,
        ),
    ),
  );
}

export interface PollProgress {
  /** 1-based number of the poll under way. */
  attempt: number;
  /** The most polls this run may take. */
  most: number;
}

/**
 * Polls the session as the reference does: up to three tries 2.5 s apart while the answer fails (sign-in,
 * token and quota refusals are final), then, while the companion has seen no resolver yet, up to two more.
 */
export async function pollSession(
  clock: Clock,
  token: string,
  lang: string,
  auth: Record<string, string>,
  onPoll: (progress: PollProgress) => void = () => undefined,
  signal?: AbortSignal,
): Promise<PrivateOutcome<Session> | null> {
  const most = ATTEMPTS + EMPTY_PULLS;
  let failures = 0;
  let empties = 0;
  let attempt = 0;
  const path = `/api/dnsleaktest/session/${token}?lang=${encodeURIComponent(lang)}`;
  return poll(
    clock,
    FIRST_POLL_MS,
    () => {
      attempt += 1;
      onPoll({ attempt, most });
      return callPrivate<Session>(clock.fetch, path, auth, { signal });
    },
    (outcome) => {
      if (outcome.kind === 'failed') return ++failures < ATTEMPTS ? POLL_INTERVAL_MS : null;
      if (outcome.kind === 'ok' && seenNone(outcome.data)) return ++empties <= EMPTY_PULLS ? POLL_INTERVAL_MS : null;
      return null;
    },
    signal,
  );
}

const seenNone = (session: Session) => !(session.resolverCount > 0);
