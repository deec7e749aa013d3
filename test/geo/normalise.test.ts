import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reader } from 'maxmind';
import {
  asnOf,
  countryCode,
  countryNameOf,
  parseLatLon,
  knownText,
  splitAsOrg,
  toRecord,
  upstreamMessage,
} from '../../routes/geo/normalise.js';
import { forwardedLang, normaliseLang } from '../../routes/geo/lang.js';
import { timezoneAt } from '../../routes/geo/timezone.js';
import { Double, Uint16, Uint32, writeMmdb } from '../support/mmdb-writer.js';

test('asnOf: every spelling becomes "AS<n>", anything else null', () => {
  for (const v of [15169, '15169', 'AS15169', 'as15169', ' AS15169 ']) assert.equal(asnOf(v), 'AS15169');
  for (const v of [undefined, null, '', '-', 'AS', 'ASX1', 0, -5, 1.5, 'AS99999999999', {}, 'undefined']) {
    assert.equal(asnOf(v), null, String(v));
  }
});

test('splitAsOrg splits "AS15169 Google LLC"; no AS prefix is all organisation', () => {
  assert.deepEqual(splitAsOrg('AS15169 Google LLC'), { asn: 'AS15169', org: 'Google LLC' });
  assert.deepEqual(splitAsOrg('AS24940'), { asn: 'AS24940', org: null });
  assert.deepEqual(splitAsOrg('Google LLC'), { asn: null, org: 'Google LLC' });
  assert.deepEqual(splitAsOrg(undefined), { asn: null, org: null });
  assert.deepEqual(splitAsOrg(42), { asn: null, org: null });
});

test('parseLatLon parses "lat,lon" and rejects anything partial or out of range', () => {
  assert.deepEqual(parseLatLon('37.4056,-122.0775'), { latitude: 37.4056, longitude: -122.0775 });
  assert.deepEqual(parseLatLon(' -33.8688, 151.2093 '), { latitude: -33.8688, longitude: 151.2093 });
  const none = { latitude: null, longitude: null };
  for (const v of ['', '1', '1,', ',2', 'a,b', '91,0', '0,181', '1,2,3', undefined, 7]) {
    assert.deepEqual(parseLatLon(v), none, String(v));
  }
});

test('country code and name: codes upper-cased, names from the ISO table, unknown null', () => {
  assert.equal(countryCode('us'), 'US');
  assert.equal(countryCode('USA'), null);
  assert.equal(countryCode('-'), null);
  assert.equal(countryNameOf('DE'), 'Germany');
  assert.equal(countryNameOf('XX'), null);
  assert.equal(countryNameOf(null), null);
});

test('knownText drops placeholders; toRecord fills every field with a value or null', () => {
  for (const v of ['', '  ', '-', 'undefined', 'null', 'N/A', 5, null]) assert.equal(knownText(v), null);
  const record = toRecord(
    { ip: undefined, latitude: 10, longitude: 'x', asn: 'AS1', countryCode: 'zz', countryName: 'Somewhere' },
    '8.8.8.8',
  );
  assert.deepEqual(record, {
    ip: '8.8.8.8',
    city: null,
    region: null,
    country: 'ZZ',
    country_name: 'Somewhere',
    country_code: 'ZZ',
    latitude: null,
    longitude: null,
    asn: 'AS1',
    org: null,
  });
});

test("toRecord: country is the code, country_name the source's own name, else the English one from the code", () => {
  const named = toRecord({ ip: '8.8.8.8', countryCode: 'us', countryName: 'Vereinigte Staaten' }, '8.8.8.8');
  assert.equal(named.country, 'US');
  assert.equal(named.country_code, 'US');
  assert.equal(named.country_name, 'Vereinigte Staaten');
  assert.equal(toRecord({ ip: '8.8.8.8', countryCode: 'DE' }, '8.8.8.8').country_name, 'Germany');
  const nameOnly = toRecord({ ip: '8.8.8.8', countryCode: 'N/A', countryName: 'Kosovo' }, '8.8.8.8');
  assert.equal(nameOnly.country, null);
  assert.equal(nameOnly.country_name, 'Kosovo');
});

test('toRecord: coordinates are both numbers or both null; 0,0 (no network there) is unknown', () => {
  const at = (latitude: unknown, longitude: unknown) => {
    const r = toRecord({ ip: '8.8.8.8', latitude, longitude }, '8.8.8.8');
    return [r.latitude, r.longitude];
  };
  assert.deepEqual(at('37.4', -122.08), [37.4, -122.08]);
  assert.deepEqual(at(0, 9.5), [0, 9.5]);
  assert.deepEqual(at(0, 0), [null, null]);
  assert.deepEqual(at('N/A', 'N/A'), [null, null]);
  assert.deepEqual(at(91, 10), [null, null]);
  assert.deepEqual(at(10, null), [null, null]);
});

