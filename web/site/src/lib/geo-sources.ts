import type { Configs } from '../api/types';

export interface GeoSource {
  /** The API route, also the card's id. */
  route: string;
  /** The source's name as visitors know it. */
  name: string;
  /** The /api/configs flag that switches it on; null for the sources that need no key. */
  flag: keyof Configs | null;
  /** The settings an operator sets to turn it on. */
  settings: string[];
  /** Whether the route takes the page's language. */
  lang: boolean;
  /** What the source gives beyond the common record. */
  extra: 'advanced' | 'flags' | null;
}

// In the reference frontend's order. geo-keyed-a works without its key too,
// but, as there, it shows only with one: the key-less tier is shared by every
// visitor of the server and runs dry.
export const GEO_SOURCES: readonly GeoSource[] = [
  {
    route: 'geo-private',
    name: 'IPCheck.ing',
    flag: 'ipChecking',
    settings: ['PRIVATE_API_KEY', 'PRIVATE_API_ENDPOINT'],
    lang: true,
    extra: 'advanced',
  },
  { route: 'geo-keyed-a', name: 'IPinfo', flag: 'ipInfo', settings: ['GEO_KEYED_A_API_KEY'], lang: false, extra: null },
  { route: 'geo-free-a', name: 'ip-api', flag: null, settings: [], lang: true, extra: null },
  {
    route: 'geo-keyed-b',
    name: 'ipapi.is',
    flag: 'ipapiis',
    settings: ['GEO_KEYED_B_API_KEY'],
    lang: false,
    extra: 'flags',
  },
  {
    route: 'geo-keyed-c',
    name: 'IP2Location',
    flag: 'ip2location',
    settings: ['GEO_KEYED_C_API_KEY'],
    lang: false,
    extra: null,
  },
  { route: 'geo-free-b', name: 'IP.SB', flag: null, settings: [], lang: false, extra: null },
  { route: 'geo-local', name: 'MaxMind GeoLite2', flag: null, settings: [], lang: true, extra: null },
];

export function isEnabled(source: GeoSource, configs: Configs): boolean {
  return source.flag === null || configs[source.flag];
}
