import { test, after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from '../support/fake-upstream.js';
import { FakeKv } from '../support/fake-kv.js';
import { buildTestApi, call } from '../support/app.js';
import { MAX_REPORT_BYTES, normaliseTtlDays } from '../../routes/reports/index.js';

const ACCOUNT = '023e105f4ecef8ad9ca31a8372d0c353';
const NAMESPACE = '0f2ac74b498b48028cb68387c421e279';
const TOKEN = 'radar-test-token';
const STORE_ENV = { RADAR_API_KEY: TOKEN, KV_ACCOUNT_ID: ACCOUNT, KV_NAMESPACE_ID: NAMESPACE };
const DAY = 24 * 60 * 60 * 1000;

let fake: FakeUpstream;
let kv: FakeKv;
let clock = Date.now();

before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());
beforeEach(() => {
  fake.reset();
  clock = Date.now();
  kv = new FakeKv(fake, { accountId: ACCOUNT, namespaceId: NAMESPACE, token: TOKEN, now: () => clock });
});

function sampleReport() {
  return {
    version: 1,
    createdAt: '2026-11-22T23:50:00.000Z',
    ipCards: [
      {
        source: 'geo-keyed-a',
        ip: '8.8.8.8',
        city: 'Mountain View',
        region: 'California',
        country_name: 'United States',
        country_code: 'US',
        latitude: 37.4056,
        longitude: -122.0775,
        timezone: 'America/Los_Angeles',
        asn: 15169,
        org: 'Google LLC',
      },
      { source: 'geo-keyed-b', ip: '2001:4860:4860::8888', country_code: 'US', isHosting: true, isProxy: false },
    ],
    dnsLeak: { leaking: false, servers: [{ ip: '172.253.226.33', country_code: 'US', asn: 15169, org: 'Google LLC' }] },
    webrtc: { supported: true, leaking: false, candidates: [{ ip: '203.0.113.7', type: 'srflx', protocol: 'udp', stunServer: 'stun.l.google.com' }] },
    connectivity: [
      { target: 'www.google.com', status: 'ok', latencyMs: 23.4 },
      { target: 'github.com', status: 'timeout' },
    ],
    latency: [{ target: 'speed.cloudflare.com', region: 'DE', minMs: 11, avgMs: 14.2, maxMs: 19, lossPercent: 0 }],
    browser: {
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      language: 'en-US',
      languages: ['en-US', 'de'],
      timezone: 'Europe/Berlin',
      platform: 'Linux x86_64',
      screen: { width: 2560, height: 1440, pixelRatio: 1.5, colorDepth: 24 },
      cookiesEnabled: true,
      doNotTrack: false,
    },
  };
}

function post(app: Parameters<typeof call>[0], body: unknown) {
  return call(app, { method: 'POST', url: '/api/report', payload: body as Record<string, unknown> });
}

/** A valid report whose JSON serialisation is exactly `bytes` long (padding through the user agent). */
function reportOfSize(bytes: number) {
  const report = sampleReport();
  const host = (i: number) => `probe-${String(i).padStart(3, '0')}.${'x'.repeat(200)}.example.net`;
  report.connectivity = Array.from({ length: 500 }, (_, i) => ({ target: host(i), status: 'ok', latencyMs: 10 }));
  report.latency = Array.from({ length: 500 }, (_, i) => ({ target: host(i), region: 'DE', minMs: 1, avgMs: 2, maxMs: 3, lossPercent: 0 }));
  let size = Buffer.byteLength(JSON.stringify(report));
  assert.ok(size > bytes, 'the schema allows reports above the cap');
  while (size > bytes) {
    report.latency.pop();
    size = Buffer.byteLength(JSON.stringify(report));
  }
  const padding = bytes - size;
  assert.ok(padding >= 0 && padding <= 400, `padding ${padding}`);
  report.browser.userAgent = report.browser.userAgent.padEnd(report.browser.userAgent.length + padding, 'A');
  assert.equal(Buffer.byteLength(JSON.stringify(report)), bytes);
  return report;
}

