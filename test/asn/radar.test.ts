import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { fixture, type FakeUpstream } from '../support/fake-upstream.js';
import { assertErrorAnswer, assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { registerRadarFakeRoutes } from '../support/fake-routes/asn.js';
import { dataDir, type DataDir } from './helpers.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const RADAR = 'api.cloudflare.com';
const R = '/client/v4/radar';
const KEYED = (fake: FakeUpstream, extra: Record<string, string> = {}) => ({
  UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
  RADAR_API_KEY: 'radar-secret',
  ...extra,
});

const fake = fakeUpstreamPerFile(registerRadarFakeRoutes);

test('no view is 400 "No view provided", not cacheable', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  await assertGuardErrors(
    app,
    ['/api/asn-radar', '/api/asn-radar?view='].map((url) => [url, 'No view provided'] as const),
  );
  await app.close();
});

test('an unknown view is 400 "Invalid view"', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  const urls = [
    '/api/asn-radar?view=bgp',
    '/api/asn-radar?view=ASN',
    '/api/asn-radar?view=toString',
    '/api/asn-radar?view=asn&view=outages',
  ];
  await assertGuardErrors(
    app,
    urls.map((url) => [url, 'Invalid view'] as const),
  );
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
  for (const url of [
    '/api/asn-radar?view=asn&asn=AS13335',
    '/api/asn-radar?view=outages',
    '/api/asn-radar?view=activity&country=de',
  ]) {
    const res = await call(app, url);
    assertErrorAnswer(res, 500, 'API key is missing', url);
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('any method but GET is 405, HEAD included, whatever body comes with it', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  const methods = app.supportedMethods.filter((m) => m !== 'GET');
  assert.ok(methods.includes('HEAD') && methods.includes('POST') && methods.includes('OPTIONS'));
  for (const method of methods) {
    const res = await call(app, { method: method as InjectOptions['method'], url: '/api/asn-radar?view=outages' });
    assert.equal(res.statusCode, 405, `${method}: ${res.body}`);
    assert.equal(res.headers['cache-control'], 'no-store', method);
    if (method !== 'HEAD') assert.deepEqual(res.json(), { error: 'Method Not Allowed' }, method);
  }
  for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'application/x-unknown' }]) {
    const res = await call(app, { method: 'POST', url: '/api/asn-radar?view=outages', headers, payload: '{not json' });
    assertErrorAnswer(res, 405, 'Method Not Allowed', headers['content-type']);
  }
  assert.equal(fake.requests.length, 0);
  assert.equal((await call(app, '/api/asn-radar?view=outages')).statusCode, 200);
  await app.close();
});

test("the asn view: the contract's flat fields as strings, the spec's extras beside them, one bearer key, cacheable for 30 days", async () => {
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=asn&asn=as13335');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  assert.deepEqual(res.json(), {
    asnName: 'CLOUDFLARENET',
    asnCountryCode: 'US',
    asnOrgName: 'Cloudflare, Inc.',
    estimatedUsers: '2,413,579',
    IPv4_Pct: '71.39%',
    IPv6_Pct: '28.61%',
    HTTP_Pct: '3.11%',
    HTTPS_Pct: '96.89%',
    Desktop_Pct: '58.20%',
    Mobile_Pct: '41.52%',
    Bot_Pct: '62.42%',
    Human_Pct: '37.58%',
    prefixes: { ipv4: 1717, ipv6: 1196 },
    relationships: { upstreams: 2, downstreams: 1, peers: 2, source: 'radar' },
    speed: {
      bandwidthDownload: 287.512043,
      bandwidthUpload: 96.027411,
      latencyIdle: 14.5,
      latencyLoaded: 48.916666,
      jitterIdle: 3.411764,
      jitterLoaded: 12.871794,
      packetLoss: 0.322581,
    },
    missing: [],
  });

  const sent = fake.requestsTo(RADAR);
  assert.equal(sent.length, 8);
  for (const r of sent) assert.equal(r.headers.authorization, 'Bearer radar-secret');
  assert.equal(fake.requestsTo(RADAR, `${R}/entities/asns/13335`).length, 2);
  for (const dimension of ['ip_version', 'http_protocol', 'device_type', 'bot_class']) {
    const [summary] = fake.requestsTo(RADAR, `${R}/http/summary/${dimension}`);
    assert.equal(summary!.query.get('asn'), '13335', dimension);
    assert.equal(summary!.query.get('dateRange'), '7d', dimension);
  }
  assert.equal(fake.requestsTo(RADAR, `${R}/bgp/routes/stats`)[0]!.query.get('asn'), '13335');
  assert.equal(fake.requestsTo(RADAR, `${R}/quality/speed/summary`)[0]!.query.get('asn'), '13335');
  assert.equal(fake.requestsTo(RADAR, `${R}/entities/asns/13335/rel`).length, 1);
  await app.close();
});

