import { ApiError, apiPath, getJson } from '../api/client';
import type { GeoRecord } from '../api/types';
import { GEO_SOURCES, type GeoSource } from './geo-sources';
import { fromRecord, type CardView } from './geo-view';
import { sourceName } from './geo-attribution';
import { geoCardDatabase } from '../api/geo-database';

/** The local database: no key, no third party, the tools' default source. */
export const LOCAL_SOURCE: GeoSource = GEO_SOURCES.find((s) => s.route === 'geo-local')!;

/** Where `source` places an address; a 200 that carries `error` is a failure too (contract 1.1). */
export async function locate(source: GeoSource, ip: string, locale: string, signal?: AbortSignal): Promise<CardView> {
  const params: Record<string, string> = { ip };
  if (source.lang) params.lang = locale;
  const record = await getJson<GeoRecord>(apiPath(source.route, params), signal);
  if (record.error) throw new ApiError('upstream', 200, typeof record.error === 'string' ? record.error : '');
  return fromRecord(sourceName(source, geoCardDatabase.value), ip, record, source.extra);
}