test('a report is stored and read back, no-store both ways', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const report = sampleReport();
  const res = await post(app, { report, ttlDays: 3 });
  assert.equal(res.statusCode, 201);
  assert.equal(res.headers['cache-control'], 'no-store');
  const { id, expiresAt } = res.json();
  assert.match(id, /^[A-Za-z0-9_-]{22}$/);
  const ttlMs = Date.parse(expiresAt) - Date.now();
  assert.ok(ttlMs > 3 * DAY - 60_000 && ttlMs <= 3 * DAY, `expiry ${expiresAt}`);

  const [put] = fake.requestsTo('api.cloudflare.com', `/client/v4/accounts/${ACCOUNT}/storage/kv/namespaces/${NAMESPACE}/values/${id}`);
  assert.equal(put?.method, 'PUT');
  assert.equal(put?.query.get('expiration_ttl'), String(3 * 24 * 60 * 60));
  assert.equal(put?.headers.authorization, `Bearer ${TOKEN}`);
  assert.match(String(put?.headers['content-type']), /^multipart\/form-data; boundary=/);
  const entry = kv.entries.get(id);
  assert.deepEqual(JSON.parse(entry!.value), { report, expiresAt });
  assert.deepEqual(JSON.parse(entry!.metadata!), { expiresAt });

  const read = await call(app, `/api/report/${id}`);
  assert.equal(read.statusCode, 200);
  assert.equal(read.headers['cache-control'], 'no-store');
  assert.deepEqual(read.json(), { report, expiresAt });
  await app.close();
});

test('a report expires after its ttl and then answers 404', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const res = await post(app, { report: sampleReport(), ttlDays: 1 });
  const { id } = res.json();
  clock += DAY - 1000;
  assert.equal((await call(app, `/api/report/${id}`)).statusCode, 200);
  clock += 2000;
  const gone = await call(app, `/api/report/${id}`);
  assert.equal(gone.statusCode, 404);
  assert.deepEqual(gone.json(), { error: 'Report not found' });
  assert.equal(gone.headers['cache-control'], 'no-store');
  await app.close();
});

test('an unknown id is 404 and a malformed id is the guard 400', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const unknown = await call(app, '/api/report/AAAAAAAAAAAAAAAAAAAAAA');
  assert.equal(unknown.statusCode, 404);
  const bad = await call(app, '/api/report/short');
  assert.equal(bad.statusCode, 400);
  assert.deepEqual(bad.json(), { error: 'Invalid report id' });
  assert.equal(fake.requestsTo('api.cloudflare.com').length, 1);
  await app.close();
});

test('a store entry past its stored expiry is 404 even while the store still holds it', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  kv.set('BBBBBBBBBBBBBBBBBBBBBB', JSON.stringify({ report: sampleReport(), expiresAt: new Date(Date.now() - 1000).toISOString() }), 3600);
  assert.equal((await call(app, '/api/report/BBBBBBBBBBBBBBBBBBBBBB')).statusCode, 404);
  await app.close();
});

const failures: Array<[string, (r: ReturnType<typeof sampleReport>) => unknown, string]> = [
  ['an unknown key', (r) => ({ ...r, comment: 'hello' }), '/report/comment'],
  ['an unknown key deep inside', (r) => ({ ...r, ipCards: [{ ...r.ipCards[0], note: 'x' }] }), '/report/ipCards/0/note'],
  ['a wrong type', (r) => ({ ...r, ipCards: [{ ...r.ipCards[0], latitude: '37.4' }] }), '/report/ipCards/0/latitude'],
  ['a value out of range', (r) => ({ ...r, ipCards: [{ ...r.ipCards[0], latitude: 91 }] }), '/report/ipCards/0/latitude'],
  ['an unknown enum value', (r) => ({ ...r, ipCards: [{ ...r.ipCards[0], source: 'somewhere' }] }), '/report/ipCards/0/source'],
  ['a string too long', (r) => ({ ...r, ipCards: [{ ...r.ipCards[0], city: 'x'.repeat(101) }] }), '/report/ipCards/0/city'],
  ['markup in a label', (r) => ({ ...r, ipCards: [{ ...r.ipCards[0], org: '<script>alert(1)</script>' }] }), '/report/ipCards/0/org'],
  ['too many items', (r) => ({ ...r, ipCards: Array.from({ length: 17 }, () => r.ipCards[0]) }), '/report/ipCards'],
  ['a missing required field', (r) => ({ ...r, version: undefined }), '/report/version'],
  ['a malformed IP', (r) => ({ ...r, webrtc: { ...r.webrtc, candidates: [{ ...r.webrtc.candidates[0], ip: 'not an ip' }] } }), '/report/webrtc/candidates/0/ip'],
];

for (const [name, mutate, path] of failures) {
  test(`a report with ${name} is 400 with a detail at ${path}`, async () => {
    const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
    const res = await post(app, { report: mutate(sampleReport()), ttlDays: 1 });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.error, 'Invalid report');
    assert.ok(Array.isArray(body.details) && body.details.length > 0 && body.details.length <= 20);
    assert.ok(
      body.details.some((d: { path: string; message: string }) => d.path === path && d.message.length > 0),
      JSON.stringify(body.details),
    );
    assert.equal(fake.requestsTo('api.cloudflare.com').length, 0);
    await app.close();
  });
}

