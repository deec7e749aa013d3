import type { Report } from '@contract/report.js';
import type { Failure, Outcome } from './leak-test.js';
import type { Provider } from './providers.js';

/** The report's `dnsleak` section as recordSection takes it (without `testedAt`). */
export type DnsleakSection = Omit<NonNullable<Report['sections']['dnsleak']>, 'testedAt'>;

/** Where a resolver (or the visitor) is, by the service's geo-local route. */
export type Located =
  | { status: 'located'; countryCode: string; org: string }
  /** A loopback, private or other reserved address: no source knows where it is. */
  | { status: 'reserved' }
  | { status: 'failed'; error: unknown };

/** What the page knows of one provider so far: its answer, then where its resolver is. */
export interface ProviderResult {
  outcome: Outcome;
  located?: Located;
}

/** Each named resolver's country code, '' where it is not known, for verdictOf. */
export function resolverCountries(results: Iterable<ProviderResult>): string[] {
  return [...results].flatMap((result) => {
    if (result.outcome.status !== 'found') return [];
    return [result.located?.status === 'located' ? result.located.countryCode : ''];
  });
}

/** The report's `dnsleak` section: every provider asked, its resolver where it named one. */
export function dnsleakSection(
  providers: readonly Provider[],
  results: ReadonlyMap<string, ProviderResult>,
): DnsleakSection {
  return {
    providers: providers
      .flatMap((provider) => {
        const result = results.get(provider.id);
        if (!result) return [];
        const entry: DnsleakSection['providers'][number] = { id: provider.id, name: provider.name };
        if (result.outcome.status === 'found') entry.ip = result.outcome.ip;
        if (result.located?.status === 'located') {
          if (result.located.countryCode) entry.countryCode = result.located.countryCode;
          if (result.located.org) entry.org = result.located.org.slice(0, 128);
        }
        return [entry];
      })
      .slice(0, 8),
  };
}

/** One provider's row as the page and a shared report show it. */
export interface ResolverRow {
  id: string;
  name: string;
  /** Still asking, why no resolver was named ('none' in a shared report, which does not say), or the resolver. */
  answer: 'asking' | 'none' | Failure | { ip: string };
  /** Where the resolver is: being looked up, not knowable, not found, or its country ('' unknown) and network. */
  place: 'pending' | 'reserved' | 'failed' | { countryCode: string; org: string } | null;
}

function placeOf(located: Located | undefined): ResolverRow['place'] {
  if (!located) return 'pending';
  if (located.status === 'located') return { countryCode: located.countryCode, org: located.org };
  return located.status;
}

export function pageRows(providers: readonly Provider[], results: ReadonlyMap<string, ProviderResult>): ResolverRow[] {
  return providers.map(({ id, name }) => {
    const result = results.get(id);
    if (!result) return { id, name, answer: 'asking', place: null };
    if (result.outcome.status === 'failed') return { id, name, answer: result.outcome.failure, place: null };
    return { id, name, answer: { ip: result.outcome.ip }, place: placeOf(result.located) };
  });
}

export function reportRows(section: DnsleakSection): ResolverRow[] {
  return section.providers.map(({ id, name, ip, countryCode, org }) => ({
    id,
    name,
    answer: ip ? { ip } : 'none',
    place: ip ? { countryCode: countryCode ?? '', org: org ?? '' } : null,
  }));
}
