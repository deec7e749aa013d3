import tzlookup from '@photostructure/tz-lookup';
import { memoryCache } from '../../lib/memory-cache.js';

const CACHE_MAX = 10_000;
const zones = memoryCache<number, string>({ max: CACHE_MAX });

/**
 * The IANA zone at the given coordinates, from an offline boundary lookup
 * (an `Etc/GMT±N` zone at sea); null without usable coordinates. Answers are
 * remembered per 0.01° cell (about a kilometre), since sources answer the
 * same city centres; at most CACHE_MAX cells are held.
 */
export function timezoneAt(latitude: number | null, longitude: number | null): string | null {
  if (latitude === null || longitude === null) return null;
  if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) return null;
  // A number names the cell for less than formatting both coordinates would cost.
  const cell = Math.round(latitude * 100) * 36_001 + Math.round(longitude * 100);
  let zone = zones.get(cell);
  if (zone === undefined) {
    zone = tzlookup(latitude, longitude);
    zones.set(cell, zone);
  }
  return zone;
}
