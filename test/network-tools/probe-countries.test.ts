import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { buildTestApi, call } from '../support/app.js';
import { inventory } from '../../routes/probe-countries/index.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const HOST = 'api.globalping.io';

const fake = fakeUpstreamPerFile();

async function api() {
  return (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin })).app;
}

test('inventory counts probes per upper-cased country and skips probes without a usable code', () => {
  assert.deepEqual(
    inventory([{ location: { country: 'fr' } }, { location: { country: 'FR' } }, { location: {} }, null, 'x', { location: { country: 'FRA' } }, { location: { country: 'AT' } }]),
    { countries: [{ code: 'FR', probes: 2 }, { code: 'AT', probes: 1 }], total: 3 },
  );
});

test('answers the compact country inventory, cacheable for 7 days, sending no caller credentials', async () => {
  fake.on('GET', HOST, '/v1/probes', { json: fixture(HOST, 'probes.json') });
  const app = await api();
  const res = await call(app, { url: '/api/probe-countries', headers: { authorization: 'Bearer caller', cookie: 'sid=1' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=604800');
  assert.deepEqual(res.json(), {
    countries: [
      { code: 'US', probes: 3 },
      { code: 'DE', probes: 2 },
      { code: 'BR', probes: 1 },
      { code: 'JP', probes: 1 },
    ],
    total: 7,
  });
  const [sent] = fake.requestsTo(HOST);
  assert.equal(sent?.headers.authorization, undefined);
  assert.equal(sent?.headers.cookie, undefined);
  await app.close();
});

test('an upstream error or a body that is not a probe list is a 502, never cached', async () => {
  const app = await api();
  for (const canned of [{ status: 500, json: { error: 'boom' } }, { json: { probes: [] } }, { body: 'not json' }]) {
    fake.reset();
    fake.on('GET', HOST, '/v1/probes', canned);
    const res = await call(app, '/api/probe-countries');
    assert.equal(res.statusCode, 502);
    assert.deepEqual(res.json(), { error: 'Upstream error' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  await app.close();
});

test('query parameters cannot choose what is fetched', async () => {
  fake.on('GET', HOST, '/v1/probes', { json: fixture(HOST, 'probes.json') });
  const app = await api();
  const res = await call(app, '/api/probe-countries?url=http://127.0.0.1:1/&host=evil.example');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(
    fake.requests.map((r) => `${r.host}${r.path}?${r.query}`),
    ['api.globalping.io/v1/probes?'],
  );
  await app.close();
});
