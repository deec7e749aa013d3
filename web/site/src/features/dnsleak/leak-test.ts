import { fetchWithin, inTurn, type Clock } from '../../lib/fetch-within.js';
import type { Provider } from './providers.js';
import type { NameSource } from './random-names.js';

/** Each provider's answer is given up on after this long (MyIP's). */
export const ANSWER_TIMEOUT_MS = 5000;
/** A provider gets this many fresh names before it counts as failed (MyIP's). */
export const ATTEMPTS = 3;
/** Providers start this far apart (MyIP's). */
export const PROVIDER_STAGGER_MS = 200;

export type Failure =
  /** No answer at all: a blocker, a firewall or the provider down. */
  | 'blocked'
  /** An answer without a resolver's address in it. */
  | 'noResolver'
  /** Nothing within ANSWER_TIMEOUT_MS. */
  | 'timeout';

export type Outcome = { status: 'found'; ip: string } | { status: 'failed'; failure: Failure };

/**
 * Asks one provider which resolver looked up a fresh name, up to ATTEMPTS
 * times: a resolver's failure or an answer without an address may not
 * repeat with another name. A timeout is not asked again: the visitor would
 * wait three times as long for a provider that does not answer. Null when
 * `cancel` fired first.
 */
export async function askProvider(
  provider: Provider,
  clock: Clock,
  names: NameSource,
  cancel?: AbortSignal,
): Promise<Outcome | null> {
  let failure: Failure = 'blocked';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const fetched = await fetchWithin(
      provider.url(names),
      { cache: 'no-store', credentials: 'omit' },
      {
        limitMs: ANSWER_TIMEOUT_MS,
        clock,
        cancel,
        read: async (response) => (response.ok ? provider.read(await response.json().catch(() => null)) : null),
      },
    );
    if (fetched.outcome === 'cancelled') return null;
    if (fetched.outcome === 'timeout') return { status: 'failed', failure: 'timeout' };
    if (fetched.outcome === 'answered' && fetched.value) return { status: 'found', ip: fetched.value };
    failure = fetched.outcome === 'answered' ? 'noResolver' : 'blocked';
  }
  return { status: 'failed', failure };
}

/** Asks every provider, PROVIDER_STAGGER_MS apart, handing each outcome over as it lands. */
export function askAll(
  providers: readonly Provider[],
  onOutcome: (provider: Provider, outcome: Outcome) => void,
  clock: Clock,
  names: NameSource,
  cancel?: AbortSignal,
): Promise<void> {
  return inTurn(
    providers,
    PROVIDER_STAGGER_MS,
    clock,
    (provider) => askProvider(provider, clock, names, cancel),
    onOutcome,
  );
}
