import { apiPath, getJson } from '../../api/client.js';
import type { ClientIp, GeoRecord, ProbeCountries } from '../../api/types.js';
import { isReserved } from '../../lib/ip.js';

let probes: Promise<ProbeCountries> | null = null;

/**
 * The countries with online probes (`/api/probe-countries`), asked once per
 * visit; a failure is forgotten, so the next page asks again. The pickers
 * fail open without it: every country stays selectable.
 */
export function loadProbeCountries(): Promise<ProbeCountries> {
  probes ??= getJson<ProbeCountries>('/api/probe-countries').catch((err: unknown) => {
    probes = null;
    throw err;
  });
  return probes;
}

let visitor: Promise<string | null> | null = null;

/** The visitor's public address, offered as a target (null on a LAN or without the route). */
export function loadVisitorAddress(): Promise<string | null> {
  visitor ??= getJson<ClientIp>('/api/client-ip')
    .then(({ ip }) => (isReserved(ip) ? null : ip))
    .catch(() => null);
  return visitor;
}

let own: Promise<string | null> | null = null;

/** The visitor's country from this service's own answers (their address in the local database), or null. */
export function loadOwnCountry(): Promise<string | null> {
  own ??= loadVisitorAddress()
    .then((ip) => (ip ? getJson<GeoRecord>(apiPath('geo-local', { ip, lang: 'en' })).then((geo) => geo.country) : null))
    .then((country) => (country && /^[A-Z]{2}$/.test(country) ? country : null))
    .catch(() => null);
  return own;
}
