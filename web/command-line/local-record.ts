import type { AsnResponse, CityResponse, Reader } from 'maxmind';
import { asnOf, countryCode, knownText } from '../../routes/geo/normalise.js';
import { memoryCache } from '../../lib/memory-cache.js';

/** The place fields of the JSON answer, under the ifconfig.co engine's names; a field the database lacks is left out. */
export interface Place {
  country?: string;
  country_iso?: string;
  country_eu?: boolean;
  region_name?: string;
  region_code?: string;
  zip_code?: string;
  city?: string;
  latitude?: number;
  longitude?: number;
  time_zone?: string;
}

/** The network fields: the AS number as `AS15169` and its organisation's name. */
export interface Network {
  asn?: string;
  asn_org?: string;
}

/** A part of the record with its JSON members written once (`"city": "Amsterdam"` and so on), for /json. */
export interface Described<T> {
  fields: T;
  /** The members, indented and joined as /json writes them; empty when the record holds none of the fields. */
  json: string;
}

const english = (names: unknown) => knownText((names as Record<string, unknown> | undefined)?.en) ?? undefined;
const coordinate = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

function describedAs<T extends object>(fields: T): Described<T> {
  const members: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) members.push(`${JSON.stringify(name)}: ${JSON.stringify(value)}`);
  }
  return { fields, json: members.join(',\n  ') };
}

// As geo-local does: a network the database places only by its registered
// country (an anycast range such as 1.1.1.0/24) is answered with that country.
function placeOf(c: CityResponse): Place {
  const country = c.country ?? c.registered_country;
  const subdivision = c.subdivisions?.[0];
  const countryName = english(country?.names);
  return {
    country: countryName,
    country_iso: countryCode(country?.iso_code) ?? undefined,
    country_eu: countryName === undefined ? undefined : country?.is_in_european_union === true,
    region_name: english(subdivision?.names),
    region_code: knownText(subdivision?.iso_code) ?? undefined,
    zip_code: knownText(c.postal?.code) ?? undefined,
    city: english(c.city?.names),
    latitude: coordinate(c.location?.latitude),
    longitude: coordinate(c.location?.longitude),
    time_zone: knownText(c.location?.time_zone) ?? undefined,
  };
}

function networkOf(a: AsnResponse): Network {
  return {
    asn: asnOf(a.autonomous_system_number) ?? undefined,
    asn_org: knownText(a.autonomous_system_organization) ?? undefined,
  };
}

// The readers hand out one decoded object per data record (their cache), and
// many addresses share a record: each is described once, and weakly held, so
// a record the cache drops takes its description with it.
const places = new WeakMap<CityResponse, Described<Place>>();
const networks = new WeakMap<AsnResponse, Described<Network>>();

// A script asks about its own address again and again: each reader keeps the
// answers for the addresses asked last, sparing the walk down its search tree.
// Kept per reader, so a database swapped in starts afresh.
const RECENT_ADDRESSES = 10_000;
const NONE = false as const;
const recent = new WeakMap<object, ReturnType<typeof memoryCache<string, Described<object> | typeof NONE>>>();

function looked<R extends object, T extends object>(
  reader: Reader<R>,
  ip: string,
  described: WeakMap<R, Described<T>>,
  describe: (record: R) => T,
): Described<T> | undefined {
  let answers = recent.get(reader);
  if (!answers) recent.set(reader, (answers = memoryCache({ max: RECENT_ADDRESSES })));
  const known = answers.get(ip);
  if (known !== undefined) return known === NONE ? undefined : (known as Described<T>);
  const record = reader.get(ip);
  let answer: Described<T> | undefined;
  if (record) {
    answer = described.get(record);
    if (!answer) described.set(record, (answer = describedAs(describe(record))));
  }
  answers.set(ip, answer ?? NONE);
  return answer;
}

/** The city database's place for `ip`; undefined when it holds none. */
export function placeFor(city: Reader<CityResponse>, ip: string): Described<Place> | undefined {
  return looked(city, ip, places, placeOf);
}

/** The ASN database's network for `ip`; undefined when it holds none. */
export function networkFor(asn: Reader<AsnResponse>, ip: string): Described<Network> | undefined {
  return looked(asn, ip, networks, networkOf);
}
