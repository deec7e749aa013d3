import { computed, type ComputedRef } from 'vue';
import { useI18n } from 'vue-i18n';

const KEYS = [
  'ip',
  'country',
  'region',
  'city',
  'timezone',
  'coordinates',
  'asn',
  'org',
  'hosting',
  'proxyFlag',
  'score',
  'native',
  'proxyVpn',
  'type',
  'unknown',
] as const;
export type GeoLabels = Record<(typeof KEYS)[number], string>;

const byLocale = new Map<string, GeoLabels>();

/**
 * The words every geo card repeats, looked up once per language and shared by
 * all cards: seven cards of a dozen rows each, rendered twice (skeleton, then
 * data), were most of the page's translation calls.
 */
export function useGeoLabels(): ComputedRef<GeoLabels> {
  const { t, locale } = useI18n();
  return computed(() => {
    let labels = byLocale.get(locale.value);
    if (!labels) {
      labels = Object.fromEntries(KEYS.map((key) => [key, t(`geo.${key}`)])) as GeoLabels;
      byLocale.set(locale.value, labels);
    }
    return labels;
  });
}
