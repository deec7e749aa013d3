import type { ServerResponse } from 'node:http';
import { fixture, fixtureBytes, type FakeUpstream } from '../fake-upstream.js';

/** The private API host the fixtures of test/fixtures/private-api.example stand for. */
export const PRIVATE_API_HOST = 'private-api.example';
export const FAKE_PRIVATE_ENV = { PRIVATE_API_KEY: 'fake-private-key', PRIVATE_API_ENDPOINT: `https://${PRIVATE_API_HOST}` };
export const FAKE_MAP_ENV = { MAP_API_KEY: 'fake-map-key-1,fake-map-key-2' };

const json = (res: ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Success answers of OONI, Globalping, maclookup.app, Static Maps and the private API's tools and user profile. */
export function registerNetworkToolsFakeRoutes(fake: FakeUpstream): void {
  fake.on('GET', 'api.ooni.io', '/api/v1/aggregation', (req, res) =>
    json(res, fixture('api.ooni.io', req.query.get('domain')?.startsWith('www.') ? 'aggregation-www.example.com.json' : 'aggregation-example.com.json')),
  );
  fake.on('GET', 'api.globalping.io', '/v1/probes', { json: fixture('api.globalping.io', 'probes.json') });
  fake.on('GET', 'api.maclookup.app', /^\/v2\/macs\/[0-9A-F]{12}$/, { json: fixture('api.maclookup.app', 'found.json') });
  fake.on('GET', 'maps.googleapis.com', '/maps/api/staticmap', {
    body: fixtureBytes('maps.googleapis.com', 'staticmap.jpg'),
    headers: { 'content-type': 'image/jpeg' },
  });
  fake.on('GET', PRIVATE_API_HOST, /^\/dnsleaktest\/session\/[0-9a-f]{32}$/, { json: fixture(PRIVATE_API_HOST, 'dnsleaktest-session.json') });
  fake.on('GET', PRIVATE_API_HOST, '/invisibility', { json: fixture(PRIVATE_API_HOST, 'invisibility-result.json') });
  fake.on('POST', PRIVATE_API_HOST, '/persona/evaluate', { json: fixture(PRIVATE_API_HOST, 'persona-evaluation.json') });
  fake.on('GET', PRIVATE_API_HOST, '/getuserinfo', { json: fixture(PRIVATE_API_HOST, 'getuserinfo.json') });
  fake.on('PUT', PRIVATE_API_HOST, '/updateuserachievement', { json: fixture(PRIVATE_API_HOST, 'updateuserachievement.json') });
}
