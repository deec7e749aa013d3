import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApi, call } from '../support/app.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const HOST = 'private-api.example.net';
const ENDPOINT = `https://${HOST}/v1/`;

const fake = fakeUpstreamPerFile();

const env = (extra: Record<string, string> = {}) => ({
  UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
  PRIVATE_API_KEY: 'private-secret',
  PRIVATE_API_ENDPOINT: ENDPOINT,
  ...extra,
});

const profile = { id: 'u_8f3a', name: 'Ada', avatar: 'https://example.net/a.png', achievements: ['FirstCheck'], quota: { used: 3, limit: 100 } };

test('getuserinfo forwards the caller headers and passes the answer through, no-store', async () => {
  fake.on('GET', HOST, '/v1/getuserinfo', { json: profile });
  const { app, logs } = await buildTestApi(env());
  const res = await call(app, { method: 'GET', url: '/api/getuserinfo', headers: { authorization: 'Bearer user-token', 'accept-language': 'de-DE' } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), profile);
  assert.equal(res.headers['cache-control'], 'no-store');
  const [sent] = fake.requestsTo(HOST, '/v1/getuserinfo');
  assert.equal(sent?.query.get('key'), 'private-secret');
  assert.equal(sent?.headers.authorization, 'Bearer user-token');
  assert.equal(sent?.headers['accept-language'], 'de-DE');
  assert.ok(!logs.text.includes('user-token'));
  await app.close();
});

test('getuserinfo passes an upstream 401 through', async () => {
  fake.on('GET', HOST, '/v1/getuserinfo', { status: 401, json: { error: 'Unauthorized' } });
  const { app } = await buildTestApi(env());
  const res = await call(app, '/api/getuserinfo');
  assert.equal(res.statusCode, 401);
  assert.deepEqual(res.json(), { error: 'Unauthorized' });
  assert.equal(res.headers['cache-control'], 'no-store');
  await app.close();
});

test('updateuserachievement PUTs the JSON body with the caller headers and passes the status through', async () => {
  fake.on('PUT', HOST, '/v1/updateuserachievement', { status: 202, json: { ok: true, unlocked: 'DnsLeakChecked' } });
  const { app } = await buildTestApi(env());
  const res = await call(app, {
    method: 'PUT',
    url: '/api/updateuserachievement',
    headers: { authorization: 'Bearer user-token' },
    payload: { achievement: 'DnsLeakChecked' },
  });
  assert.equal(res.statusCode, 202);
  assert.deepEqual(res.json(), { ok: true, unlocked: 'DnsLeakChecked' });
  assert.equal(res.headers['cache-control'], 'no-store');
  const [sent] = fake.requestsTo(HOST, '/v1/updateuserachievement');
  assert.equal(sent?.method, 'PUT');
  assert.equal(sent?.headers.authorization, 'Bearer user-token');
  assert.equal(sent?.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(sent!.body.toString()), { achievement: 'DnsLeakChecked' });
  await app.close();
});

test('updateuserachievement passes a 429 quota answer through', async () => {
  fake.on('PUT', HOST, '/v1/updateuserachievement', { status: 429, json: { error: 'Too many', code: 'quota_exceeded' } });
  const { app } = await buildTestApi(env());
  const res = await call(app, { method: 'PUT', url: '/api/updateuserachievement', payload: { achievement: 'x' } });
  assert.equal(res.statusCode, 429);
  assert.equal(res.json().code, 'quota_exceeded');
  await app.close();
});

test('without the private key or endpoint both routes are 500 API key is missing', async () => {
  for (const missing of ['PRIVATE_API_KEY', 'PRIVATE_API_ENDPOINT']) {
    const { app } = await buildTestApi(env({ [missing]: '' }));
    const get = await call(app, '/api/getuserinfo');
    const put = await call(app, { method: 'PUT', url: '/api/updateuserachievement', payload: { achievement: 'x' } });
    for (const res of [get, put]) {
      assert.equal(res.statusCode, 500);
      assert.deepEqual(res.json(), { error: 'API key is missing' });
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    await app.close();
  }
  assert.equal(fake.requests.length, 0);
});

test('a non-object achievement body is 400 and not forwarded', async () => {
  const { app } = await buildTestApi(env());
  const res = await call(app, { method: 'PUT', url: '/api/updateuserachievement', payload: '[1]', headers: { 'content-type': 'application/json' } });
  assert.equal(res.statusCode, 400);
  assert.equal(fake.requests.length, 0);
  await app.close();
});
