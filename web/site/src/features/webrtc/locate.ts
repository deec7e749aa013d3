import { getJson } from '../../api/client.js';
import { isReserved } from '../../lib/ip.js';
import type { Place } from './report.js';

/** The reference's wait for one address's place. */
const LOCATE_TIMEOUT_MS = 5000;

/** The part of a geo answer (frontend contract 1.1) this page reads. */
interface GeoAnswer {
  country?: string | null;
  org?: string | null;
  error?: unknown;
}

/** An address's place as the page shows it: being asked, found, not asked (reserved), or failed. */
export type PlaceState =
  { status: 'locating' } | { status: 'done'; place: Place } | { status: 'reserved' } | { status: 'failed' };

/** Where an address is, through our /api/geo-local; a private or reserved address is not asked (the API refuses it). */
export async function locate(ip: string, lang: string): Promise<PlaceState> {
  if (isReserved(ip)) return { status: 'reserved' };
  try {
    const query = new URLSearchParams({ ip, lang });
    const geo = await getJson<GeoAnswer>(`/api/geo-local?${query}`, AbortSignal.timeout(LOCATE_TIMEOUT_MS));
    if (geo.error) return { status: 'failed' };
    // Not lib/country's countryCode: that module brings the built country names along, which only the page has.
    const code = typeof geo.country === 'string' && /^[A-Za-z]{2}$/.test(geo.country) ? geo.country.toUpperCase() : '';
    return { status: 'done', place: { countryCode: code, org: geo.org ?? '' } };
  } catch {
    return { status: 'failed' };
  }
}
