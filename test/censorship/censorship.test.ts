import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, call } from '../support/app.js';
import { measurementWindow, merge, tier, variants } from '../../routes/censorship/index.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const HOST = 'api.ooni.io';
const PATH = '/api/v1/aggregation';
const CALLER_SECRETS = { authorization: 'Bearer caller-token', cookie: 'session=caller-cookie' };

const fake = fakeUpstreamPerFile();

function answerBoth(
  www: { status?: number; json?: unknown } = { json: fixture(HOST, 'aggregation-www.example.com.json') },
) {
  fake.on('GET', HOST, PATH, (req, res) => {
    const isWww = req.query.get('domain')?.startsWith('www.');
    const answer = isWww ? www : { json: fixture(HOST, 'aggregation-example.com.json') };
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json ?? {}));
  });
}

async function api() {
  return (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, SITE_URL: 'https://example.org' })).app;
}

test('window covers the 30 whole UTC days before today, today excluded', () => {
  assert.deepEqual(measurementWindow(new Date('2026-03-15T23:59:59Z')), { since: '2026-02-13', until: '2026-03-15' });
  assert.deepEqual(measurementWindow(new Date('2026-01-01T00:00:00Z')), { since: '2025-12-02', until: '2026-01-01' });
});

test('variants are the apex and its www. form, whichever was asked', () => {
  assert.deepEqual(variants('example.com'), ['example.com', 'www.example.com']);
  assert.deepEqual(variants('www.example.com'), ['example.com', 'www.example.com']);
  assert.deepEqual(variants('www.com'), ['www.com', 'www.www.com']);
});

test('tier follows the site rules: under 5 measurements ok, then confirmed share, blocked share, and signs from 30 measurements', () => {
  const cases: Array<[number, number, number, string]> = [
    // measurements, anomaly, confirmed, tier
    [4, 4, 4, 'ok'],
    [5, 0, 0, 'ok'],
    [20, 0, 1, 'confirmed'],
    [21, 20, 1, 'likely'],
    [10, 5, 0, 'likely'],
    [10, 4, 0, 'ok'],
    [30, 6, 0, 'signs'],
    [30, 5, 0, 'ok'],
    [29, 14, 0, 'ok'],
    [40, 18, 1, 'signs'],
    [40, 19, 1, 'likely'],
    [0, 0, 0, 'ok'],
  ];
  for (const [measurements, anomaly, confirmed, expected] of cases) {
    assert.equal(tier({ measurements, anomaly, confirmed }), expected, `${measurements}/${anomaly}/${confirmed}`);
  }
});

test('merge sums per country, counts anomaly plus confirmed per known blocking type, and ignores empty types and malformed rows', () => {
  const countries = merge([
    [
      {
        probe_cc: 'IR',
        blocking_type: 'dns',
        measurement_count: 4,
        anomaly_count: 4,
        confirmed_count: 1,
        failure_count: 0,
        ok_count: 0,
      },
      {
        probe_cc: 'IR',
        blocking_type: '',
        measurement_count: 10,
        anomaly_count: 0,
        confirmed_count: 0,
        failure_count: 1,
        ok_count: 9,
      },
      {
        probe_cc: 'US',
        blocking_type: false,
        measurement_count: 5,
        anomaly_count: 0,
        confirmed_count: 0,
        failure_count: 0,
        ok_count: 5,
      },
      {
        probe_cc: 'US',
        blocking_type: 'tls_mitm',
        measurement_count: 1,
        anomaly_count: 1,
        confirmed_count: 0,
        failure_count: 0,
        ok_count: 0,
      },
      { probe_cc: 42, measurement_count: 99 },
      { probe_cc: 'DE', blocking_type: 'dns', measurement_count: 'many' },
    ],
    [
      {
        probe_cc: 'IR',
        blocking_type: 'dns',
        measurement_count: 2,
        anomaly_count: 2,
        confirmed_count: 0,
        failure_count: 0,
        ok_count: 0,
      },
    ],
  ]);
  assert.deepEqual(countries, [
    {
      country: 'IR',
      tier: 'confirmed',
      measurements: 16,
      anomaly: 6,
      confirmed: 1,
      methods: { dns: 7 },
      ok: 9,
      failure: 1,
    },
    { country: 'US', tier: 'ok', measurements: 6, anomaly: 1, confirmed: 0, methods: {}, ok: 5, failure: 0 },
    { country: 'DE', tier: 'ok', measurements: 0, anomaly: 0, confirmed: 0, methods: {}, ok: 0, failure: 0 },
  ]);
});

