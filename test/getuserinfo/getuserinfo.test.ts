import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { assertErrorAnswer, buildTestApi, call } from '../support/app.js';
import { fixture } from '../support/fake-upstream.js';
import { UserInfo } from '../../contract/user-info.js';
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

const profile = fixture('private-api.example', 'getuserinfo.json') as Record<string, unknown>;

test('getuserinfo: every field the site reads, with its type, from the fake profile', async () => {
  fake.on('GET', HOST, '/v1/getuserinfo', { json: profile });
  const { app } = await buildTestApi(env());
  const res = await call(app, {
    method: 'GET',
    url: '/api/getuserinfo',
    headers: { authorization: 'Bearer user-token' },
  });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.ok(Value.Check(UserInfo, body));
  assert.equal(body.userLevel, 'Standard');
  assert.deepEqual(body.achievements?.IAmHuman, { achieved: true, achievedTime: 1761322911000 });
  assert.equal(body.functionUses.total, 137);
  assert.equal(body.quota.multiplier, 1);
  assert.deepEqual(body.quota.features, {
    ipinfo: { used: 42, limit: 300 },
    invisibility_test: { used: 3, limit: 20 },
    dns_leak_test: { used: 5, limit: 30 },
    persona_check: { used: 1, limit: 20 },
  });
  await app.close();
});

test('getuserinfo passes the profile through as written, a field the site does not read included', async () => {
  const extended = { ...profile, createdAt: '2025-10-24T15:41:51.000Z', achievements: undefined };
  fake.on('GET', HOST, '/v1/getuserinfo', { json: extended });
  const { app } = await buildTestApi(env());
  const res = await call(app, '/api/getuserinfo');
  assert.equal(res.body, JSON.stringify(extended));
  await app.close();
});

test('getuserinfo forwards the caller headers and passes the answer through, no-store', async () => {
  fake.on('GET', HOST, '/v1/getuserinfo', { json: profile });
  const { app, logs } = await buildTestApi(env());
  const res = await call(app, {
    method: 'GET',
    url: '/api/getuserinfo',
    headers: { authorization: 'Bearer user-token', 'accept-language': 'de-DE' },
  });
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
  assertErrorAnswer(res, 401, 'Unauthorized');
  await app.close();
});

test('an unreachable private API is 502 Upstream fetch failed; an error status without JSON keeps its status as Upstream error, logged once', async () => {
  const { app, logs } = await buildTestApi(env());
  fake.on('GET', HOST, '/v1/getuserinfo', { destroy: true });
  const dropped = await call(app, '/api/getuserinfo');
  assertErrorAnswer(dropped, 502, 'Upstream fetch failed');
  fake.on('GET', HOST, '/v1/getuserinfo', { status: 503, body: '<html>maintenance</html>' });
  const garbled = await call(app, '/api/getuserinfo');
  assertErrorAnswer(garbled, 503, 'Upstream error');
  const warnings = logs.find('private API call failed');
  assert.deepEqual(
    warnings.map((l) => [l.level, l.path]),
    [
      [40, '/getuserinfo'],
      [40, '/getuserinfo'],
    ],
  );
  assert.equal(logs.find('request failed').length, 0);
  assert.ok(!logs.text.includes('private-secret'), 'the key never reaches a log line');
  await app.close();
});

test('updateuserachievement PUTs {achievement} with the caller headers and passes the status through', async () => {
  fake.on('PUT', HOST, '/v1/updateuserachievement', {
    status: 202,
    json: fixture('private-api.example', 'updateuserachievement.json'),
  });
  const { app } = await buildTestApi(env());
  const res = await call(app, {
    method: 'PUT',
    url: '/api/updateuserachievement',
    headers: { authorization: 'Bearer user-token' },
    payload: { achievement: 'JustInCase', extra: 'dropped' },
  });
  assert.equal(res.statusCode, 202);
  assert.deepEqual(res.json(), { success: true, achievement: 'JustInCase', achievedTime: 1763988000000 });
  assert.equal(res.headers['cache-control'], 'no-store');
  const [sent] = fake.requestsTo(HOST, '/v1/updateuserachievement');
  assert.equal(sent?.method, 'PUT');
  assert.equal(sent?.headers.authorization, 'Bearer user-token');
  assert.equal(sent?.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(sent!.body.toString()), { achievement: 'JustInCase' });
  await app.close();
});

test('updateuserachievement passes a 429 quota answer through', async () => {
  fake.on('PUT', HOST, '/v1/updateuserachievement', {
    status: 429,
    json: { error: 'Too many', code: 'quota_exceeded' },
  });
  const { app } = await buildTestApi(env());
  const res = await call(app, {
    method: 'PUT',
    url: '/api/updateuserachievement',
    payload: { achievement: 'HiddenWell' },
  });
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
      assertErrorAnswer(res, 500, 'API key is missing');
    }
    await app.close();
  }
  assert.equal(fake.requests.length, 0);
});

test('an achievement body without an achievement name is 400 {error} and not forwarded', async () => {
  const { app } = await buildTestApi(env());
  for (const payload of ['[1]', '{}', '{"achievement":""}', `{"achievement":"${'A'.repeat(65)}"}`]) {
    const res = await call(app, {
      method: 'PUT',
      url: '/api/updateuserachievement',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 400, payload);
    assert.deepEqual(Object.keys(res.json()), ['error']);
    assert.equal(typeof res.json().error, 'string');
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});
