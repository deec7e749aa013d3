import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, closedOrigin } from '../support/fake-upstream.js';
import { buildTestApi, call } from '../support/app.js';
import { FAKE_PRIVATE_ENV, PRIVATE_API_HOST as HOST } from '../support/fake-routes/network-tools.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const TOKEN = '0123456789abcdef0123456789abcdef';
const ID = 'Ab3dE5gH7jK9mN1pQ3sT5vW7yZ9b';
const CALLER = {
  authorization: 'Bearer caller-token',
  'accept-language': 'de-DE,de;q=0.9',
  'user-agent': 'CallerBrowser/1.0',
};

const fake = fakeUpstreamPerFile();

async function api(env: Record<string, string> = FAKE_PRIVATE_ENV) {
  return (await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...env })).app;
}

function assertForwarded(headers: Record<string, unknown> | undefined) {
  assert.equal(headers?.authorization, CALLER.authorization);
  assert.equal(headers?.['accept-language'], CALLER['accept-language']);
  assert.equal(headers?.['user-agent'], CALLER['user-agent']);
}

const persona = { persona: { country: 'DE', language: 'de', timezone: 'Europe/Berlin' }, observation: { timezone: 'Europe/Berlin', languages: ['en-US'] } };

// ---- dns-leak session

test('dns-leak session: forwards the caller headers, lang and key, and passes the payload, uncached', async () => {
  fake.on('GET', HOST, `/dnsleaktest/session/${TOKEN}`, { json: fixture(HOST, 'dnsleaktest-session.json') });
  const app = await api();
  const res = await call(app, { url: `/api/dnsleaktest/session/${TOKEN.toUpperCase()}?lang=zh-CN`, headers: CALLER });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(res.json(), fixture(HOST, 'dnsleaktest-session.json'));
  const [sent] = fake.requestsTo(HOST);
  assert.equal(sent?.query.get('lang'), 'zh-CN');
  assert.equal(sent?.query.get('key'), FAKE_PRIVATE_ENV.PRIVATE_API_KEY);
  assertForwarded(sent?.headers);
  await app.close();
});