test('countries are sorted by tier, then blocked share, then measurements, then code', () => {
  // OONI's own field names.
  // eslint-disable-next-line camelcase
  const row = (probe_cc: string, measurement_count: number, anomaly_count: number, confirmed_count = 0) => ({
    probe_cc,
    blocking_type: 'dns',
    measurement_count,
    anomaly_count,
    confirmed_count,
  });
  const countries = merge([
    [
      row('AA', 100, 10),
      row('BB', 10, 1, 1),
      row('CC', 10, 9),
      row('DD', 20, 12),
      row('EE', 40, 10),
      row('FF', 100, 0),
      row('GG', 200, 0),
      row('HH', 200, 0),
    ],
  ]);
  assert.deepEqual(
    countries.map((c) => `${c.country}:${c.tier}`),
    ['BB:confirmed', 'CC:likely', 'DD:likely', 'EE:signs', 'AA:ok', 'GG:ok', 'HH:ok', 'FF:ok'],
  );
});

test('answers the contract shape: since/until and every country with tier, measurements, anomaly, confirmed and methods', async (t) => {
  answerBoth();
  const app = await api();
  t.mock.timers.enable({ apis: ['Date'], now: new Date('2026-11-24T08:00:00Z') });
  const res = await call(app, '/api/censorship-blocking?domain=example.com');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.since, '2026-10-25');
  assert.equal(body.until, '2026-11-24');
  assert.ok(Array.isArray(body.countries));
  for (const c of body.countries) {
    assert.match(c.country, /^[A-Z]{2}$/);
    assert.ok(['confirmed', 'likely', 'signs', 'ok'].includes(c.tier), c.tier);
    for (const key of ['measurements', 'anomaly', 'confirmed', 'ok', 'failure']) {
      assert.ok(Number.isInteger(c[key]), `${c.country}.${key}`);
    }
    assert.equal(typeof c.methods, 'object');
    for (const [method, hits] of Object.entries(c.methods)) {
      assert.ok(['dns', 'tcp_ip', 'http-failure', 'http-diff'].includes(method), method);
      assert.ok(Number.isInteger(hits) && (hits as number) > 0);
    }
  }
  assert.deepEqual(body.countries[0], {
    country: 'IR',
    tier: 'confirmed',
    measurements: 59,
    anomaly: 19,
    confirmed: 11,
    methods: { dns: 30 },
    ok: 38,
    failure: 2,
  });
  assert.deepEqual(
    body.countries.map((c: { country: string; tier: string }) => `${c.country}:${c.tier}`),
    ['IR:confirmed', 'CN:likely', 'TR:signs', 'RU:ok', 'US:ok'],
  );
  await app.close();
});

