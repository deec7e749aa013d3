import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from '../support/fake-upstream.js';
import { assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { registerRadarFakeRoutes } from '../support/fake-routes/asn.js';
import { dataDir, type DataDir } from './helpers.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const RADAR = 'api.cloudflare.com';
const R = '/client/v4/radar';
const KEYED = (fake: FakeUpstream, extra: Record<string, string> = {}) => ({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, RADAR_API_KEY: 'radar-secret', ...extra });

const fake = fakeUpstreamPerFile(registerRadarFakeRoutes);

test('no view is 400 "No view provided", not cacheable', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  await assertGuardErrors(app, ['/api/asn-radar', '/api/asn-radar?view='].map((url) => [url, 'No view provided'] as const));
  await app.close();
});

test('an unknown view is 400 "Invalid view"', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  const urls = ['/api/asn-radar?view=bgp', '/api/asn-radar?view=ASN', '/api/asn-radar?view=toString', '/api/asn-radar?view=asn&view=outages'];
  await assertGuardErrors(app, urls.map((url) => [url, 'Invalid view'] as const));
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test("each view's guard answers before the key check, on a key-less deployment", async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const cases: Array<[string, string]> = [
    ['/api/asn-radar?view=asn', 'No ASN provided'],
    ['/api/asn-radar?view=asn&asn=', 'No ASN provided'],
    ['/api/asn-radar?view=asn&asn=cloudflare', 'Invalid ASN'],
    ['/api/asn-radar?view=asn&asn=AS99999999999', 'Invalid ASN'],
    ['/api/asn-radar?view=asn&asn=1&asn=2', 'Invalid ASN'],
    ['/api/asn-radar?view=activity', 'No country provided'],
    ['/api/asn-radar?view=activity&country=DEU', 'Invalid country'],
    ['/api/asn-radar?view=activity&country=1a', 'Invalid country'],
  ];
  await assertGuardErrors(app, cases);
  await app.close();
});

test('a valid request without RADAR_API_KEY is 500 "API key is missing", for every view', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  for (const url of ['/api/asn-radar?view=asn&asn=AS13335', '/api/asn-radar?view=outages', '/api/asn-radar?view=activity&country=de']) {
    const res = await call(app, url);
    assert.equal(res.statusCode, 500, url);
    assert.deepEqual(res.json(), { error: 'API key is missing' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('any method but GET is 405', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
    const res = await call(app, { method, url: '/api/asn-radar?view=outages' });
    assert.equal(res.statusCode, 405, method);
    assert.deepEqual(res.json(), { error: 'Method Not Allowed' });
  }
  await app.close();
});

test('the asn view gathers every segment with one bearer key, cacheable for 30 days', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=asn&asn=as13335');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  const body = res.json();
  assert.equal(body.view, 'asn');
  assert.equal(body.asn, 13335);
  assert.deepEqual(body.entity, { asn: 13335, name: 'CLOUDFLARENET', orgName: 'Cloudflare, Inc.', country: 'US', countryName: 'United States', website: 'https://www.cloudflare.com' });
  assert.deepEqual(body.traffic.ipVersion, { IPv4: 71.394528, IPv6: 28.605472 });
  assert.deepEqual(body.traffic.httpProtocol, { http: 3.112091, https: 96.887909 });
  assert.deepEqual(body.traffic.deviceType, { desktop: 58.203411, mobile: 41.519783, other: 0.276806 });
  assert.deepEqual(body.traffic.botClass, { bot: 62.418806, human: 37.581194 });
  assert.deepEqual(body.prefixes, { ipv4: 1717, ipv6: 1196 });
  assert.deepEqual(body.relationships, { upstreams: 2, downstreams: 1, peers: 2, source: 'radar' });
  assert.equal(body.speed.bandwidthDownload, 287.512043);
  assert.equal(body.speed.latencyIdle, 14.5);
  assert.equal(body.speed.jitterIdle, 3.411764);
  assert.deepEqual(body.missing, []);

  const sent = fake.requestsTo(RADAR);
  assert.equal(sent.length, 8);
  for (const r of sent) assert.equal(r.headers.authorization, 'Bearer radar-secret');
  const summary = fake.requestsTo(RADAR, `${R}/http/summary/ip_version`)[0]!;
  assert.equal(summary.query.get('asn'), '13335');
  assert.equal(summary.query.get('dateRange'), '7d');
  assert.equal(fake.requestsTo(RADAR, `${R}/bgp/routes/stats`)[0]!.query.get('asn'), '13335');
  assert.equal(fake.requestsTo(RADAR, `${R}/quality/speed/summary`)[0]!.query.get('asn'), '13335');
  assert.equal(fake.requestsTo(RADAR, `${R}/entities/asns/13335/rel`).length, 1);
  await app.close();
});

test('failed segments are logged and served as null, relationship counts fall back to the local snapshot', async (t) => {
  const dir: DataDir = await dataDir({ relationships: true });
  t.after(() => dir.remove());
  fake.on('GET', RADAR, `${R}/quality/speed/summary`, { status: 500, json: { success: false, errors: [{ code: 10000, message: 'Internal' }] } });
  fake.on('GET', RADAR, /\/rel$/, { destroy: true });
  fake.on('GET', RADAR, `${R}/http/summary/bot_class`, { json: { success: false, errors: [{ code: 1001, message: 'no data' }], result: null } });
  const { app, logs } = await buildTestApi(KEYED(fake, { DATA_DIR: dir.path }));
  await app.lifecycle.boot();
  const res = await call(app, '/api/asn-radar?view=asn&asn=13335');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.speed, null);
  assert.equal(body.traffic.botClass, null);
  assert.deepEqual(body.traffic.ipVersion, { IPv4: 71.394528, IPv6: 28.605472 });
  assert.equal(body.entity.name, 'CLOUDFLARENET');
  // From the fixture snapshot: providers 174, 6939, 8220, 9002; peer 15169; no customers.
  assert.deepEqual(body.relationships, { upstreams: 4, downstreams: 0, peers: 1, source: 'local' });
  assert.deepEqual([...body.missing].sort(), ['botClass', 'relationships', 'speed']);
  const warned = logs.find('radar segment failed').map((l) => l.segment).sort();
  assert.deepEqual(warned, ['botClass', 'relationships', 'speed']);
  assert.ok(!logs.text.includes('radar-secret'));
  await app.close();
});

