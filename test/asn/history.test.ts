import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertErrorAnswer, assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { registerRipeStatFakeRoutes } from '../support/fake-routes/asn.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { dataDir } from './helpers.js';

const RIPE = 'stat.ripe.net';
const PATH = '/data/routing-history/data.json';
const OVERVIEW = '/data/as-overview/data.json';

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

/** The API with the fixture organisation snapshot loaded, so names come from it before RIPEstat. */
async function namedApi(t: { after: (fn: () => Promise<void>) => void }, env: Record<string, string> = {}) {
  const dir = await dataDir({ organisations: true });
  const api = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, DATA_DIR: dir.path, ...env });
  await api.app.lifecycle.boot();
  t.after(async () => {
    await api.app.close();
    await dir.remove();
  });
  return api;
}

test('one row per origin, newest lastSeen first, with peers relative to the best-seen origin; cacheable for 30 days', async (t) => {
  const { app } = await namedApi(t, { ROUTING_SOURCE_APP: 'netdiag-test' });
  const res = await call(app, '/api/asn-history?prefix=8.8.8.0/24');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  assert.deepEqual(res.json(), {
    prefix: '8.8.8.0/24',
    history: [
      {
        asn: '15169',
        org: 'Google LLC',
        firstSeen: '2024-11-23T00:00:00',
        lastSeen: '2026-11-23T00:00:00',
        peers: 343,
        peersPct: 100,
        prefixes: ['8.8.8.0/24'],
      },
      // 8.0.0.0/7 is shorter than /8: ignored, its later and wider-seen timeline with it.
      {
        asn: '3356',
        org: 'Level 3 Parent, LLC',
        firstSeen: '2024-11-23T00:00:00',
        lastSeen: '2025-09-14T12:00:00',
        peers: 301,
        peersPct: 88,
        prefixes: ['8.0.0.0/8'],
      },
      {
        asn: '4713',
        org: 'NTT Communications Corporation',
        firstSeen: '2025-06-10T08:00:00',
        lastSeen: '2025-06-10T16:00:00',
        peers: 142,
        peersPct: 41,
        prefixes: ['8.8.8.0/24'],
      },
    ],
  });
  // AS12654 was seen by 17 peers at most: under the floor of 30, dropped.
  const [sent] = fake.requestsTo(RIPE, PATH);
  assert.equal(sent!.query.get('resource'), '8.8.8.0/24');
  assert.equal(sent!.query.get('sourceapp'), 'netdiag-test');
  assert.equal(sent!.query.get('min_peers_seeing'), '30');
  // Every origin is named by the local snapshot.
  assert.equal(fake.requestsTo(RIPE, OVERVIEW).length, 0);
});

test('an origin missing from the local snapshot is named by RIPEstat as-overview, without its handle', async (t) => {
  const { app } = await namedApi(t);
  const body = (await call(app, '/api/asn-history?prefix=193.0.0.0/21')).json();
  assert.deepEqual(body.history, [
    {
      asn: '3333',
      org: 'Reseaux IP Europeens Network Coordination Centre (RIPE NCC)',
      firstSeen: '2024-11-23T00:00:00',
      lastSeen: '2026-11-23T00:00:00',
      peers: 340,
      peersPct: 100,
      prefixes: ['193.0.0.0/21'],
    },
  ]);
  const lookups = fake.requestsTo(RIPE, OVERVIEW);
  assert.equal(lookups.length, 1);
  assert.equal(lookups[0]!.query.get('resource'), 'AS3333');
});

test('row rules: IPv6 prefixes shorter than /19 ignored, AS-prefixed origins read, rows with no usable timeline dropped, a failed name lookup leaves org null', async () => {
  fake.on('GET', RIPE, PATH, {
    json: {
      data: {
        by_origin: [
          {
            origin: 'AS3333',
            prefixes: [
              {
                prefix: '2001:67c:2e8::/48',
                timelines: [
                  { starttime: '2025-01-01T00:00:00', endtime: '2026-11-23T00:00:00', full_peers_seeing: 299.6 },
                ],
              },
            ],
          },
          {
            origin: '6939',
            prefixes: [
              {
                prefix: '2001::/16',
                timelines: [
                  { starttime: '2025-01-01T00:00:00', endtime: '2026-11-23T00:00:00', full_peers_seeing: 320 },
                ],
              },
            ],
          },
          { origin: '1299', prefixes: [{ prefix: '2001:67c::/32', timelines: [] }] },
          {
            origin: 'not-an-asn',
            prefixes: [
              {
                prefix: '2001:67c:2e8::/48',
                timelines: [
                  { starttime: '2025-01-01T00:00:00', endtime: '2026-11-23T00:00:00', full_peers_seeing: 300 },
                ],
              },
            ],
          },
          {
            origin: '2914',
            prefixes: [
              {
                prefix: '2001:67c:2e8::/47',
                timelines: [
                  { starttime: '2024-02-01T00:00:00', endtime: '2024-03-01T00:00:00', full_peers_seeing: 30 },
                ],
              },
            ],
          },
        ],
      },
    },
  });
  fake.on('GET', RIPE, OVERVIEW, { status: 500, body: 'error' });
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const res = await call(app, '/api/asn-history?prefix=2001:67c:2e8::/48');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json().history, [
    {
      asn: '3333',
      org: null,
      firstSeen: '2025-01-01T00:00:00',
      lastSeen: '2026-11-23T00:00:00',
      peers: 300,
      peersPct: 100,
      prefixes: ['2001:67c:2e8::/48'],
    },
    {
      asn: '2914',
      org: null,
      firstSeen: '2024-02-01T00:00:00',
      lastSeen: '2024-03-01T00:00:00',
      peers: 30,
      peersPct: 10,
      prefixes: ['2001:67c:2e8::/47'],
    },
  ]);
  assert.equal(logs.find('as-overview lookup failed').length, 2);
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
    assertErrorAnswer(res, 502, 'Upstream error', String(status));
  }
  await app.close();
});

test('an unreachable upstream or an unusable body is 502 "Upstream error" too', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  for (const reply of [{ destroy: true }, { body: '<html>maintenance</html>' }, { json: { status: 'ok', data: {} } }]) {
    fake.on('GET', RIPE, PATH, reply);
    const res = await call(app, '/api/asn-history?prefix=193.0.0.0/21');
    assertErrorAnswer(res, 502, 'Upstream error');
  }
  await app.close();
});

test('an upstream that does not answer within the upstream timeout is 504 "Upstream timeout", not cacheable', async () => {
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, UPSTREAM_TIMEOUT_MS: '100' });
  fake.on('GET', RIPE, PATH, { hang: true });
  let res = await call(app, '/api/asn-history?prefix=193.0.0.0/21');
  assertErrorAnswer(res, 504, 'Upstream timeout');
  // Headers sent, the body never finished: a timeout too.
  fake.on('GET', RIPE, PATH, (_req, out) => {
    out.writeHead(200, { 'content-type': 'application/json' });
    out.write('{"data": {"by_origin": [');
  });
  res = await call(app, '/api/asn-history?prefix=193.0.0.0/21');
  assertErrorAnswer(res, 504, 'Upstream timeout');
  assert.equal(logs.find('routing-history timed out').length, 2);
  await app.close();
});