test('queries OONI for both variants over the window and merges them, cacheable for a day', async (t) => {
  answerBoth();
  const app = await api();
  t.mock.timers.enable({ apis: ['Date'], now: new Date('2026-11-23T01:30:00Z') });
  const expected = { since: '2026-10-24', until: '2026-11-23' };
  const res = await call(app, { url: '/api/censorship-blocking?domain=Example.COM', headers: CALLER_SECRETS });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  const body = res.json();
  assert.equal(body.domain, 'example.com');
  assert.equal(body.since, expected.since);
  assert.equal(body.until, expected.until);
  assert.equal(body.partial, false);
  assert.deepEqual(body.variants, [
    { domain: 'example.com', ok: true },
    { domain: 'www.example.com', ok: true },
  ]);
  assert.deepEqual(body.countries, [
    {
      country: 'IR',
      tier: 'confirmed',
      measurements: 59,
      anomaly: 19,
      confirmed: 11,
      methods: { dns: 30 },
      ok: 38,
      failure: 2,
    },
    {
      country: 'CN',
      tier: 'likely',
      measurements: 9,
      anomaly: 6,
      confirmed: 0,
      methods: { tcp_ip: 6 },
      ok: 3,
      failure: 0,
    },
    {
      country: 'TR',
      tier: 'signs',
      measurements: 42,
      anomaly: 9,
      confirmed: 1,
      methods: { 'http-diff': 10 },
      ok: 32,
      failure: 1,
    },
    {
      country: 'RU',
      tier: 'ok',
      measurements: 3,
      anomaly: 3,
      confirmed: 0,
      methods: { 'http-failure': 3 },
      ok: 0,
      failure: 0,
    },
    { country: 'US', tier: 'ok', measurements: 300, anomaly: 0, confirmed: 0, methods: {}, ok: 299, failure: 1 },
  ]);

  const sent = fake.requestsTo(HOST, PATH);
  assert.deepEqual(sent.map((r) => r.query.get('domain')).sort(), ['example.com', 'www.example.com']);
  for (const r of sent) {
    assert.equal(r.query.get('since'), expected.since);
    assert.equal(r.query.get('until'), expected.until);
    assert.equal(r.query.get('axis_x'), 'probe_cc');
    assert.equal(r.query.get('axis_y'), 'blocking_type');
    assert.equal(r.query.get('test_name'), 'web_connectivity');
    assert.equal(r.headers.authorization, undefined);
    assert.equal(r.headers.cookie, undefined);
    assert.equal(r.headers['user-agent'], 'netdiag-backend/v1.0.0/https://example.org');
  }
  await app.close();
});

test('one failing variant is left out and marked; the other is served', async () => {
  answerBoth({ status: 500, json: { error: 'internal' } });
  const app = await api();
  const res = await call(app, '/api/censorship-blocking?domain=www.example.com');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.domain, 'example.com');
  assert.equal(body.partial, true);
  assert.deepEqual(body.variants, [
    { domain: 'example.com', ok: true },
    { domain: 'www.example.com', ok: false },
  ]);
  assert.deepEqual(
    body.countries.map((c: { country: string }) => c.country),
    ['IR', 'CN', 'TR', 'US'],
  );
  await app.close();
});

test('an answer without a result array counts as a failed variant', async () => {
  answerBoth({ json: { detail: 'unexpected' } });
  const app = await api();
  const res = await call(app, '/api/censorship-blocking?domain=example.com');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().partial, true);
  await app.close();
});

test('both variants failing is a 502 that is never cached', async () => {
  fake.on('GET', HOST, PATH, { status: 503, body: 'unavailable' });
  const app = await api();
  const res = await call(app, '/api/censorship-blocking?domain=example.com');
  assertErrorAnswer(res, 502, 'Upstream error');
  await app.close();
});

test('the domain guard answers its strings, uncached, before any upstream call', async () => {
  const app = await api();
  const missing = await call(app, '/api/censorship-blocking');
  assertErrorAnswer(missing, 400, 'No domain provided');
  const invalid = await call(app, '/api/censorship-blocking?domain=not_a_domain');
  assertErrorAnswer(invalid, 400, 'Invalid domain');
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('a domain carrying a path or credentials cannot steer the request', async () => {
  const app = await api();
  for (const domain of [
    'evil.example/..%2F',
    'user%40evil.example',
    'example.com%26until%3D2000-01-01',
    'http%3A%2F%2F127.0.0.1',
  ]) {
    const res = await call(app, `/api/censorship-blocking?domain=${domain}`);
    assertErrorAnswer(res, 400, 'Invalid domain', domain);
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});
