import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { buildTestApi, call } from '../support/app.js';
import { measurementWindow, merge, variants } from '../../routes/censorship/index.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const HOST = 'api.ooni.io';
const PATH = '/api/v1/aggregation';
const CALLER_SECRETS = { authorization: 'Bearer caller-token', cookie: 'session=caller-cookie' };

const fake = fakeUpstreamPerFile();

function answerBoth(www: { status?: number; json?: unknown } = { json: fixture(HOST, 'aggregation-www.example.com.json') }) {
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

test('merge sums per country and counts measurements per blocking type, ignoring empty types and malformed rows', () => {
  const countries = merge([
    [
      { probe_cc: 'IR', blocking_type: 'dns', measurement_count: 4, anomaly_count: 4, confirmed_count: 1, failure_count: 0, ok_count: 0 },
      { probe_cc: 'IR', blocking_type: '', measurement_count: 10, anomaly_count: 0, confirmed_count: 0, failure_count: 1, ok_count: 9 },
      { probe_cc: 'US', blocking_type: false, measurement_count: 5, anomaly_count: 0, confirmed_count: 0, failure_count: 0, ok_count: 5 },
      { probe_cc: 42, measurement_count: 99 },
      { probe_cc: 'DE', blocking_type: 'dns', measurement_count: 'many' },
    ],
    [{ probe_cc: 'IR', blocking_type: 'dns', measurement_count: 2, anomaly_count: 2, confirmed_count: 0, failure_count: 0, ok_count: 0 }],
  ]);
  assert.deepEqual(countries, [
    { country: 'IR', measurements: 16, anomalies: 6, confirmed: 1, failures: 1, ok: 9, blocking: { dns: 6 } },
    { country: 'DE', measurements: 0, anomalies: 0, confirmed: 0, failures: 0, ok: 0, blocking: { dns: 0 } },
    { country: 'US', measurements: 5, anomalies: 0, confirmed: 0, failures: 0, ok: 5, blocking: {} },
  ]);
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
    { country: 'IR', measurements: 59, anomalies: 19, confirmed: 11, failures: 2, ok: 38, blocking: { dns: 19 } },
    { country: 'CN', measurements: 9, anomalies: 6, confirmed: 0, failures: 0, ok: 3, blocking: { tcp_ip: 6 } },
    { country: 'RU', measurements: 3, anomalies: 3, confirmed: 0, failures: 0, ok: 0, blocking: { 'http-failure': 3 } },
    { country: 'US', measurements: 300, anomalies: 0, confirmed: 0, failures: 1, ok: 299, blocking: {} },
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
    ['IR', 'CN', 'US'],
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
  assert.equal(res.statusCode, 502);
  assert.deepEqual(res.json(), { error: 'Upstream error' });
  assert.equal(res.headers['cache-control'], 'no-store');
  await app.close();
});

test('the domain guard answers its strings, uncached, before any upstream call', async () => {
  const app = await api();
  const missing = await call(app, '/api/censorship-blocking');
  assert.equal(missing.statusCode, 400);
  assert.deepEqual(missing.json(), { error: 'No domain provided' });
  assert.equal(missing.headers['cache-control'], 'no-store');
  const invalid = await call(app, '/api/censorship-blocking?domain=not_a_domain');
  assert.equal(invalid.statusCode, 400);
  assert.deepEqual(invalid.json(), { error: 'Invalid domain' });
  assert.equal(invalid.headers['cache-control'], 'no-store');
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('a domain carrying a path or credentials cannot steer the request', async () => {
  const app = await api();
  for (const domain of ['evil.example/..%2F', 'user%40evil.example', 'example.com%26until%3D2000-01-01', 'http%3A%2F%2F127.0.0.1']) {
    const res = await call(app, `/api/censorship-blocking?domain=${domain}`);
    assert.equal(res.statusCode, 400, domain);
    assert.deepEqual(res.json(), { error: 'Invalid domain' });
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});
