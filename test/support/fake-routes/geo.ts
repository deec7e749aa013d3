import type { ServerResponse } from 'node:http';
import type { FakeUpstream, Recorded } from '../fake-upstream.js';
import { fixture } from '../fake-upstream.js';
import { maxmindArchive, serveMaxmind } from '../fake-maxmind.js';
import { serveDbipEveryMonth } from '../fake-dbip.js';
import { gzipSync } from 'node:zlib';
import { EXAMPLE_PRIVATE_API_HOST as PRIVATE_API_HOST } from '../../../routes/example-request.js';
import { asnDatabase, cityDatabase } from '../sample-geo-databases.js';
import { dbipAsnDatabase, dbipCityDatabase } from '../sample-dbip-databases.js';
import { demoAddress, type DemoAddress } from './demo-addresses.js';

const PUBLISHED = new Date('2026-11-20T00:00:00Z');

/** One geolocation source as the fakes answer it: where its request names the address, and its fixtures. */
interface Source {
  host: string;
  path: string | RegExp;
  address(req: Recorded): string | null;
  /** The fixture per demo address; ip-api's per language, English when the asked one has none. */
  known: Record<DemoAddress, string | Record<string, string>>;
  /** The source's answer for an address it holds nothing for, the address itself written into `echo`. */
  unknown: { file: string; echo: string };
}

const inPath = (prefix: string) => (req: Recorded) => decodeURIComponent(req.path.slice(prefix.length));
const inQuery = (name: string) => (req: Recorded) => req.query.get(name);
const V6 = '2a01-4f8-c0c-1234--1';
// Most sources' fixtures are named after the address (the IPv6 one with dashes for colons).
const NAMED_AFTER_ADDRESS: Record<DemoAddress, string> = {
  '8.8.8.8': '8.8.8.8.json',
  '1.1.1.1': '1.1.1.1.json',
  '2a01:4f8:c0c:1234::1': `${V6}.json`,
  '193.0.6.139': '193.0.6.139.json',
};

const SOURCES: Source[] = [
  {
    host: 'ipinfo.io',
    path: /^\/[^/]+$/,
    address: inPath('/'),
    known: NAMED_AFTER_ADDRESS,
    // ipinfo names the address and nothing else.
    unknown: { file: 'no-data.json', echo: 'ip' },
  },
  {
    host: 'ip-api.com',
    path: /^\/json\/[^/]+$/,
    address: inPath('/json/'),
    known: {
      '8.8.8.8': { en: '8.8.8.8.en.json', de: '8.8.8.8.de.json', fr: '8.8.8.8.fr.json' },
      '1.1.1.1': { en: '1.1.1.1.en.json' },
      '2a01:4f8:c0c:1234::1': { en: `${V6}.en.json`, ja: `${V6}.ja.json` },
      '193.0.6.139': { en: '193.0.6.139.en.json' },
    },
    // ip-api answers "success" with every asked field empty (and 0,0).
    unknown: { file: 'no-data.json', echo: 'query' },
  },
  {
    host: 'api.ip.sb',
    path: /^\/geoip\/[^/]+$/,
    address: inPath('/geoip/'),
    // ip.sb places this anycast network in Australia as a whole, with no town.
    known: { ...NAMED_AFTER_ADDRESS, '1.1.1.1': '1.1.1.1-country-only.json' },
    unknown: { file: 'no-data.json', echo: 'ip' },
  },
  {
    host: 'api.ipapi.is',
    path: '/',
    address: inQuery('q'),
    known: NAMED_AFTER_ADDRESS,
    // ipapi.is leaves out the objects (location, asn, company) it has nothing for.
    unknown: { file: 'no-data.json', echo: 'ip' },
  },
  {
    host: 'api.ip2location.io',
    path: '/',
    address: inQuery('ip'),
    known: NAMED_AFTER_ADDRESS,
    // ip2location fills every field it does not know with "-".
    unknown: { file: 'unknown-fields.json', echo: 'ip' },
  },
  {
    host: PRIVATE_API_HOST,
    path: '/ipinfo',
    address: inQuery('ip'),
    // 8.8.8.8 as for a signed-in caller within quota (the demo's advancedData
    // values), the IPv6 address as for a signed-out one.
    known: {
      '8.8.8.8': 'ipinfo-signed-in.json',
      '1.1.1.1': 'ipinfo-1.1.1.1.json',
      '2a01:4f8:c0c:1234::1': 'ipinfo-de-signed-out.json',
      '193.0.6.139': 'ipinfo-193.0.6.139.json',
    },
    unknown: { file: 'ipinfo-no-data.json', echo: 'ip' },
  },
];

/** The file in `lang` when there is one (any other value, `__proto__` included, gets English), as ip-api does. */
function inLanguage(files: Record<string, string>, lang: string | null): string {
  return lang !== null && Object.hasOwn(files, lang) ? files[lang]! : files.en!;
}

function answer(source: Source, req: Recorded, res: ServerResponse): void {
  const asked = source.address(req);
  const known = demoAddress(asked);
  let body: unknown;
  if (known) {
    const files = source.known[known];
    body = fixture(source.host, typeof files === 'string' ? files : inLanguage(files, req.query.get('lang')));
  } else {
    body = { ...(fixture(source.host, source.unknown.file) as object), [source.unknown.echo]: asked };
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Every geolocation source, answering per address (demo-addresses.ts), and
 * MaxMind's and DB-IP's downloads with small sample databases, so geo-local
 * has a database to load whatever GEODB_PROVIDER says.
 */
export function registerGeoFakeRoutes(fake: FakeUpstream): void {
  serveMaxmind(fake, 'city', maxmindArchive('city', cityDatabase()), PUBLISHED);
  serveMaxmind(fake, 'asn', maxmindArchive('asn', asnDatabase()), PUBLISHED);
  serveDbipEveryMonth(fake, 'city', gzipSync(dbipCityDatabase()));
  serveDbipEveryMonth(fake, 'asn', gzipSync(dbipAsnDatabase()));
  for (const source of SOURCES) fake.on('GET', source.host, source.path, (req, res) => answer(source, req, res));
}
