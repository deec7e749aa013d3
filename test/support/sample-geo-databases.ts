import { Double, Uint32, writeMmdb, type MmdbNetwork } from './mmdb-writer.js';

const ALL = ['de', 'en', 'es', 'fr', 'ja', 'pt-BR', 'ru', 'zh-CN'];

const names = (n: Record<string, string>) => n;

/**
 * A small GeoLite2-City-shaped database: 8.8.8.0/24, 2a01:4f8::/32,
 * 193.0.0.0/21, and 1.1.1.0/24 with only a registered country (as the real
 * database holds that anycast network).
 */
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
      network: '193.0.0.0/21',
      data: {
        city: {
          geoname_id: new Uint32(2759794),
          names: names({ en: 'Amsterdam', de: 'Amsterdam', ja: 'アムステルダム', 'zh-CN': '阿姆斯特丹' }),
        },
        continent: { code: 'EU', geoname_id: new Uint32(6255148), names: names({ en: 'Europe', de: 'Europa' }) },
        country: {
          geoname_id: new Uint32(2750405),
          iso_code: 'NL',
          names: names({ de: 'Niederlande', en: 'Netherlands', fr: 'Pays-Bas', ja: 'オランダ王国', 'zh-CN': '荷兰' }),
        },
        location: {
          accuracy_radius: new Uint32(20),
          latitude: new Double(52.3759),
          longitude: new Double(4.8975),
          time_zone: 'Europe/Amsterdam',
        },
        subdivisions: [
          { geoname_id: new Uint32(2749879), iso_code: 'NH', names: names({ en: 'North Holland', de: 'Nordholland' }) },
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

/** The sample networks' AS records (1.1.1.0/24 included), with the AS names as a publisher writes them. */
export function asnNetworks(names: { google: string; cloudflare: string }): MmdbNetwork[] {
  return [
    {
      network: '8.8.8.0/24',
      data: { autonomous_system_number: new Uint32(15169), autonomous_system_organization: names.google },
    },
    {
      network: '2a01:4f8::/32',
      data: { autonomous_system_number: new Uint32(24940), autonomous_system_organization: 'Hetzner Online GmbH' },
    },
    {
      network: '1.1.1.0/24',
      data: { autonomous_system_number: new Uint32(13335), autonomous_system_organization: names.cloudflare },
    },
    {
      network: '193.0.0.0/21',
      data: {
        autonomous_system_number: new Uint32(3333),
        autonomous_system_organization: 'Reseaux IP Europeens Network Coordination Centre (RIPE NCC)',
      },
    },
  ];
}

/** A small GeoLite2-ASN-shaped database for the same networks. */
export function asnDatabase(buildEpoch = 1_790_000_000, org = 'GOOGLE'): Buffer {
  return writeMmdb({
    databaseType: 'GeoLite2-ASN',
    buildEpoch,
    networks: asnNetworks({ google: org, cloudflare: 'CLOUDFLARENET' }),
  });
}
