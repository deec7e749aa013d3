// The measurements the pages ask Globalping for (POST /v1/measurements), as
// the reference frontend asks them: one probe per chosen country for ping and
// MTR, two per country for the censorship page's HTTP test.

export const PING_PACKETS = 8;
export const HTTP_PROBES_PER_COUNTRY = 2;

export function pingBody(target: string, countries: readonly string[]) {
  return {
    type: 'ping',
    target,
    limit: countries.length,
    locations: countries.map((country) => ({ country })),
    measurementOptions: { packets: PING_PACKETS },
  };
}

export function mtrBody(target: string, countries: readonly string[]) {
  return {
    type: 'mtr',
    target,
    limit: countries.length,
    locations: countries.map((country) => ({ country })),
    measurementOptions: { port: 80, protocol: 'ICMP' },
  };
}

/** A HEAD of the site's front page over HTTPS; each location carries its own limit, so no top-level one. */
export function httpHeadBody(host: string, countries: readonly string[]) {
  return {
    type: 'http',
    target: host,
    locations: countries.map((country) => ({ country, limit: HTTP_PROBES_PER_COUNTRY })),
    measurementOptions: { request: { host, path: '/', method: 'HEAD' }, port: 443, protocol: 'HTTPS' },
  };
}
