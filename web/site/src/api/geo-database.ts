import { computed, readonly, shallowRef, type Ref } from 'vue';
import type { SiteSettings } from '@contract/site-settings.js';
import type { GeoDatabase } from '../lib/geo-attribution';
import { loadSiteSettings } from './site-settings';

const current = shallowRef<GeoDatabase | null>(null);
const local = shallowRef<SiteSettings['geoLocal'] | null>(null);

/** Whose local database the server has loaded: null until known, or when none is. */
export const geoDatabase: Readonly<Ref<GeoDatabase | null>> = readonly(current);

/** The database the server is set to use and, while none is loaded, what will happen: null until known. */
export const geoLocal: Readonly<Ref<SiteSettings['geoLocal'] | null>> = readonly(local);

/** The database the geo-local card is named for: the loaded one, else the one the server is set to download. */
export const geoCardDatabase = computed<GeoDatabase | null>(() => current.value ?? local.value?.provider ?? null);

/**
 * Asks the public settings (once per visit, again after a failure) for whose
 * local database is loaded. Never throws: without the answer only the credit
 * is missing, and the geo-local card keeps the default publisher's name.
 */
export function loadGeoDatabase(): Promise<GeoDatabase | null> {
  return loadSiteSettings().then(
    (settings) => {
      local.value = settings.geoLocal;
      return (current.value = settings.geoDatabase ?? null);
    },
    () => current.value,
  );
}
