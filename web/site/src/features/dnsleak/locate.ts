import { apiPath, getJson } from '../../api/client.js';
import type { GeoRecord } from '../../api/types.js';
import { countryCode } from '../../lib/country.js';
import { isReserved } from '../../lib/ip.js';
import type { Located } from './results.js';

// One lookup per address and language in a visit; a failure is asked again next time.
const asked = new Map<string, Promise<Located>>();

/** Where an address is, by the service's local database (geo-local), as every leak test's resolver is placed. */
export function locate(ip: string, lang: string): Promise<Located> {
  if (isReserved(ip)) return Promise.resolve({ status: 'reserved' });
  const key = `${ip}|${lang}`;
  let pending = asked.get(key);
  if (!pending) {
    pending = getJson<GeoRecord>(apiPath('geo-local', { ip, lang })).then(
      (record): Located => ({
        status: 'located',
        countryCode: countryCode(record.country),
        org: typeof record.org === 'string' ? record.org : '',
      }),
      (error: unknown): Located => {
        asked.delete(key);
        return { status: 'failed', error };
      },
    );
    asked.set(key, pending);
  }
  return pending;
}
