import { getJson } from '../../api/client.js';
import type { GeoRecord } from '../../api/types.js';
import { countryCode } from '../../lib/country.js';
import { isReserved } from '../../lib/ip.js';
import type { Place } from './report.js';

/** The reference's wait for one address's place. */
const LOCATE_TIMEOUT_MS = 5000;

/** An address's place as the page shows it: being asked, found, not asked (reserved), or failed. */
export type PlaceState =
  { status: 'locating' } | { status: 'done'; place: Place } | { status: 'reserved' } | { status: 'failed' };

/** Where an address is, through our /api/geo-local; a private or reserved address is not asked (the API refuses it). */
export async function locate(ip: string, lang: string): Promise<PlaceState> {
  if (isReserved(ip)) return { status: 'reserved' };
  try {
    const query = new URLSearchParams({ ip, lang });
    const geo = await getJson<GeoRecord>(`/api/geo-local?${query}`, AbortSignal.timeout(LOCATE_TIMEOUT_MS));
    if (geo.error) return { status: 'failed' };
    return { status: 'done', place: { countryCode: countryCode(geo.country), org: geo.org ?? '' } };
  } catch {
    return { status: 'failed' };
  }
}
