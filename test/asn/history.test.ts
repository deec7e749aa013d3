import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { registerRipeStatFakeRoutes } from '../support/fake-routes/asn.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const RIPE = 'stat.ripe.net';
const PATH = '/data/routing-history/data.json';

const fake = fakeUpstreamPerFile(registerRipeStatFakeRoutes);

test('prefix guard: missing and malformed prefixes are 400 with the spec strings', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const cases: Array<[string, string]> = [
    ['/api/asn-history', 'No prefix provided'],
    ['/api/asn-history?prefix=', 'No prefix provided'],
    ['/api/asn-history?prefix=193.0.0.0', 'Invalid prefix'],
    ['/api/asn-history?prefix=193.0.0.0/33', 'Invalid prefix'],
    ['/api/asn-history?prefix=example.com/24', 'Invalid prefix'],
    ['/api/asn-history?prefix=2001:db8::/129', 'Invalid prefix'],
  ];
  await assertGuardErrors(app, cases);
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('routing history with visibility relative to the best-seen timeline, sourceapp sent, cacheable for 30 days', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ROUTING_SOURCE_APP: 'netdiag-test' });
  const res = await call(app, '/api/asn-history?prefix=193.0.0.0/21');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  assert.deepEqual(res.json(), {
    prefix: '193.0.0.0/21',
    queryStart: '2024-11-23T00:00:00',
    queryEnd: '2026-11-23T00:00:00',
    maxPeersSeeing: 340,
    origins: [
      {
        asn: 3333,
        prefixes: [
          {
            prefix: '193.0.0.0/21',
            timelines: [
              { start: '2024-11-23T00:00:00', end: '2025-06-10T08:00:00', peersSeeing: 312.5, visibility: 91.9 },
              { start: '2025-06-10T16:00:00', end: '2026-11-23T00:00:00', peersSeeing: 340, visibility: 100 },
            ],
          },
        ],
      },
      {
        asn: 12654,
        prefixes: [{ prefix: '193.0.0.0/21', timelines: [{ start: '2025-06-10T08:00:00', end: '2025-06-10T16:00:00', peersSeeing: 17, visibility: 5 }] }],
      },
    ],
  });
  const [sent] = fake.requestsTo(RIPE, PATH);
  assert.equal(sent!.query.get('resource'), '193.0.0.0/21');
  assert.equal(sent!.query.get('sourceapp'), 'netdiag-test');
  await app.close();
});

test('the default sourceapp is the fixed product identifier', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  await call(app, '/api/asn-history?prefix=2001:67c:2e8::/48');
  const [sent] = fake.requestsTo(RIPE, PATH);
  assert.equal(sent!.query.get('sourceapp'), 'netdiag-backend');
  assert.equal(sent!.query.get('resource'), '2001:67c:2e8::/48');
  await app.close();
});

test('an upstream non-2xx is 502 "Upstream error", not cacheable', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  for (const status of [400, 404, 429, 500, 503]) {
    fake.on('GET', RIPE, PATH, { status, json: { status: 'error', messages: [['error', 'failed']] } });
    const res = await call(app, '/api/asn-history?prefix=193.0.0.0/21');
    assert.equal(res.statusCode, 502, String(status));
    assert.deepEqual(res.json(), { error: 'Upstream error' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  await app.close();
});

test('an unreachable upstream or an unusable body is 502 "Upstream error" too', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  for (const reply of [{ destroy: true }, { body: '<html>maintenance</html>' }, { json: { status: 'ok', data: {} } }]) {
    fake.on('GET', RIPE, PATH, reply);
    const res = await call(app, '/api/asn-history?prefix=193.0.0.0/21');
    assert.equal(res.statusCode, 502);
    assert.deepEqual(res.json(), { error: 'Upstream error' });
  }
  await app.close();
});
