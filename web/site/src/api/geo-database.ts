import { readonly, shallowRef, type Ref } from 'vue';
import type { GeoDatabase } from '../lib/geo-attribution';
import { loadSiteSettings } from './site-settings';

const current = shallowRef<GeoDatabase | null>(null);

/** Whose local database the server has loaded: null until known, or when none is. */
export const geoDatabase: Readonly<Ref<GeoDatabase | null>> = readonly(current);

/**
 * Asks the public settings (once per visit, again after a failure) for whose
 * local database is loaded. Never throws: without the answer only the credit
 * is missing, and the geo-local card keeps the default publisher's name.
 */
export function loadGeoDatabase(): Promise<GeoDatabase | null> {
  return loadSiteSettings().then(
    (settings) => (current.value = settings.geoDatabase ?? null),
    () => current.value,
  );
}
