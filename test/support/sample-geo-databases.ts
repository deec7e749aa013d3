import { Double, Uint32, writeMmdb, type MmdbNetwork } from './mmdb-writer.js';

const ALL = ['de', 'en', 'es', 'fr', 'ja', 'pt-BR', 'ru', 'zh-CN'];

const names = (n: Record<string, string>) => n;

/** A small GeoLite2-City-shaped database: 8.8.8.0/24, 2a01:4f8::/32, and 1.1.1.0/24 with a country only. */
export function cityDatabase(buildEpoch = 1_790_000_000): Buffer {
  const networks: MmdbNetwork[] = [
    {
      network: '8.8.8.0/24',
      data: {
        city: {
          geoname_id: new Uint32(5375480),
          names: names({
            en: 'Mountain View',
            de: 'Mountain View',
            ja: 'マウンテンビュー',
            'zh-CN': '芒廷维尤',
            ru: 'Маунтин-Вью',
          }),
        },
        continent: {
          code: 'NA',
          geoname_id: new Uint32(6255149),
          names: names({ en: 'North America', de: 'Nordamerika' }),
        },
        country: {
          geoname_id: new Uint32(6252001),
          iso_code: 'US',
          names: names({
            de: 'USA',
            en: 'United States',
            es: 'Estados Unidos',
            fr: 'États-Unis',
            ja: 'アメリカ',
            'pt-BR': 'EUA',
            ru: 'США',
            'zh-CN': '美国',
          }),
        },
        location: {
          accuracy_radius: new Uint32(1000),
          latitude: new Double(37.4223),
          longitude: new Double(-122.085),
          time_zone: 'America/Los_Angeles',
        },
        subdivisions: [
          {
            geoname_id: new Uint32(5332921),
            iso_code: 'CA',
            names: names({ en: 'California', de: 'Kalifornien', 'zh-CN': '加利福尼亚州' }),
          },
        ],
      },
    },
    {
      network: '2a01:4f8::/32',
      data: {
        city: {
          geoname_id: new Uint32(2861650),
          names: names({ en: 'Nuremberg', de: 'Nürnberg', 'pt-BR': 'Nuremberga' }),
        },
        country: {
          geoname_id: new Uint32(2921044),
          iso_code: 'DE',
          names: names({ de: 'Deutschland', en: 'Germany', 'pt-BR': 'Alemanha', 'zh-CN': '德国' }),
        },
        location: {
          accuracy_radius: new Uint32(20),
          latitude: new Double(49.4478),
          longitude: new Double(11.0683),
          time_zone: 'Europe/Berlin',
        },
        subdivisions: [
          { geoname_id: new Uint32(2951839), iso_code: 'BY', names: names({ en: 'Bavaria', de: 'Bayern' }) },
        ],
      },
    },
    {
      network: '1.1.1.0/24',
      data: {
        registered_country: {
          geoname_id: new Uint32(2077456),
          iso_code: 'AU',
          names: names({ en: 'Australia', de: 'Australien' }),
        },
      },
    },
  ];
  return writeMmdb({ databaseType: 'GeoLite2-City', languages: ALL, buildEpoch, networks });
}

/** A small GeoLite2-ASN-shaped database. */
export function asnDatabase(buildEpoch = 1_790_000_000, org = 'GOOGLE'): Buffer {
  return writeMmdb({
    databaseType: 'GeoLite2-ASN',
    buildEpoch,
    networks: [
      {
        network: '8.8.8.0/24',
        data: { autonomous_system_number: new Uint32(15169), autonomous_system_organization: org },
      },
      {
        network: '2a01:4f8::/32',
        data: { autonomous_system_number: new Uint32(24940), autonomous_system_organization: 'Hetzner Online GmbH' },
      },
    ],
  });
}