test('dns-leak session: upstream statuses pass through unchanged, the quota 429 included', async () => {
  const app = await api();
  for (const [status, body] of [
    [429, fixture(HOST, 'dnsleaktest-quota.json')],
    [404, { error: 'Session not found' }],
    [401, { error: 'Unauthorized', hint: 'sign in' }],
  ] as const) {
    fake.reset();
    fake.on('GET', HOST, `/dnsleaktest/session/${TOKEN}`, { status, json: body });
    const res = await call(app, `/api/dnsleaktest/session/${TOKEN}`);
    assert.equal(res.statusCode, status);
    assert.deepEqual(res.json(), body);
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  await app.close();
});

test('dns-leak session: a malformed token is 400 Invalid token, and a path in it never reaches the upstream', async () => {
  const app = await api();
  for (const token of ['', TOKEN.slice(1), `${TOKEN}0`, 'g'.repeat(32), '..%2F..%2F..%2Fadmin%40evil.example%2Fxxxxxx', '%2E%2E%2F%2E%2E%2Fpersona%2Fevaluate%3Fa%3Db1234']) {
    const res = await call(app, `/api/dnsleaktest/session/${token}`);
    assert.equal(res.statusCode, 400, token);
    assert.deepEqual(res.json(), { error: 'Invalid token' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('dns-leak session: without the private settings it is 500 API key is missing', async () => {
  const partial: Array<Record<string, string>> = [{}, { PRIVATE_API_KEY: 'k' }, { PRIVATE_API_ENDPOINT: 'https://private-api.example' }];
  for (const env of partial) {
    const app = await api(env);
    const res = await call(app, `/api/dnsleaktest/session/${TOKEN}`);
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { error: 'API key is missing' });
    assert.equal(res.headers['cache-control'], 'no-store');
    await app.close();
  }
  assert.equal(fake.requests.length, 0);
});

test('dns-leak session: an unreachable private API is 502 Upstream fetch failed', async () => {
  const app = (await buildTestApi({ ...FAKE_PRIVATE_ENV, UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin() })).app;
  const res = await call(app, `/api/dnsleaktest/session/${TOKEN}`);
  assert.equal(res.statusCode, 502);
  assert.deepEqual(res.json(), { error: 'Upstream fetch failed' });
  await app.close();
});

// ---- invisibility

test('invisibility: passes a finished result with the caller headers forwarded, uncached', async () => {
  fake.on('GET', HOST, '/invisibility', { json: fixture(HOST, 'invisibility-result.json') });
  const app = await api();
  const res = await call(app, { url: `/api/invisibility?id=${ID}`, headers: CALLER });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(res.json(), fixture(HOST, 'invisibility-result.json'));
  const [sent] = fake.requestsTo(HOST, '/invisibility');
  assert.equal(sent?.query.get('id'), ID);
  assert.equal(sent?.query.get('key'), FAKE_PRIVATE_ENV.PRIVATE_API_KEY);
  assertForwarded(sent?.headers);
  await app.close();
});

test('invisibility: an upstream 404 is 200 pending', async () => {
  fake.on('GET', HOST, '/invisibility', { status: 404, json: { error: 'not found' } });
  const app = await api();
  const res = await call(app, `/api/invisibility?id=${ID}`);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'pending' });
  assert.equal(res.headers['cache-control'], 'no-store');
  await app.close();
});

test('invisibility: an upstream 429 is 429 with its message and code quota_exceeded', async () => {
  const app = await api();
  for (const [body, error] of [
    [{ error: 'Quota used up for November' }, 'Quota used up for November'],
    [{ message: 'Too many checks' }, 'Too many checks'],
    [{}, 'Monthly quota exceeded'],
  ] as const) {
    fake.reset();
    fake.on('GET', HOST, '/invisibility', { status: 429, json: body });
    const res = await call(app, `/api/invisibility?id=${ID}`);
    assert.equal(res.statusCode, 429);
    assert.deepEqual(res.json(), { error, code: 'quota_exceeded' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  await app.close();
});

test('invisibility: other upstream statuses pass through', async () => {
  fake.on('GET', HOST, '/invisibility', { status: 403, json: { error: 'Forbidden', reason: 'plan' } });
  const app = await api();
  const res = await call(app, `/api/invisibility?id=${ID}`);
  assert.equal(res.statusCode, 403);
  assert.deepEqual(res.json(), { error: 'Forbidden', reason: 'plan' });
  await app.close();
});

test('invisibility: a missing or malformed id gets its own 400, and never reaches the upstream', async () => {
  const app = await api();
  const missing = await call(app, '/api/invisibility');
  assert.equal(missing.statusCode, 400);
  assert.deepEqual(missing.json(), { error: 'No id provided' });
  for (const id of [ID.slice(1), `${ID}x`, `${ID.slice(2)}%2F.`, `${ID.slice(3)}%40ev`, `${ID.slice(1)}%26`]) {
    const res = await call(app, `/api/invisibility?id=${id}`);
    assert.equal(res.statusCode, 400, id);
    assert.deepEqual(res.json(), { error: 'Invalid id' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('invisibility: without the private settings it is 500 API key is missing', async () => {
  const app = await api({});
  const res = await call(app, `/api/invisibility?id=${ID}`);
  assert.equal(res.statusCode, 500);
  assert.deepEqual(res.json(), { error: 'API key is missing' });
  await app.close();
});

// ---- persona

test('persona: re-serialises the body, forwards headers minus the body and hop ones, and passes the answer', async () => {
  fake.on('POST', HOST, '/persona/evaluate', { json: fixture(HOST, 'persona-evaluation.json') });
  const app = await api();
  const res = await call(app, {
    method: 'POST',
    url: '/api/persona/evaluate',
    headers: { ...CALLER, 'content-type': 'application/json; charset=utf-8', connection: 'keep-alive', host: 'caller.example' },
    payload: `  ${JSON.stringify(persona, null, 4)}  `,
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(res.json(), fixture(HOST, 'persona-evaluation.json'));
  const [sent] = fake.requestsTo(HOST, '/persona/evaluate');
  assert.equal(sent?.method, 'POST');
  assert.equal(sent?.body.toString('utf8'), JSON.stringify(persona));
  assert.equal(sent?.headers['content-type'], 'application/json');
  assert.equal(sent?.headers['content-length'], String(Buffer.byteLength(JSON.stringify(persona))));
  assert.notEqual(sent?.headers.host, 'caller.example');
  assert.equal(sent?.query.get('key'), FAKE_PRIVATE_ENV.PRIVATE_API_KEY);
  assertForwarded(sent?.headers);
  await app.close();
});

test('persona: the upstream status and payload pass through, the quota 429 included', async () => {
  fake.on('POST', HOST, '/persona/evaluate', { status: 429, json: { error: 'Monthly quota used up', code: 'quota_exceeded' } });
  const app = await api();
  const res = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assert.equal(res.statusCode, 429);
  assert.deepEqual(res.json(), { error: 'Monthly quota used up', code: 'quota_exceeded' });
  assert.equal(res.headers['cache-control'], 'no-store');
  await app.close();
});

test('persona: every other method is 405', async () => {
  const app = await api();
  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
    const res = await call(app, { method, url: '/api/persona/evaluate' });
    assert.equal(res.statusCode, 405, method);
    assert.deepEqual(res.json(), { error: 'Method Not Allowed' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  await app.close();
});

test('persona: without persona.country it is 400 No persona provided', async () => {
  const app = await api();
  for (const payload of [{}, { persona: {} }, { persona: { country: '' } }, { persona: 'DE' }, { observation: {} }, []]) {
    const res = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: payload as object });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.deepEqual(res.json(), { error: 'No persona provided' });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  const noBody = await call(app, { method: 'POST', url: '/api/persona/evaluate' });
  assert.equal(noBody.statusCode, 400);
  assert.deepEqual(noBody.json(), { error: 'No persona provided' });
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('persona: without the private settings it is 500 API key is missing', async () => {
  const app = await api({});
  const res = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assert.equal(res.statusCode, 500);
  assert.deepEqual(res.json(), { error: 'API key is missing' });
  assert.equal(res.headers['cache-control'], 'no-store');
  await app.close();
});

test('persona: a refused connection or a timeout is 502 Upstream fetch failed', async () => {
  const refused = (await buildTestApi({ ...FAKE_PRIVATE_ENV, UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin() })).app;
  const res = await call(refused, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assert.equal(res.statusCode, 502);
  assert.deepEqual(res.json(), { error: 'Upstream fetch failed' });
  await refused.close();

  fake.on('POST', HOST, '/persona/evaluate', { hang: true });
  const slow = (await buildTestApi({ ...FAKE_PRIVATE_ENV, UPSTREAM_OVERRIDE_ORIGIN: fake.origin, UPSTREAM_TIMEOUT_MS: '50' })).app;
  const timedOut = await call(slow, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assert.equal(timedOut.statusCode, 502);
  assert.deepEqual(timedOut.json(), { error: 'Upstream fetch failed' });
  await slow.close();
});

test('an error status without a JSON body keeps its status with a JSON error; a 2xx without JSON is 502', async () => {
  const app = await api();
  fake.on('GET', HOST, `/dnsleaktest/session/${TOKEN}`, { status: 429, body: 'slow down' });
  const quota = await call(app, `/api/dnsleaktest/session/${TOKEN}`);
  assert.equal(quota.statusCode, 429);
  assert.deepEqual(quota.json(), { error: 'Monthly quota exceeded', code: 'quota_exceeded' });

  fake.on('GET', HOST, '/invisibility', { status: 404, body: '<html>Not Found</html>' });
  const pending = await call(app, `/api/invisibility?id=${ID}`);
  assert.equal(pending.statusCode, 200);
  assert.deepEqual(pending.json(), { status: 'pending' });

  fake.on('POST', HOST, '/persona/evaluate', { status: 503, body: 'Service Unavailable' });
  const down = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assert.equal(down.statusCode, 503);
  assert.deepEqual(down.json(), { error: 'Upstream error' });

  fake.on('POST', HOST, '/persona/evaluate', { status: 200, body: 'ok' });
  const garbled = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assert.equal(garbled.statusCode, 502);
  assert.deepEqual(garbled.json(), { error: 'Upstream fetch failed' });
  assert.equal(garbled.headers['cache-control'], 'no-store');
  await app.close();
});
