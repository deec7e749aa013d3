import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, call } from '../support/app.js';
import { inventory } from '../../routes/probe-countries/index.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const HOST = 'api.globalping.io';

const fake = fakeUpstreamPerFile();

async function api() {
  return (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin })).app;
}

test('inventory lists each country once, upper-cased and sorted, and buckets it by its continent', () => {
  const probe = (country: unknown, continent?: unknown) => ({ location: { country, continent } });
  assert.deepEqual(
    inventory([
      probe('fr', 'EU'),
      probe('FR', 'EU'),
      probe('AT', 'EU'),
      probe('US', 'NA'),
      probe('AR', 'SA'),
      probe('AQ', 'AN'),
      probe('KE'),
      { location: {} },
      null,
      'x',
      probe('FRA', 'EU'),
      probe(7, 'AS'),
    ]),
    {
      countries: ['AQ', 'AR', 'AT', 'FR', 'KE', 'US'],
      continents: [
        { key: 'europe', countries: ['AT', 'FR'] },
        { key: 'americas', countries: ['AR', 'US'] },
      ],
    },
  );
});

test('answers the contract shape: countries as ISO code strings and continents in the site order, cacheable for 7 days', async () => {
  fake.on('GET', HOST, '/v1/probes', { json: fixture(HOST, 'probes.json') });
  const app = await api();
  const res = await call(app, {
    url: '/api/probe-countries',
    headers: { authorization: 'Bearer caller', cookie: 'sid=1' },
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=604800');
  const body = res.json();
  assert.ok(body.countries.every((c: unknown) => typeof c === 'string' && /^[A-Z]{2}$/.test(c)));
  assert.deepEqual(body, {
    countries: ['AU', 'BR', 'DE', 'JP', 'SG', 'US', 'ZA'],
    continents: [
      { key: 'asia', countries: ['JP', 'SG'] },
      { key: 'europe', countries: ['DE'] },
      { key: 'africa', countries: ['ZA'] },
      { key: 'americas', countries: ['BR', 'US'] },
      { key: 'oceania', countries: ['AU'] },
    ],
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
    assertErrorAnswer(res, 502, 'Upstream error');
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
