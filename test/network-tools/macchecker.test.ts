import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { buildTestApi, call } from '../support/app.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const HOST = 'api.maclookup.app';

const fake = fakeUpstreamPerFile();

async function api(env: Record<string, string> = {}) {
  return (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...env })).app;
}

test('looks the vendor up by the bare upper-case MAC and passes the provider fields, cacheable for 30 days', async () => {
  fake.on('GET', HOST, '/v2/macs/00000C123456', { json: fixture(HOST, 'found.json') });
  const app = await api();
  const res = await call(app, { url: '/api/macchecker?mac=00:00:0c-12:34:56', headers: { authorization: 'Bearer caller', cookie: 'sid=1' } });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  assert.deepEqual(res.json(), {
    mac: '00:00:0C:12:34:56',
    found: true,
    macPrefix: '00000C',
    company: 'Cisco Systems, Inc',
    address: '170 WEST TASMAN DRIVE, SAN JOSE CA 95134-1706, US',
    country: 'US',
    blockStart: '00000C000000',
    blockEnd: '00000CFFFFFF',
    blockSize: 16777215,
    blockType: 'MA-L',
    isRand: false,
    isPrivate: false,
  });
  const [sent] = fake.requestsTo(HOST);
  assert.equal(sent?.query.has('apiKey'), false);
  assert.equal(sent?.headers.authorization, undefined);
  assert.equal(sent?.headers.cookie, undefined);
  await app.close();
});

test('MAC_LOOKUP_API_KEY is sent as apiKey', async () => {
  fake.on('GET', HOST, '/v2/macs/AABBCCDDEEFF', { json: fixture(HOST, 'found.json') });
  const app = await api({ MAC_LOOKUP_API_KEY: 'mac-key' });
  const res = await call(app, '/api/macchecker?mac=aabbccddeeff');
  assert.equal(res.statusCode, 200);
  assert.equal(fake.requestsTo(HOST)[0]?.query.get('apiKey'), 'mac-key');
  await app.close();
});

test('an unknown prefix answers found false with empty fields as null', async () => {
  fake.on('GET', HOST, '/v2/macs/020000000001', { json: fixture(HOST, 'not-found.json') });
  const app = await api();
  const res = await call(app, '/api/macchecker?mac=02-00-00-00-00-01');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.found, false);
  assert.equal(body.company, null);
  assert.equal(body.macPrefix, null);
  assert.equal(body.blockSize, 0);
  assert.equal(body.isRand, true);
  await app.close();
});

test('a missing or malformed MAC gets its own 400, uncached, without an upstream call', async () => {
  const app = await api();
  const missing = await call(app, '/api/macchecker');
  assert.equal(missing.statusCode, 400);
  assert.deepEqual(missing.json(), { error: 'No MAC address provided' });
  assert.equal(missing.headers['cache-control'], 'no-store');
  for (const mac of ['00000C12345', '00000C1234567', '00:00:0C:12:34:5G', '0000.0C12.3456', '00%2000%200C%2012%2034%2056']) {
    const res = await call(app, `/api/macchecker?mac=${mac}`);
    assert.equal(res.statusCode, 400, mac);
    assert.deepEqual(res.json(), { error: 'Invalid MAC address' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  const twice = await call(app, '/api/macchecker?mac=00000C123456&mac=00000C123457');
  assert.equal(twice.statusCode, 400);
  assert.deepEqual(twice.json(), { error: 'Invalid MAC address' });
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('a MAC value cannot point the request elsewhere', async () => {
  const app = await api();
  const res = await call(app, '/api/macchecker?mac=..%2F..%2F%40evil.example%2F');
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), { error: 'Invalid MAC address' });
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('an upstream rate limit or error is a 502, never cached', async () => {
  const app = await api();
  for (const canned of [{ status: 429, json: fixture(HOST, 'rate-limited.json') }, { json: { success: false } }, { status: 200, body: '<html>' }]) {
    fake.reset();
    fake.on('GET', HOST, '/v2/macs/00000C123456', canned);
    const res = await call(app, '/api/macchecker?mac=00000C123456');
    assert.equal(res.statusCode, 502);
    assert.deepEqual(res.json(), { error: 'Upstream error' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  await app.close();
});
