import tzlookup from '@photostructure/tz-lookup';

/**
 * The IANA zone at the given coordinates, from an offline boundary lookup
 * (an `Etc/GMT±N` zone at sea); null without usable coordinates. About 3.5 µs
 * a lookup: geo-local looks up each database record's zone once (with the
 * record, in sources.ts), the provider routes once per answer.
 */
export function timezoneAt(latitude: number | null, longitude: number | null): string | null {
  if (latitude === null || longitude === null) return null;
  if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) return null;
  return tzlookup(latitude, longitude);
}
