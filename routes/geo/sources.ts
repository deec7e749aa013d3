import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AsnResponse, CityResponse } from 'maxmind';
import { pickKey } from '../../lib/keys.js';
import { PrivateApi } from '../../lib/private-api.js';
import { UpstreamError } from '../../lib/upstream-failure.js';
import type { GeoDatabases } from '../../datasets/geo/databases.js';
import type { DbLanguage } from './lang.js';
import {
  asnOf,
  countryCode,
  knownText,
  obj,
  parseLatLon,
  splitAsOrg,
  toRecord,
  upstreamMessage,
  type GeoBase,
} from './normalise.js';
import { timezoneAt } from './timezone.js';
import { HttpError } from '../../lib/http-error.js';
import { advancedData } from './advanced-data.js';
import type { AdvancedData, GeoRecord } from '../../contract/geo.js';

/** The answer itself when its status is 2xx; otherwise throws with the upstream's own message when it gave one. */
function ensureOk<T extends { status: number; data: unknown }>(res: T): T {
  if (res.status < 200 || res.status >= 300) {
    throw new UpstreamError(upstreamMessage(res.data) ?? `Upstream answered ${res.status}`, res.status);
  }
  return res;
}

/** The provider routes' cache time: their answers are kept as long server-side. */
export const ONE_DAY = 24 * 60 * 60;

const isRecord = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null;

/**
 * A 2xx JSON object body, shared and kept as long as the routes' answers;
 * anything else throws. `usable` tells a failure the provider reports with a
 * 200, which is not kept for long; `shareAs` names the question without the
 * key picked for this call.
 */
async function okBody(
  app: FastifyInstance,
  url: string,
  { usable = () => true, shareAs }: { usable?: (data: Record<string, unknown>) => boolean; shareAs?: string } = {},
): Promise<Record<string, unknown>> {
  const res = ensureOk(
    await app.upstream.json<unknown>(url, {
      keepForMs: ONE_DAY * 1000,
      keepIf: (data) => isRecord(data) && usable(data),
      shareAs,
    }),
  );
  if (!res.data || typeof res.data !== 'object') {
    throw new UpstreamError('Upstream answered without a record', res.status);
  }
  return res.data as Record<string, unknown>;
}

/** geo-keyed-a: ipinfo.io (token optional). */
export async function ipinfo(app: FastifyInstance, ip: string): Promise<GeoBase> {
  const key = pickKey(app.config.GEO_KEYED_A_API_KEY);
  const data = await okBody(
    app,
    `https://ipinfo.io/${encodeURIComponent(ip)}${key ? `?token=${encodeURIComponent(key)}` : ''}`,
    { usable: (body) => body.bogon !== true, shareAs: `https://ipinfo.io/${encodeURIComponent(ip)}` },
  );
  if (data.bogon === true) throw new UpstreamError('Upstream reports a bogon (reserved) address');
  return toRecord(
    {
      ip: data.ip,
      city: data.city,
      region: data.region,
      countryCode: data.country,
      ...parseLatLon(data.loc),
      ...splitAsOrg(data.org),
    },
    ip,
  );
}

// ip-api's field bitmask: status 16384, message 32768, country 1, countryCode 2,
// regionName 8, city 16, lat 64, lon 128, isp 512, org 1024, as 2048, query 8192.
const IP_API_FIELDS = 16384 + 32768 + 1 + 2 + 8 + 16 + 64 + 128 + 512 + 1024 + 2048 + 8192;

/** geo-free-a: ip-api.com (free tier, plain HTTP); `lang` goes through as given. */
export async function ipApi(app: FastifyInstance, ip: string, lang: string): Promise<GeoBase> {
  const query = new URLSearchParams({ fields: String(IP_API_FIELDS), lang });
  const data = await okBody(app, `http://ip-api.com/json/${encodeURIComponent(ip)}?${query}`, {
    usable: (body) => body.status !== 'fail',
  });
  // ip-api reports failures with HTTP 200.
  if (data.status === 'fail') throw new UpstreamError(knownText(data.message) ?? 'Upstream reported a failure');
  const as = splitAsOrg(data.as);
  return toRecord(
    {
      ip: data.query,
      city: data.city,
      region: data.regionName,
      countryName: data.country,
      countryCode: data.countryCode,
      latitude: data.lat,
      longitude: data.lon,
      asn: as.asn,
      // The contract names `isp` (the provider the visitor knows); ip-api's `org` is often a customer's label.
      org: knownText(data.isp) ?? knownText(data.org) ?? as.org,
    },
    ip,
  );
}

/** geo-free-b: ip.sb. */
export async function ipSb(app: FastifyInstance, ip: string): Promise<GeoBase> {
  const data = await okBody(app, `https://api.ip.sb/geoip/${encodeURIComponent(ip)}`);
  return toRecord(
    {
      ip: data.ip,
      city: data.city,
      region: data.region,
      countryName: data.country,
      countryCode: data.country_code,
      latitude: data.latitude,
      longitude: data.longitude,
      asn: data.asn,
      org: knownText(data.isp) ?? knownText(data.organization) ?? knownText(data.asn_organization),
    },
    ip,
  );
}

/** Thrown when a route's required key setting is empty; the spec leaves it an unclean 500. */
class KeyNotConfigured extends HttpError {
  constructor(setting: string) {
    super(500, `${setting} is not configured`);
  }
}