test('a failed relationships segment without a local snapshot is served as null', async () => {
  fake.on('GET', RADAR, /\/rel$/, { status: 503, json: { success: false } });
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=asn&asn=13335');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().relationships, null);
  assert.deepEqual(res.json().missing, ['relationships']);
  await app.close();
});

test('a total radar failure is 500, not cacheable', async () => {
  fake.reset();
  fake.on('GET', RADAR, /.*/, { status: 502, body: 'bad gateway' });
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=asn&asn=13335');
  assert.equal(res.statusCode, 500);
  assert.equal(typeof res.json().error, 'string');
  assert.equal(res.headers['cache-control'], 'no-store');
  await app.close();
});

test('the outages view asks for a week of outage annotations, cacheable for an hour', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=outages');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=3600');
  const body = res.json();
  assert.equal(body.view, 'outages');
  assert.equal(body.dateRange, '7d');
  assert.equal(body.outages.length, 2);
  assert.deepEqual(body.outages[0], {
    id: '3217',
    dataSource: 'ALL',
    eventType: 'OUTAGE',
    description: 'Power outage affected connectivity across several regions.',
    scope: 'Multiple regions',
    startDate: '2026-11-19T14:05:00Z',
    endDate: '2026-11-19T19:40:00Z',
    locations: ['CU'],
    asns: [27725],
    outageCause: 'POWER_OUTAGE',
    outageType: 'REGIONAL',
    linkedUrl: 'https://x.com/CloudflareRadar/status/0000000000000000000',
  });
  assert.equal(body.outages[1].endDate, null);
  const [sent] = fake.requestsTo(RADAR, `${R}/annotations/outages`);
  assert.equal(sent!.query.get('dateRange'), '7d');
  assert.equal(sent!.query.get('limit'), '100');
  assert.equal(sent!.headers.authorization, 'Bearer radar-secret');
  await app.close();
});

test('the activity view builds a day-by-hour heatmap for the upper-cased country, cacheable for an hour', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=activity&country=de');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=3600');
  const body = res.json();
  assert.equal(body.view, 'activity');
  assert.equal(body.country, 'DE');
  assert.equal(body.days.length, 7);
  assert.equal(body.days[0].date, '2026-11-16');
  for (const day of body.days) assert.equal(day.hours.length, 24);
  assert.equal(body.days[4].hours[19], 1);
  const [sent] = fake.requestsTo(RADAR, `${R}/http/timeseries`);
  assert.equal(sent!.query.get('location'), 'DE');
  assert.equal(sent!.query.get('dateRange'), '7d');
  assert.equal(sent!.query.get('aggInterval'), '1h');
  assert.equal(sent!.query.get('normalization'), 'MIN0_MAX');
  assert.equal(sent!.headers.authorization, 'Bearer radar-secret');
  await app.close();
});

test('a failed outages or activity upstream is 500, not cacheable', async () => {
  fake.on('GET', RADAR, `${R}/annotations/outages`, { status: 429, json: { success: false, errors: [{ message: 'rate limited' }] } });
  fake.on('GET', RADAR, `${R}/http/timeseries`, { body: 'not json' });
  const { app } = await buildTestApi(KEYED(fake));
  for (const url of ['/api/asn-radar?view=outages', '/api/asn-radar?view=activity&country=DE']) {
    const res = await call(app, url);
    assert.equal(res.statusCode, 500, url);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.ok(!res.body.includes('stack'));
  }
  await app.close();
});