test('a missing key and an unknown key are each named once, at their own path', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const res = await post(app, { report: { ...sampleReport(), version: undefined, comment: 'hello' }, ttlDays: 1 });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json().details, [
    { path: '/report/version', message: 'is required' },
    { path: '/report/comment', message: 'is not allowed' },
  ]);
  await app.close();
});

test('a body without a report, or not an object, is 400 Invalid report', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  for (const body of [{ ttlDays: 1 }, [1, 2], { report: 'text' }]) {
    const res = await post(app, body);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error, 'Invalid report');
  }
  await app.close();
});

test('the 256 KB cap: exactly at the cap is stored, one byte over is 413', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const atCap = await post(app, { report: reportOfSize(MAX_REPORT_BYTES), ttlDays: 1 });
  assert.equal(atCap.statusCode, 201);
  const over = await post(app, { report: reportOfSize(MAX_REPORT_BYTES + 1), ttlDays: 1 });
  assert.equal(over.statusCode, 413);
  assert.deepEqual(over.json(), { error: 'Report too large' });
  assert.equal(kv.entries.size, 1);
  await app.close();
});

test('the 500 KB JSON body limit sits above the report cap', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  // 400 KB reaches the handler (its own 413 body), 600 KB is refused by the body parser.
  const mid = await post(app, { report: { ...sampleReport(), filler: 'x'.repeat(400 * 1024) }, ttlDays: 1 });
  assert.equal(mid.statusCode, 413);
  assert.deepEqual(mid.json(), { error: 'Report too large' });
  const huge = await post(app, { report: { ...sampleReport(), filler: 'x'.repeat(600 * 1024) }, ttlDays: 1 });
  assert.equal(huge.statusCode, 413);
  assert.notDeepEqual(huge.json(), { error: 'Report too large' });
  await app.close();
});

test('ttlDays 1, 3 and 7 are kept, anything else becomes 1', async () => {
  assert.deepEqual([1, 3, 7].map(normaliseTtlDays), [1, 3, 7]);
  for (const value of [0, 2, 30, -1, 3.5, '3', null, undefined, {}]) assert.equal(normaliseTtlDays(value), 1);
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  for (const [ttlDays, seconds] of [[7, 604800], [30, 86400], ['7', 86400], [undefined, 86400]] as const) {
    fake.requests.length = 0;
    const res = await post(app, { report: sampleReport(), ttlDays });
    assert.equal(res.statusCode, 201);
    assert.equal(fake.requestsTo('api.cloudflare.com')[0]?.query.get('expiration_ttl'), String(seconds));
  }
  await app.close();
});

test('without all three store settings both routes answer 503, even for a bad body', async () => {
  for (const missing of ['RADAR_API_KEY', 'KV_ACCOUNT_ID', 'KV_NAMESPACE_ID'] as const) {
    const env: Record<string, string> = { UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV };
    delete env[missing];
    const { app } = await buildTestApi(env);
    for (const res of [
      await post(app, { report: sampleReport(), ttlDays: 1 }),
      await post(app, { report: { bogus: true } }),
      await call(app, '/api/report/AAAAAAAAAAAAAAAAAAAAAA'),
    ]) {
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { error: 'Report sharing is not configured' });
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    const flags = await call(app, '/api/configs');
    assert.equal(flags.json().reportSharing, false);
    await app.close();
  }
  assert.equal(fake.requestsTo('api.cloudflare.com').length, 0);
});

test('a store outage is a logged 502, never a success', async () => {
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  kv.down = true;
  const res = await post(app, { report: sampleReport(), ttlDays: 1 });
  assert.equal(res.statusCode, 502);
  assert.deepEqual(res.json(), { error: 'Report store unavailable' });
  assert.equal(kv.entries.size, 0);
  const read = await call(app, '/api/report/AAAAAAAAAAAAAAAAAAAAAA');
  assert.equal(read.statusCode, 502);
  const failed = logs.find('request failed');
  assert.equal(failed.length, 2);
  assert.match(JSON.stringify(failed[0]), /"status":500/);
  assert.ok(!logs.text.includes(TOKEN));
  await app.close();
});

test('a refused write (wrong token) and an unreachable store are 502 too', async () => {
  const wrong = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV, RADAR_API_KEY: 'other-token' });
  const refused = await post(wrong.app, { report: sampleReport(), ttlDays: 1 });
  assert.equal(refused.statusCode, 502);
  assert.match(JSON.stringify(wrong.logs.find('request failed')), /Authentication error/);
  await wrong.app.close();

  fake.on('PUT', 'api.cloudflare.com', /.*/, { destroy: true });
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const dropped = await post(app, { report: sampleReport(), ttlDays: 1 });
  assert.equal(dropped.statusCode, 502);
  assert.equal(logs.find('request failed').length, 1);
  await app.close();
});
