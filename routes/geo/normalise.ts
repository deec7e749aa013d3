import { createRequire } from 'node:module';
// The library without its Node entry, which registers all of its 80 languages
// (2 MB of heap held for good); this service names countries in English only.
import countries from 'i18n-iso-countries/index.js';
import type { GeoRecord } from '../../contract/geo.js';
import { finiteNumber } from '../../lib/json-values.js';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json') as Parameters<typeof countries.registerLocale>[0]);

/** A record before the timezone is derived from its coordinates. */
export type GeoBase = Omit<GeoRecord, 'timezone'>;

const PLACEHOLDERS = new Set(['-', 'undefined', 'null', 'N/A']);

/** A trimmed string that holds a value (not empty, not a placeholder such as "-"), or null. */
export function knownText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  // ip2location fills unknown fields with "-"; other sources leak "undefined"/"null" strings.
  return trimmed && !PLACEHOLDERS.has(trimmed) ? trimmed : null;
}

/** A JSON object's properties; none when the value is not an object. */
export const obj = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** Any ASN spelling (15169, "15169", "AS15169", "as15169") as "AS15169"; null when it is not one. */
export function asnOf(value: unknown): string | null {
  const raw = typeof value === 'number' ? String(value) : knownText(value);
  const match = raw ? /^(?:AS)?(\d{1,10})$/i.exec(raw) : null;
  if (!match) return null;
  const n = Number(match[1]);
  return n > 0 && n <= 0xffffffff ? `AS${n}` : null;
}

/** An ISO 3166-1 alpha-2 code, upper-cased; null otherwise. */
export function countryCode(value: unknown): string | null {
  const code = knownText(value);
  return code && /^[a-z]{2}$/i.test(code) ? code.toUpperCase() : null;
}

/** The English short name of a country code, from the ISO table; null when unknown. */
export function countryNameOf(code: string | null): string | null {
  return code ? (countries.getName(code, 'en') ?? null) : null;
}

/** A "lat,lon" string (ipinfo's `loc`) as two numbers; both null unless both are valid. */
export function parseLatLon(value: unknown): { latitude: number | null; longitude: number | null } {
  const parts = knownText(value)?.split(',') ?? [];
  const latitude = parts.length === 2 ? finiteNumber(parts[0]) : null;
  const longitude = parts.length === 2 ? finiteNumber(parts[1]) : null;
  return latitude !== null && longitude !== null && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180
    ? { latitude, longitude }
    : { latitude: null, longitude: null };
}

/** "AS15169 Google LLC" as its ASN and organisation; a string without the AS prefix is all organisation. */
export function splitAsOrg(value: unknown): { asn: string | null; org: string | null } {
  const raw = knownText(value);
  if (!raw) return { asn: null, org: null };
  const match = /^(AS\d+)(?:\s+(.*))?$/i.exec(raw);
  if (!match) return { asn: null, org: raw };
  return { asn: asnOf(match[1]), org: knownText(match[2]) };
}

export interface GeoParts {
  /** The address the source looked up; the one asked about when it names none. */
  ip?: unknown;
  city?: unknown;
  region?: unknown;
  /** The source's own country name, localised where the source localises. */
  countryName?: unknown;
  countryCode?: unknown;
  latitude?: unknown;
  longitude?: unknown;
  asn?: unknown;
  org?: unknown;
}

/**
 * The record from one source's parts. `country` and `country_code` are both
 * the alpha-2 code; `country_name` is the source's own name, else the English
 * name from the ISO table.
 */
export function toRecord(parts: GeoParts, requestedIp: string): GeoBase {
  const code = countryCode(parts.countryCode);
  let latitude = finiteNumber(parts.latitude);
  let longitude = finiteNumber(parts.longitude);
  // Both or neither; and 0,0 (open sea, no network there) is what ip2location sends for "unknown".
  if (
    latitude === null ||
    longitude === null ||
    Math.abs(latitude) > 90 ||
    Math.abs(longitude) > 180 ||
    (latitude === 0 && longitude === 0)
  ) {
    latitude = longitude = null;
  }
  return {
    ip: knownText(parts.ip) ?? requestedIp,
    city: knownText(parts.city),
    region: knownText(parts.region),
    country: code,
    country_name: knownText(parts.countryName) ?? countryNameOf(code),
    country_code: code,
    latitude,
    longitude,
    asn: asnOf(parts.asn),
    org: knownText(parts.org),
  };
}

/** The failure message an upstream put in its body, in the shapes the geo sources use. */
export function upstreamMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const err = b.error;
  if (err && typeof err === 'object') {
    const e = err as Record<string, unknown>;
    return knownText(e.message) ?? knownText(e.error_message) ?? knownText(e.title) ?? knownText(e.info);
  }
  return knownText(err) ?? knownText(b.message) ?? knownText(b.reason);
}
