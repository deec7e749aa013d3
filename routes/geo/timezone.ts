import { memoryCache } from '../../lib/memory-cache.js';

type Find = (lat: number, lon: number) => string[];

// geo-tz reads its boundary index when first imported; importing it once, on
// first use or from the start-up warm-up, keeps that cost off every request
// after the first and off the start-up of apps that never geolocate.
let finder: Promise<Find> | undefined;
const loadFinder = (): Promise<Find> => (finder ??= import('geo-tz/all').then((m) => m.find));

const CACHE_MAX = 10_000;
// Wrapped, since a cache entry cannot be null and most of the sea has no zone.
const zones = memoryCache<number, { zone: string | null }>({ max: CACHE_MAX });

/** Loads the timezone boundaries now (a start-up step), not on the first request. */
export async function warmTimezones(): Promise<void> {
  await loadFinder();
}

/**
 * The IANA zone at the given coordinates, from an offline boundary lookup;
 * null without usable coordinates. Answers are remembered per 0.01° cell
 * (about a kilometre), since sources answer the same city centres; at
 * most CACHE_MAX cells are held.
 */
export async function timezoneAt(latitude: number | null, longitude: number | null): Promise<string | null> {
  if (latitude === null || longitude === null) return null;
  if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) return null;
  // A number names the cell for less than formatting both coordinates would cost.
  const cell = Math.round(latitude * 100) * 36_001 + Math.round(longitude * 100);
  const hit = zones.get(cell);
  if (hit) return hit.zone;
  const find = await loadFinder();
  const zone = find(latitude, longitude)[0] ?? null;
  zones.set(cell, { zone });
  return zone;
}
