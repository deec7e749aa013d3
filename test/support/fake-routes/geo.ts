import type { FakeUpstream, Recorded } from '../fake-upstream.js';
import { fixture } from '../fake-upstream.js';
import { maxmindArchive, serveMaxmind } from '../fake-maxmind.js';
import { EXAMPLE_PRIVATE_API_HOST as PRIVATE_API_HOST } from '../../../routes/example-request.js';
import { asnDatabase, cityDatabase } from '../sample-geo-databases.js';

const V6 = '2a01:4f8:c0c:1234::1';
const V6_FILE = '2a01-4f8-c0c-1234--1';

const isV6 = (ip: string | null) => ip === V6;
const json = (res: import('node:http').ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const PUBLISHED = new Date('2026-11-20T00:00:00Z');

/**
 * Success answers of the geolocation sources (8.8.8.8 and 2a01:4f8:c0c:1234::1
 * have fixtures, other addresses get the IPv4 one) and MaxMind's download
 * service with the small sample databases, so geo-local has a database to load.
 * The companion API answers 8.8.8.8 as for a signed-in caller within quota
 * (the demo's advancedData values) and the IPv6 address as for a signed-out one.
 */
export function registerGeoFakeRoutes(fake: FakeUpstream): void {
  serveMaxmind(fake, 'city', maxmindArchive('city', cityDatabase()), PUBLISHED);
  serveMaxmind(fake, 'asn', maxmindArchive('asn', asnDatabase()), PUBLISHED);
  fake.on('GET', 'ipinfo.io', /^\/[^/]+$/, (req: Recorded, res) =>
    json(res, fixture('ipinfo.io', isV6(decodeURIComponent(req.path.slice(1))) ? `${V6_FILE}.json` : '8.8.8.8.json')),
  );
  fake.on('GET', 'ip-api.com', /^\/json\/[^/]+$/, (req, res) => {
    const v6 = isV6(decodeURIComponent(req.path.slice('/json/'.length)));
    json(
      res,
      fixture(
        'ip-api.com',
        v6 ? `${V6_FILE}.ja.json` : req.query.get('lang') === 'de' ? '8.8.8.8.de.json' : '8.8.8.8.en.json',
      ),
    );
  });
  fake.on('GET', 'api.ip.sb', /^\/geoip\/[^/]+$/, (req, res) =>
    json(
      res,
      fixture(
        'api.ip.sb',
        isV6(decodeURIComponent(req.path.slice('/geoip/'.length))) ? `${V6_FILE}.json` : '8.8.8.8.json',
      ),
    ),
  );
  fake.on('GET', 'api.ipapi.is', '/', (req, res) =>
    json(res, fixture('api.ipapi.is', isV6(req.query.get('q')) ? `${V6_FILE}.json` : '8.8.8.8.json')),
  );
  fake.on('GET', 'api.ip2location.io', '/', (req, res) =>
    json(res, fixture('api.ip2location.io', isV6(req.query.get('ip')) ? `${V6_FILE}.json` : '8.8.8.8.json')),
  );
  fake.on('GET', PRIVATE_API_HOST, '/ipinfo', (req, res) =>
    json(
      res,
      fixture(PRIVATE_API_HOST, isV6(req.query.get('ip')) ? 'ipinfo-de-signed-out.json' : 'ipinfo-signed-in.json'),
    ),
  );
}