test('a flat field is absent, never null, when its segment failed or its value is not a number', async () => {
  const entity = fixture(RADAR, 'radar-entities-asns-13335.json') as { result: { asn: Record<string, unknown> } };
  entity.result.asn.estimatedUsers = { locations: [], estimatedUsers: null };
  entity.result.asn.orgName = '';
  fake.on('GET', RADAR, `${R}/entities/asns/13335`, { json: entity });
  fake.on('GET', RADAR, `${R}/http/summary/device_type`, {
    json: { success: true, result: { summary_0: { desktop: 'n/a', mobile: '41.519783' } } },
  });
  fake.on('GET', RADAR, `${R}/http/summary/bot_class`, {
    json: { success: false, errors: [{ code: 1001, message: 'no data' }], result: null },
  });
  const { app } = await buildTestApi(KEYED(fake));
  const body = (await call(app, '/api/asn-radar?view=asn&asn=13335')).json();
  for (const field of ['estimatedUsers', 'asnOrgName', 'Desktop_Pct', 'Bot_Pct', 'Human_Pct']) {
    assert.equal(field in body, false, field);
  }
  assert.equal(body.asnName, 'CLOUDFLARENET');
  assert.equal(body.Mobile_Pct, '41.52%');
  assert.equal(body.IPv4_Pct, '71.39%');
  assert.deepEqual(body.missing, ['botClass']);
  await app.close();
});