test('upstreamMessage reads the error shapes of the geo sources', () => {
  assert.equal(
    upstreamMessage({ error: { title: 'Wrong ip', message: 'Please provide a valid IP address' } }),
    'Please provide a valid IP address',
  );
  assert.equal(upstreamMessage({ error: { error_code: 10000, error_message: 'Invalid API key' } }), 'Invalid API key');
  assert.equal(upstreamMessage({ error: 'Bad key' }), 'Bad key');
  assert.equal(upstreamMessage({ message: 'reserved range' }), 'reserved range');
  assert.equal(upstreamMessage('x'), null);
  assert.equal(upstreamMessage({}), null);
});

test('normaliseLang: exact tag, base language, sibling variant, then en; absurd values are en', () => {
  const cases: Array<[unknown, string]> = [
    ['de', 'de'],
    ['ZH-cn', 'zh-CN'],
    ['pt-br', 'pt-BR'],
    ['de-AT', 'de'],
    ['en_GB', 'en'],
    ['zh-TW', 'zh-CN'],
    ['zh-Hant-HK', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['pt-PT', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['ko', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    [['de', 'fr'], 'en'],
    ['x'.repeat(100), 'en'],
    ['<script>', 'en'],
    ['de;q=0.9', 'en'],
  ];
  for (const [input, expected] of cases) assert.equal(normaliseLang(input), expected, JSON.stringify(input));
});

test('forwardedLang passes lang on as given, first of repeated values, en by default', () => {
  assert.equal(forwardedLang('zh-TW'), 'zh-TW');
  assert.equal(forwardedLang(['ja', 'de']), 'ja');
  assert.equal(forwardedLang(undefined), 'en');
  assert.equal(forwardedLang(''), 'en');
});

test('timezoneAt: the zone at the coordinates, a sea zone offshore, null without them; repeated lookups agree', () => {
  assert.equal(timezoneAt(52.52, 13.405), 'Europe/Berlin');
  assert.equal(timezoneAt(52.5201, 13.4049), 'Europe/Berlin');
  assert.equal(timezoneAt(35.6762, 139.6503), 'Asia/Tokyo');
  assert.equal(timezoneAt(-33.8688, 151.2093), 'Australia/Sydney');
  // Oslo keeps its own zone (data merged since 1970 would answer Europe/Berlin).
  assert.equal(timezoneAt(59.91, 10.75), 'Europe/Oslo');
  assert.equal(timezoneAt(0, -30), 'Etc/GMT+2');
  assert.equal(timezoneAt(null, 10), null);
  assert.equal(timezoneAt(95, 10), null);
});

test('mmdb-writer: maxmind reads its output with 24-, 28- and 32-bit records', () => {
  for (const recordSize of [24, 28, 32] as const) {
    const db = writeMmdb({
      databaseType: 'Test-City',
      languages: ['en', 'de'],
      recordSize,
      buildEpoch: 1_700_000_000,
      networks: [
        {
          network: '8.8.8.0/24',
          data: {
            s: 'Grüße',
            d: new Double(-122.5),
            u16: new Uint16(65535),
            u32: new Uint32(4294967295),
            big: 2n ** 40n,
            t: true,
            f: false,
            a: ['x', 1],
            m: { n: { en: 'y' } },
          },
        },
        { network: '2001:db8::/32', data: { s: 'v6' } },
        { network: '10.0.0.0/8', data: { long: 'z'.repeat(70_000), mid: 'y'.repeat(300) } },
        { network: '10.1.0.0/16', data: { s: 'deeper' } },
      ],
    });
    const reader = new Reader<Record<string, unknown>>(db);
    assert.equal(reader.metadata.databaseType, 'Test-City');
    assert.equal(reader.metadata.recordSize, recordSize);
    assert.equal(reader.metadata.ipVersion, 6);
    assert.deepEqual(reader.metadata.languages, ['en', 'de']);
    assert.equal(reader.metadata.buildEpoch.getTime(), 1_700_000_000_000);
    const [rec, prefix] = reader.getWithPrefixLength('8.8.8.200');
    assert.equal(prefix, 24);
    assert.deepEqual(
      { ...rec, big: String(rec!.big) },
      {
        s: 'Grüße',
        d: -122.5,
        u16: 65535,
        u32: 4294967295,
        big: String(2n ** 40n),
        t: true,
        f: false,
        a: ['x', 1],
        m: { n: { en: 'y' } },
      },
    );
    assert.deepEqual(reader.get('2001:db8:1::5'), { s: 'v6' });
    assert.equal((reader.get('10.200.0.1')!.long as string).length, 70_000);
    assert.equal((reader.get('10.200.0.1')!.mid as string).length, 300);
    assert.deepEqual(reader.get('10.1.2.3'), { s: 'deeper' });
    assert.equal(reader.get('8.8.9.1'), null);
    assert.equal(reader.get('2001:db9::1'), null);
  }
});

test('country names are English only: the library holds no other language', async () => {
  assert.equal(countryNameOf('DE'), 'Germany');
  const { default: countries } = await import('i18n-iso-countries/index.js');
  assert.deepEqual(countries.langs(), ['en']);
});
