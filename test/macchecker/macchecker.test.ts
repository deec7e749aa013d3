import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closedOrigin, fixture } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, call } from '../support/app.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const HOST = 'api.maclookup.app';

const fake = fakeUpstreamPerFile();

async function api(env: Record<string, string> = {}) {
  return (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...env })).app;
}

test('answers the contract shape: success, colon-paired prefix and block, the provider fields and the address bits, cacheable for 30 days', async () => {
  fake.on('GET', HOST, '/v2/macs/00000C123456', { json: fixture(HOST, 'found.json') });
  const app = await api();
  const res = await call(app, {
    url: '/api/macchecker?mac=00:00:0c-12:34:56',
    headers: { authorization: 'Bearer caller', cookie: 'sid=1' },
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  assert.deepEqual(res.json(), {
    success: true,
    found: true,
    mac: '00:00:0C:12:34:56',
    macPrefix: '00:00:0C',
    company: 'Cisco Systems, Inc',
    address: '170 WEST TASMAN DRIVE, SAN JOSE CA 95134-1706, US',
    country: 'US',
    blockStart: '00:00:0C:00:00:00',
    blockEnd: '00:00:0C:FF:FF:FF',
    blockSize: 16777216,
    blockType: 'MA-L',
    updated: '2015-11-17',
    isRand: false,
    isPrivate: false,
    isMulticast: false,
    isUnicast: true,
    isLocal: false,
    isGlobal: true,
  });
  const [sent] = fake.requestsTo(HOST);
  assert.equal(sent?.query.has('apiKey'), false);
  assert.equal(sent?.headers.authorization, undefined);
  assert.equal(sent?.headers.cookie, undefined);
  await app.close();
});

test('the four address bits come from the first octet of the address asked about', async () => {
  fake.on('GET', HOST, /^\/v2\/macs\//, { json: fixture(HOST, 'found.json') });
  const app = await api();
  const bits = async (mac: string) => {
    const { isMulticast, isUnicast, isLocal, isGlobal } = (await call(app, `/api/macchecker?mac=${mac}`)).json();
    return { isMulticast, isUnicast, isLocal, isGlobal };
  };
  assert.deepEqual(await bits('01005E000001'), { isMulticast: true, isUnicast: false, isLocal: false, isGlobal: true });
  assert.deepEqual(await bits('0A0000000001'), { isMulticast: false, isUnicast: true, isLocal: true, isGlobal: false });
  assert.deepEqual(await bits('FFFFFFFFFFFF'), { isMulticast: true, isUnicast: false, isLocal: true, isGlobal: false });
  assert.deepEqual(await bits('AC0000000001'), { isMulticast: false, isUnicast: true, isLocal: false, isGlobal: true });
  await app.close();
});

test("the block size counts every address of the block, 2^24, 2^20 and 2^12, not the provider's last-minus-first", async () => {
  // maclookup.app's own blockSize is one short: 16777215 for a 24-bit block, 1048575 and 4095 for the others.
  const blocks = [
    ['MA-L', '00000C000000', '00000CFFFFFF', 16777215, 2 ** 24],
    ['MA-M', '70B3D5000000', '70B3D50FFFFF', 1048575, 2 ** 20],
    ['MA-S', '70B3D5F2F000', '70B3D5F2FFFF', 4095, 2 ** 12],
  ] as const;
  const app = await api();
  for (const [blockType, blockStart, blockEnd, providerSize, size] of blocks) {
    fake.reset();
    const answer = {
      ...(fixture(HOST, 'found.json') as object),
      blockType,
      blockStart,
      blockEnd,
      blockSize: providerSize,
    };
    fake.on('GET', HOST, `/v2/macs/${blockStart}`, { json: answer });
    const res = await call(app, `/api/macchecker?mac=${blockStart}`);
    assert.equal(res.json().blockSize, size, blockType);
  }
  fake.reset();
  fake.on('GET', HOST, '/v2/macs/00000C000001', {
    json: { ...(fixture(HOST, 'found.json') as object), blockEnd: '', blockSize: 16777215 },
  });
  assert.equal((await call(app, '/api/macchecker?mac=00000C000001')).json().blockSize, 'N/A', 'no bounds, no size');
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

test('an unknown prefix still answers success with "N/A" for every missing value', async () => {
  fake.on('GET', HOST, '/v2/macs/020000000001', { json: fixture(HOST, 'not-found.json') });
  const app = await api();
  const res = await call(app, '/api/macchecker?mac=02-00-00-00-00-01');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  assert.deepEqual(res.json(), {
    success: true,
    found: false,
    mac: '02:00:00:00:00:01',
    macPrefix: 'N/A',
    company: 'N/A',
    address: 'N/A',
    country: 'N/A',
    blockStart: 'N/A',
    blockEnd: 'N/A',
    blockSize: 'N/A',
    blockType: 'N/A',
    updated: 'N/A',
    isRand: true,
    isPrivate: false,
    isMulticast: false,
    isUnicast: true,
    isLocal: true,
    isGlobal: false,
  });
  await app.close();
});

test('a provider answer without success is 200 success false with its error, never cached', async () => {
  for (const [canned, error] of [
    [{ status: 429, json: fixture(HOST, 'rate-limited.json') }, 'Too Many Requests'],
    [{ json: { success: false } }, 'Data not found'],
    [{ status: 500, json: { error: '' } }, 'Data not found'],
  ] as const) {
    fake.reset();
    fake.on('GET', HOST, '/v2/macs/00000C123456', canned);
    // A fresh app for each answer: the same question's answer would be the one remembered.
    const app = await api();
    const res = await call(app, '/api/macchecker?mac=00000C123456');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { success: false, error });
    assert.equal(res.headers['cache-control'], 'no-store');
    await app.close();
  }
});

test('a missing or malformed MAC gets its own 400, uncached, without an upstream call', async () => {
  const app = await api();
  const missing = await call(app, '/api/macchecker');
  assertErrorAnswer(missing, 400, 'No MAC address provided');
  for (const mac of [
    '00000C12345',
    '00000C1234567',
    '00:00:0C:12:34:5G',
    '0000.0C12.3456',
    '00%2000%200C%2012%2034%2056',
  ]) {
    const res = await call(app, `/api/macchecker?mac=${mac}`);
    assertErrorAnswer(res, 400, 'Invalid MAC address', mac);
  }
  const twice = await call(app, '/api/macchecker?mac=00000C123456&mac=00000C123457');
  assertErrorAnswer(twice, 400, 'Invalid MAC address');
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('a MAC value cannot point the request elsewhere', async () => {
  const app = await api();
  const res = await call(app, '/api/macchecker?mac=..%2F..%2F%40evil.example%2F');
  assertErrorAnswer(res, 400, 'Invalid MAC address');
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('an unreachable provider or an answer that is not a JSON object is a 502, never cached', async () => {
  for (const canned of [{ status: 503, body: '<html>down</html>' }, { status: 200, body: '<html>' }, { json: [] }]) {
    fake.reset();
    fake.on('GET', HOST, '/v2/macs/00000C123456', canned);
    // A fresh app for each answer: the same question's answer would be the one remembered.
    const app = await api();
    const res = await call(app, '/api/macchecker?mac=00000C123456');
    assertErrorAnswer(res, 502, 'Upstream error');
    await app.close();
  }
  const unreachable = (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin() })).app;
  const res = await call(unreachable, '/api/macchecker?mac=00000C123456');
  assertErrorAnswer(res, 502, 'Upstream error');
  await unreachable.close();
});
