import { getJson } from '../../api/client';
import type { ClientIp } from '../../api/types';
import { browserClock } from '../../lib/fetch-within';
import { askAll } from './leak-test';
import { locate } from './locate';
import { loadSiteSettings } from '../../api/site-settings';
import { chosenProviders, PROVIDERS, type Provider } from './providers';
import { browserNames } from './random-names';
import { dnsleakSection, resolverCountries, type DnsleakSection, type Located, type ProviderResult } from './results';
import { verdictOf, type Verdict } from './verdict';

/** The visitor's own address as this site sees it, placed; or why it could not be learnt. */
export type Own = { ip: string; located: Located } | { error: unknown };

/** A finished DNS leak run: every provider's result, the visitor's own place, the verdict and the report's section. */
export interface DnsLeakRun {
  providers: readonly Provider[];
  results: ReadonlyMap<string, ProviderResult>;
  own: Own | null;
  verdict: Verdict;
  section: DnsleakSection;
}

/**
 * The DNS leak test, for its page and the run-all page alike: every provider
 * asked in turn, each answer handed over as it lands and again once its
 * resolver is placed, beside the visitor's own address; null when `signal`
 * ended the run.
 */
export async function runDnsLeak(options: {
  locale: string;
  signal: AbortSignal;
  /** The providers this run asks: the operator's choice, once the site's settings are read. */
  onProviders?: (providers: readonly Provider[]) => void;
  onResult: (providerId: string, result: ProviderResult) => void;
  onOwn: (own: Own) => void;
}): Promise<DnsLeakRun | null> {
  const { locale, signal } = options;
  const providers = await loadSiteSettings().then(
    (settings) => chosenProviders(settings.dnsLeak.providers),
    () => PROVIDERS,
  );
  if (signal.aborted) return null;
  options.onProviders?.(providers);
  const results = new Map<string, ProviderResult>();
  let own: Own | null = null;
  const set = (id: string, result: ProviderResult) => {
    results.set(id, result);
    if (!signal.aborted) options.onResult(id, result);
  };
  const findOwn = async () => {
    try {
      const client = await getJson<ClientIp>('/api/client-ip', signal);
      own = { ip: client.ip, located: await locate(client.ip, locale) };
    } catch (error) {
      own = { error };
    }
    if (!signal.aborted) options.onOwn(own);
  };
  const lookups: Array<Promise<void>> = [findOwn()];
  await askAll(
    providers,
    (provider, outcome) => {
      set(provider.id, { outcome });
      if (outcome.status !== 'found') return;
      lookups.push(locate(outcome.ip, locale).then((located) => set(provider.id, { outcome, located })));
    },
    browserClock(),
    browserNames(),
    signal,
  );
  await Promise.all(lookups);
  if (signal.aborted) return null;
  const ownPlace = own as Own | null;
  const ownCountry =
    ownPlace && 'located' in ownPlace && ownPlace.located.status === 'located' ? ownPlace.located.countryCode : '';
  return {
    providers,
    results,
    own: ownPlace,
    verdict: verdictOf(resolverCountries(results.values()), ownCountry),
    section: dnsleakSection(providers, results),
  };
}