test('failed segments are logged and left out, relationship counts fall back to the local snapshot', async (t) => {
  const dir: DataDir = await dataDir({ relationships: true });
  t.after(() => dir.remove());
  fake.on('GET', RADAR, `${R}/quality/speed/summary`, {
    status: 500,
    json: { success: false, errors: [{ code: 10000, message: 'Internal' }] },
  });
  fake.on('GET', RADAR, /\/rel$/, { destroy: true });
  fake.on('GET', RADAR, `${R}/http/summary/ip_version`, { body: '<html>502 Bad Gateway</html>' });
  const { app, logs } = await buildTestApi(KEYED(fake, { DATA_DIR: dir.path }));
  await app.lifecycle.boot();
  const res = await call(app, '/api/asn-radar?view=asn&asn=13335');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.speed, null);
  assert.equal('IPv4_Pct' in body, false);
  assert.equal('IPv6_Pct' in body, false);
  assert.equal(body.HTTPS_Pct, '96.89%');
  assert.equal(body.asnName, 'CLOUDFLARENET');
  // From the fixture snapshot: providers 174, 6939, 8220, 9002; peer 15169; no customers.
  assert.deepEqual(body.relationships, { upstreams: 4, downstreams: 0, peers: 1, source: 'local' });
  assert.deepEqual([...body.missing].sort(), ['ipVersion', 'relationships', 'speed']);
  const warned = logs
    .find('radar segment failed')
    .map((l) => l.segment)
    .sort();
  assert.deepEqual(warned, ['ipVersion', 'relationships', 'speed']);
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

test('the asn view failing in every segment is 500 "Internal server error", not cacheable', async () => {
  fake.reset();
  fake.on('GET', RADAR, /.*/, { status: 502, body: 'bad gateway' });
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=asn&asn=13335');
  assertErrorAnswer(res, 500, 'Internal server error');
  await app.close();
});

interface OutageEvent {
  kind: string;
  id: string;
  startDate: string;
  endDate: string | null;
  locations: string[];
  asns: Array<{ asn: number; name: string }>;
  cause: string | null;
  level: string | null;
  description: string | null;
  scope: string | null;
  linkedUrl: string | null;
}

test('the outages view: 30 days of outages and anomalies as one feed, ongoing first, cacheable for an hour', async () => {
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=outages');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=3600');
  const body = res.json() as { events: OutageEvent[] };
  assert.deepEqual(Object.keys(body), ['events']);
  assert.deepEqual(
    body.events.map((e) => e.id),
    [
      'a-5f0c3b7e-2a41-4d4e-9c55-1b8e0f6a7d21',
      'o-3214',
      'a-b7d91a02-6c3f-48a5-a0e4-93f2c1d5e8b6',
      'o-3217',
      'a-c2e85f47-1d09-4b6a-b3f8-7a40d6e92c13',
    ],
  );
  const [pakistan, iraq, bharti, cuba, etecsa] = body.events;
  assert.deepEqual(cuba, {
    kind: 'outage',
    id: 'o-3217',
    startDate: '2026-11-19T14:05:00Z',
    endDate: '2026-11-19T19:40:00Z',
    locations: ['CU'],
    asns: [{ asn: 27725, name: 'ETECSA' }],
    cause: 'POWER_OUTAGE',
    level: 'REGIONAL',
    description: 'Power outage affected connectivity across several regions.',
    scope: 'Multiple regions',
    linkedUrl: 'https://x.com/CloudflareRadar/status/0000000000000000000',
  });
  assert.deepEqual(iraq, {
    kind: 'outage',
    id: 'o-3214',
    startDate: '2026-11-17T05:00:00Z',
    endDate: null,
    locations: ['IQ'],
    asns: [],
    cause: 'GOVERNMENT_DIRECTED',
    level: 'NATIONWIDE',
    description: 'Government-directed shutdown during exams.',
    scope: null,
    linkedUrl: null,
  });
  assert.deepEqual(pakistan, {
    kind: 'anomaly',
    id: 'a-5f0c3b7e-2a41-4d4e-9c55-1b8e0f6a7d21',
    startDate: '2026-11-22T09:00:00Z',
    endDate: null,
    locations: ['PK'],
    asns: [],
    cause: null,
    level: null,
    description: null,
    scope: null,
    linkedUrl: null,
  });
  assert.deepEqual(bharti!.asns, [{ asn: 45609, name: 'BHARTI-MOBILITY-AS-AP' }]);
  assert.deepEqual(bharti!.locations, []);
  // Shares ETECSA with the Cuba outage, but started eight days before it: a separate event.
  assert.equal(etecsa!.kind, 'anomaly');

  const [outages] = fake.requestsTo(RADAR, `${R}/annotations/outages`);
  assert.equal(outages!.query.get('dateRange'), '30d');
  assert.equal(outages!.query.get('limit'), '50');
  assert.equal(outages!.headers.authorization, 'Bearer radar-secret');
  const [anomalies] = fake.requestsTo(RADAR, `${R}/traffic_anomalies`);
  assert.equal(anomalies!.query.get('dateRange'), '30d');
  assert.equal(anomalies!.query.get('limit'), '100');
  assert.equal(anomalies!.headers.authorization, 'Bearer radar-secret');
  await app.close();
});

test('an anomaly is dropped when it shares a location or an ASN with an outage that started within 24 hours of it', async () => {
  const outage = (id: number, startDate: string, location: string, asn?: number) => ({
    id: String(id),
    startDate,
    endDate: '2026-11-20T00:00:00Z',
    locationsDetails: [{ code: location, name: location }],
    asnsDetails: asn ? [{ asn: String(asn), name: `AS-${asn}` }] : [],
    outage: { outageCause: 'CABLE_CUT', outageType: 'NETWORK' },
  });
  const anomaly = (uuid: string, startDate: string, detail: { location?: string; asn?: number }) => ({
    uuid,
    type: detail.asn ? 'AS' : 'LOCATION',
    status: 'VERIFIED',
    startDate,
    endDate: '2026-11-20T00:00:00Z',
    ...(detail.location ? { locationDetails: { code: detail.location, name: detail.location } } : {}),
    ...(detail.asn ? { asnDetails: { asn: String(detail.asn), name: `AS-${detail.asn}` } } : {}),
  });
  fake.on('GET', RADAR, `${R}/annotations/outages`, {
    json: { success: true, result: { annotations: [outage(1, '2026-11-18T12:00:00Z', 'GH', 30986)] } },
  });
  fake.on('GET', RADAR, `${R}/traffic_anomalies`, {
    json: {
      success: true,
      result: {
        trafficAnomalies: [
          anomaly('same-country-23h-later', '2026-11-19T11:00:00Z', { location: 'GH' }),
          anomaly('same-asn-23h-earlier', '2026-11-17T13:00:00Z', { asn: 30986 }),
          anomaly('same-country-25h-later', '2026-11-19T13:00:00Z', { location: 'GH' }),
          anomaly('other-country-same-time', '2026-11-18T10:00:00Z', { location: 'TG' }),
        ],
      },
    },
  });
  const { app } = await buildTestApi(KEYED(fake));
  const ids = ((await call(app, '/api/asn-radar?view=outages')).json() as { events: OutageEvent[] }).events.map(
    (e) => e.id,
  );
  assert.deepEqual(ids, ['a-same-country-25h-later', 'o-1', 'a-other-country-same-time']);
  await app.close();
});

