import { Type, type Static } from 'typebox';

const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });

/** GET /api/probe-countries: where Globalping has probes online. */
export const ProbeCountries = Type.Object({
  countries: Type.Array(CountryCode, {
    description: 'ISO codes of the countries with at least one online probe, sorted',
  }),
  continents: Type.Array(
    Type.Object({
      key: Type.Union([
        Type.Literal('asia'),
        Type.Literal('europe'),
        Type.Literal('africa'),
        Type.Literal('americas'),
        Type.Literal('oceania'),
      ]),
      countries: Type.Array(CountryCode),
    }),
    { description: 'only the buckets that have probes, in the order asia, europe, africa, americas, oceania' },
  ),
});
export type ProbeCountries = Static<typeof ProbeCountries>;
