/**
 * What the resolvers' countries say against the visitor's own: a resolver in
 * another country than the visitor's address is how a DNS leak shows (a VPN
 * carrying the traffic but not the lookups), though a public resolver's
 * nearest server abroad looks the same, hence "possible".
 */
export type Verdict =
  /** Resolvers answer from countries other than the visitor's. */
  | { kind: 'leak'; resolverCountries: string[]; ownCountry: string }
  /** Every located resolver is in the visitor's country. */
  | { kind: 'noLeak'; ownCountry: string }
  /** No provider named a resolver. */
  | { kind: 'noResolvers' }
  /** Resolvers were named, but none could be located. */
  | { kind: 'resolversUnknown' }
  /** The visitor's own country is not known (a LAN address, a failed lookup). */
  | { kind: 'ownUnknown'; resolverCountries: string[] };

/**
 * `resolvers` holds each named resolver's country code ('' when its lookup
 * gave none); `own` the visitor's ('' when unknown). Countries keep the
 * order they were first seen in.
 */
export function verdictOf(resolvers: readonly string[], own: string): Verdict {
  if (!resolvers.length) return { kind: 'noResolvers' };
  const countries = [...new Set(resolvers.filter(Boolean))];
  if (!countries.length) return { kind: 'resolversUnknown' };
  if (!own) return { kind: 'ownUnknown', resolverCountries: countries };
  const abroad = countries.filter((country) => country !== own);
  return abroad.length
    ? { kind: 'leak', resolverCountries: countries, ownCountry: own }
    : { kind: 'noLeak', ownCountry: own };
}