test('at most 30 events: every ongoing one first, then the newest start first; entries without an id or a start are skipped', async () => {
  const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n)).toISOString();
  const annotations = Array.from({ length: 25 }, (_, i) => ({
    id: String(100 + i),
    startDate: day(i),
    endDate: i % 10 === 0 ? null : day(i + 1),
    locationsDetails: [],
  }));
  annotations.push({ id: '999', startDate: 'not a date', endDate: null, locationsDetails: [] });
  const trafficAnomalies = Array.from({ length: 25 }, (_, i) => ({
    uuid: `u${i}`,
    startDate: day(i),
    endDate: i === 3 ? null : day(i + 1),
    status: 'VERIFIED',
    type: 'LOCATION',
  }));
  trafficAnomalies.push({
    startDate: day(28),
    endDate: null,
    status: 'VERIFIED',
    type: 'LOCATION',
  } as (typeof trafficAnomalies)[number]);
  fake.on('GET', RADAR, `${R}/annotations/outages`, { json: { success: true, result: { annotations } } });
  fake.on('GET', RADAR, `${R}/traffic_anomalies`, { json: { success: true, result: { trafficAnomalies } } });
  const { app } = await buildTestApi(KEYED(fake));
  const events = ((await call(app, '/api/asn-radar?view=outages')).json() as { events: OutageEvent[] }).events;
  assert.equal(events.length, 30);
  assert.deepEqual(
    events.slice(0, 4).map((e) => e.id),
    ['o-120', 'o-110', 'a-u3', 'o-100'],
  );
  const ended = events.slice(4);
  assert.ok(ended.every((e) => e.endDate !== null));
  for (let i = 1; i < ended.length; i++) assert.ok(ended[i - 1]!.startDate >= ended[i]!.startDate);
  assert.equal(ended[0]!.startDate, day(24));
  await app.close();
});

test('one outage source failing is logged and the other served', async () => {
  const { app, logs } = await buildTestApi(KEYED(fake));
  fake.on('GET', RADAR, `${R}/traffic_anomalies`, { status: 503, body: 'unavailable' });
  let res = await call(app, '/api/asn-radar?view=outages');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(
    (res.json() as { events: OutageEvent[] }).events.map((e) => e.id),
    ['o-3214', 'o-3217'],
  );
  assert.deepEqual(
    logs.find('radar outage source failed').map((l) => l.source),
    ['traffic_anomalies'],
  );
  await app.close();
  fake.reset();
  registerRadarFakeRoutes(fake);
  fake.on('GET', RADAR, `${R}/annotations/outages`, { destroy: true });
  // A fresh app, its own log: the first app keeps the outage feed it was given.
  const fresh = await buildTestApi(KEYED(fake));
  res = await call(fresh.app, '/api/asn-radar?view=outages');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(
    (res.json() as { events: OutageEvent[] }).events.map((e) => e.kind),
    ['anomaly', 'anomaly', 'anomaly', 'anomaly'],
  );
  assert.deepEqual(
    fresh.logs.find('radar outage source failed').map((l) => l.source),
    ['annotations/outages'],
  );
  await fresh.app.close();
});

test('both outage sources failing is 500 "Internal server error", not cacheable', async () => {
  fake.on('GET', RADAR, `${R}/annotations/outages`, {
    status: 429,
    json: { success: false, errors: [{ message: 'rate limited' }] },
  });
  fake.on('GET', RADAR, `${R}/traffic_anomalies`, {
    json: { success: false, errors: [{ message: 'no data' }], result: null },
  });
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=outages');
  assertErrorAnswer(res, 500, 'Internal server error');
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

test('a failed activity upstream is 500, not cacheable', async () => {
  fake.on('GET', RADAR, `${R}/http/timeseries`, { body: 'not json' });
  const { app } = await buildTestApi(KEYED(fake));
  const res = await call(app, '/api/asn-radar?view=activity&country=DE');
  assertErrorAnswer(res, 500, 'Internal server error');
  await app.close();
});
