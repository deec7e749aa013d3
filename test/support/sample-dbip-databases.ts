import { Double, writeMmdb } from './mmdb-writer.js';
import { asnNetworks } from './sample-geo-databases.js';

// DB-IP's lite files follow GeoLite2's layout with less in it: names without
// geoname ids, no accuracy radius, postal code or time zone, a city and a
// region named in English only, and countries flagged for EU membership.
const COUNTRY_LANGUAGES = ['de', 'en', 'es', 'fa', 'fr', 'ja', 'ko', 'pt-BR', 'ru', 'zh-CN'];

/**
 * A small City Lite database for the demo's networks, as DB-IP places them
 * (8.8.8.0/24 Mountain View, 2a01:4f8::/32 Nuremberg, 193.0.0.0/21
 * Amsterdam, 1.1.1.0/24 Sydney), and 139.130.4.0/24 known only by its
 * country, as DB-IP holds some networks.
 */
export function dbipCityDatabase(buildEpoch = 1_793_491_200): Buffer {
  return writeMmdb({
    databaseType: 'DBIP-City-Lite',
    languages: COUNTRY_LANGUAGES,
    description: { en: 'dbip.com IP to City Lite (test copy)' },
    buildEpoch,
    networks: [
      {
        network: '8.8.8.0/24',
        data: {
          city: { names: { en: 'Mountain View' } },
          continent: { code: 'NA', names: { en: 'North America', de: 'Nordamerika', 'zh-CN': '北美洲' } },
          country: {
            iso_code: 'US',
            is_in_european_union: false,
            names: { en: 'United States', de: 'Vereinigte Staaten', 'zh-CN': '美国' },
          },
          location: { latitude: new Double(37.4056), longitude: new Double(-122.0775) },
          subdivisions: [{ names: { en: 'California' } }],
        },
      },
      {
        network: '2a01:4f8::/32',
        data: {
          city: { names: { en: 'Nuremberg' } },
          continent: { code: 'EU', names: { en: 'Europe' } },
          country: { iso_code: 'DE', is_in_european_union: true, names: { en: 'Germany', de: 'Deutschland' } },
          location: { latitude: new Double(49.4542), longitude: new Double(11.0775) },
          subdivisions: [{ names: { en: 'Bavaria' } }],
        },
      },
      {
        network: '193.0.0.0/21',
        data: {
          city: { names: { en: 'Amsterdam' } },
          continent: { code: 'EU', names: { en: 'Europe' } },
          country: { iso_code: 'NL', is_in_european_union: true, names: { en: 'Netherlands', 'zh-CN': '荷兰' } },
          location: { latitude: new Double(52.3676), longitude: new Double(4.90414) },
          subdivisions: [{ names: { en: 'North Holland' } }],
        },
      },
      {
        network: '1.1.1.0/24',
        data: {
          city: { names: { en: 'Sydney' } },
          continent: { code: 'OC', names: { en: 'Oceania' } },
          country: { iso_code: 'AU', is_in_european_union: false, names: { en: 'Australia', 'zh-CN': '澳大利亚' } },
          location: { latitude: new Double(-33.8688), longitude: new Double(151.209) },
          subdivisions: [{ names: { en: 'New South Wales' } }],
        },
      },
      {
        network: '139.130.4.0/24',
        data: {
          continent: { code: 'OC', names: { en: 'Oceania' } },
          country: { iso_code: 'AU', is_in_european_union: false, names: { en: 'Australia' } },
        },
      },
    ],
  });
}

/** A small ASN Lite database: GeoLite2-ASN's layout, for the same networks but the country-only one. */
export function dbipAsnDatabase(buildEpoch = 1_793_491_200, org = 'Google LLC'): Buffer {
  return writeMmdb({
    databaseType: 'DBIP-ASN-Lite (compat=GeoLite2-ASN)',
    buildEpoch,
    networks: asnNetworks({ google: org, cloudflare: 'Cloudflare, Inc.' }),
  });
}