/** geo-keyed-b: ipapi.is, with its hosting and proxy flags. */
export async function ipapiIs(
  app: FastifyInstance,
  ip: string,
): Promise<GeoBase & { isHosting: boolean; isProxy: boolean }> {
  const key = pickKey(app.config.GEO_KEYED_B_API_KEY);
  if (!key) throw new KeyNotConfigured('GEO_KEYED_B_API_KEY');
  const data = await okBody(app, `https://api.ipapi.is/?${new URLSearchParams({ q: ip, key })}`, {
    shareAs: `https://api.ipapi.is/?${new URLSearchParams({ q: ip })}`,
  });
  const location = obj(data.location);
  const asn = obj(data.asn);
  const record = toRecord(
    {
      ip: data.ip,
      city: location.city,
      region: location.state,
      countryName: location.country,
      countryCode: location.country_code,
      latitude: location.latitude,
      longitude: location.longitude,
      asn: asn.asn,
      org: knownText(asn.org) ?? knownText(obj(data.company).name),
    },
    ip,
  );
  return {
    ...record,
    isHosting: data.is_datacenter === true,
    isProxy: data.is_proxy === true || data.is_vpn === true || data.is_tor === true,
  };
}

/** geo-keyed-c: ip2location.io. */
export async function ip2location(app: FastifyInstance, ip: string): Promise<GeoBase> {
  const key = pickKey(app.config.GEO_KEYED_C_API_KEY);
  if (!key) throw new KeyNotConfigured('GEO_KEYED_C_API_KEY');
  const data = await okBody(app, `https://api.ip2location.io/?${new URLSearchParams({ ip, key })}`, {
    shareAs: `https://api.ip2location.io/?${new URLSearchParams({ ip })}`,
  });
  return toRecord(
    {
      ip: data.ip,
      city: data.city_name,
      region: data.region_name,
      countryName: data.country_name,
      countryCode: data.country_code,
      latitude: data.latitude,
      longitude: data.longitude,
      asn: data.asn,
      org: data.as,
    },
    ip,
  );
}

const localName = (names: Partial<Record<string, string>> | undefined, lang: DbLanguage) => names?.[lang] ?? names?.en;

type Place = Omit<GeoRecord, 'ip' | 'asn' | 'org'>;
type Network = Pick<GeoBase, 'asn' | 'org'>;

// The databases hand out one decoded object per data record (their cache), and
// many addresses share a record (a city, an AS): each is normalised once per
// language rather than on every request, its timezone with it, since a record
// has one pair of coordinates. Weakly held, so a record the cache drops takes
// its entry with it.
const places = new WeakMap<CityResponse, Partial<Record<DbLanguage, Place>>>();
const networks = new WeakMap<AsnResponse, Network>();

function place(c: CityResponse, lang: DbLanguage): Place {
  const country = c.country ?? c.registered_country;
  const {
    ip: _ip,
    asn: _asn,
    org: _org,
    ...rest
  } = toRecord(
    {
      ip: '',
      city: localName(c.city?.names as Record<string, string> | undefined, lang),
      region: localName(c.subdivisions?.[0]?.names as Record<string, string> | undefined, lang),
      countryName: localName(country?.names as Record<string, string> | undefined, lang),
      countryCode: country?.iso_code,
      latitude: c.location?.latitude,
      longitude: c.location?.longitude,
    },
    '',
  );
  return { ...rest, timezone: timezoneAt(rest.latitude, rest.longitude) };
}

function placeOf(c: CityResponse, lang: DbLanguage): Place {
  let byLang = places.get(c);
  if (!byLang) places.set(c, (byLang = {}));
  return (byLang[lang] ??= place(c, lang));
}

function networkOf(a: AsnResponse): Network {
  let network = networks.get(a);
  if (!network) {
    network = { asn: asnOf(a.autonomous_system_number), org: knownText(a.autonomous_system_organization) };
    networks.set(a, network);
  }
  return network;
}

const NO_PLACE = place({} as CityResponse, 'en');
const NO_NETWORK: Network = { asn: null, org: null };

/** geo-local: the city and ASN databases; an address they do not hold gives a record of nulls. */
export function localLookup(
  databases: GeoDatabases,
  city: NonNullable<GeoDatabases['city']>,
  ip: string,
  lang: DbLanguage,
): GeoRecord {
  const c = city.get(ip);
  const a = databases.asn?.get(ip);
  const p = c ? placeOf(c, lang) : NO_PLACE;
  const n = a ? networkOf(a) : NO_NETWORK;
  return {
    ip,
    city: p.city,
    region: p.region,
    country: p.country,
    country_name: p.country_name,
    country_code: p.country_code,
    latitude: p.latitude,
    longitude: p.longitude,
    timezone: p.timezone,
    asn: n.asn,
    org: n.org,
  };
}

/** geo-private: the companion API's /ipinfo, with the caller's headers and `lang` as given. */
export async function privateIpinfo(
  app: FastifyInstance,
  request: FastifyRequest,
  ip: string,
  lang: string,
): Promise<GeoBase & { advancedData: AdvancedData }> {
  const api = new PrivateApi(app.upstream, app.config, app.signInTokens);
  const res = ensureOk(await api.forward(request, '/ipinfo', { query: { ip, lang } }));
  const data = obj(res.data);
  const as = splitAsOrg(data.org);
  // The companion API answers in the contract's shape: ip, city, region and
  // the coordinates under their own names, the code in `country`.
  const parts = {
    ...data,
    countryName: data.country_name,
    countryCode: countryCode(data.country) ?? data.country_code,
    asn: data.asn ?? as.asn,
    org: as.org,
  };
  return { ...toRecord(parts, ip), advancedData: advancedData(data.advancedData) };
}
