// The measurements the pages ask Globalping for (POST /v1/measurements), as
// the reference frontend asks them: one probe per chosen country for ping and
// MTR, two per country for the censorship page's HTTP test.

export const PING_PACKETS = 8;
export const HTTP_PROBES_PER_COUNTRY = 2;

// One probe per country: the total limit is the number of countries.
const fromEachCountry = (type: string, target: string, countries: readonly string[], measurementOptions: object) => ({
  type,
  target,
  limit: countries.length,
  locations: countries.map((country) => ({ country })),
  measurementOptions,
});

export const pingBody = (target: string, countries: readonly string[]) =>
  fromEachCountry('ping', target, countries, { packets: PING_PACKETS });

export const mtrBody = (target: string, countries: readonly string[]) =>
  fromEachCountry('mtr', target, countries, { port: 80, protocol: 'ICMP' });

/** A HEAD of the site's front page over HTTPS; each location carries its own limit, so no top-level one. */
export function httpHeadBody(host: string, countries: readonly string[]) {
  return {
    type: 'http',
    target: host,
    locations: countries.map((country) => ({ country, limit: HTTP_PROBES_PER_COUNTRY })),
    measurementOptions: { request: { host, path: '/', method: 'HEAD' }, port: 443, protocol: 'HTTPS' },
  };
}
