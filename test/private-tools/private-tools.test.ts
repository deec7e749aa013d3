import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, closedOrigin } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, call } from '../support/app.js';
import { FAKE_PRIVATE_ENV } from '../support/fake-routes/network-tools.js';
import { EXAMPLE_PRIVATE_API_HOST as HOST } from '../../routes/example-request.js';
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

const persona = {
  persona: { country: 'DE', language: 'de', timezone: 'Europe/Berlin' },
  observation: { timezone: 'Europe/Berlin', languages: ['en-US'] },
};

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

test('dns-leak session: answers the contract fields the site reads (counts, and per query the resolver, its place, type, transport, ECS and DNSSEC bits)', async () => {
  fake.on('GET', HOST, `/dnsleaktest/session/${TOKEN}`, { json: fixture(HOST, 'dnsleaktest-session.json') });
  const app = await api();
  const body = (await call(app, `/api/dnsleaktest/session/${TOKEN}`)).json();
  assert.equal(body.rawCount, 12);
  assert.equal(body.resolverCount, 3);
  assert.equal(body.queries.length, 4);
  for (const q of body.queries) {
    assert.equal(typeof q.ip, 'string');
    for (const key of ['country_name', 'region', 'city', 'asn', 'org']) {
      assert.equal(typeof q.ipInfo[key], 'string', key);
    }
    assert.match(q.ipInfo.country_code, /^[A-Z]{2}$/);
    assert.equal(typeof q.queryType, 'string');
    assert.equal(typeof q.transport, 'string');
    assert.equal(typeof q.do, 'boolean');
    assert.equal(typeof q.cd, 'boolean');
  }
  assert.deepEqual(body.queries[0], {
    ip: '172.253.226.34',
    ipInfo: {
      country_code: 'US',
      country_name: 'United States',
      region: 'California',
      city: 'Mountain View',
      asn: 'AS15169',
      org: 'Google LLC',
    },
    queryType: 'A',
    transport: 'udp',
    ecs: '91.64.12.0/24',
    ecsInfo: { country_code: 'DE', country_name: 'Germany', region: 'Berlin', city: 'Berlin' },
    do: true,
    cd: false,
  });
  assert.equal('ecs' in body.queries[2], false);
  await app.close();
});

test('dns-leak session: upstream statuses pass through unchanged, the quota 429 included', async () => {
  const app = await api();
  for (const [status, body] of [
    [429, fixture(HOST, 'dnsleaktest-quota.json')],
    [404, { error: 'Session not found' }],
    [401, { error: 'Sign in required', hint: 'sign in' }],
    [403, { message: 'Invalid token' }],
    [202, { status: 'collecting' }],
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

test('a quota 429 always carries code quota_exceeded in the body, its text in error and no message key', async () => {
  const app = await api();
  const cases: Array<[unknown, unknown]> = [
    [{ message: 'Monthly quota used up' }, { error: 'Monthly quota used up', code: 'quota_exceeded' }],
    [
      { error: 'Quota used up', message: 'Upgrade your plan', resetAt: '2026-12-01' },
      { error: 'Quota used up', resetAt: '2026-12-01', code: 'quota_exceeded' },
    ],
    [{ code: 'rate_limited' }, { error: 'Monthly quota exceeded', code: 'quota_exceeded' }],
    [['quota'], { error: 'Monthly quota exceeded', code: 'quota_exceeded' }],
  ];
  for (const [upstream, expected] of cases) {
    fake.reset();
    fake.on('GET', HOST, `/dnsleaktest/session/${TOKEN}`, { status: 429, json: upstream });
    fake.on('GET', HOST, '/invisibility', { status: 429, json: upstream });
    fake.on('POST', HOST, '/persona/evaluate', { status: 429, json: upstream });
    for (const request of [
      `/api/dnsleaktest/session/${TOKEN}`,
      `/api/invisibility?id=${ID}`,
      { method: 'POST' as const, url: '/api/persona/evaluate', payload: persona },
    ]) {
      const res = await call(app, request);
      assert.equal(res.statusCode, 429);
      assert.deepEqual(res.json(), expected, JSON.stringify(upstream));
      assert.equal(res.headers['cache-control'], 'no-store');
    }
  }
  await app.close();
});

test('a 200 in a shape the site does not expect passes through unchanged, status and body', async () => {
  const session = fixture(HOST, 'dnsleaktest-session.json') as { queries: Array<Record<string, unknown>> };
  const result = fixture(HOST, 'invisibility-result.json') as Record<string, unknown>;
  const evaluation = fixture(HOST, 'persona-evaluation.json') as Record<string, unknown>;
  const odd = {
    session: { ...session, queries: [{ ...session.queries[0], do: 'yes' }] },
    invisibility: { ...result, webrtc: undefined, extra: [1, 2] },
    persona: { ...evaluation, score: 74 },
    bare: ['not', 'an', 'object'],
  };
  fake.on('GET', HOST, `/dnsleaktest/session/${TOKEN}`, { json: odd.session });
  fake.on('GET', HOST, '/invisibility', { json: odd.invisibility });
  fake.on('POST', HOST, '/persona/evaluate', { json: odd.persona });
  const app = await api();
  for (const [request, expected] of [
    [`/api/dnsleaktest/session/${TOKEN}`, odd.session],
    [`/api/invisibility?id=${ID}`, odd.invisibility],
    [{ method: 'POST' as const, url: '/api/persona/evaluate', payload: persona }, odd.persona],
  ] as const) {
    const res = await call(app, request);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), JSON.parse(JSON.stringify(expected)));
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  fake.on('GET', HOST, '/invisibility', { status: 202, json: odd.bare });
  const accepted = await call(app, `/api/invisibility?id=${ID}`);
  assert.equal(accepted.statusCode, 202);
  assert.deepEqual(accepted.json(), odd.bare);
  await app.close();
});

test('dns-leak session: a malformed token is 400 Invalid token, and a path in it never reaches the upstream', async () => {
  const app = await api();
  for (const token of [
    '',
    TOKEN.slice(1),
    `${TOKEN}0`,
    'g'.repeat(32),
    '..%2F..%2F..%2Fadmin%40evil.example%2Fxxxxxx',
    '%2E%2E%2F%2E%2E%2Fpersona%2Fevaluate%3Fa%3Db1234',
  ]) {
    const res = await call(app, `/api/dnsleaktest/session/${token}`);
    assertErrorAnswer(res, 400, 'Invalid token', token);
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('dns-leak session: without the private settings it is 500 API key is missing', async () => {
  const partial: Array<Record<string, string>> = [
    {},
    { PRIVATE_API_KEY: 'k' },
    { PRIVATE_API_ENDPOINT: 'https://private-api.example' },
  ];
  for (const env of partial) {
    const app = await api(env);
    const res = await call(app, `/api/dnsleaktest/session/${TOKEN}`);
    assertErrorAnswer(res, 500, 'API key is missing');
    await app.close();
  }
  assert.equal(fake.requests.length, 0);
});

test('dns-leak session: an unreachable private API is 502 Upstream fetch failed', async () => {
  const app = (await buildTestApi({ ...FAKE_PRIVATE_ENV, UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin() })).app;
  const res = await call(app, `/api/dnsleaktest/session/${TOKEN}`);
  assertErrorAnswer(res, 502, 'Upstream fetch failed');
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

test('invisibility: answers every contract field the site reads, with its type', async () => {
  fake.on('GET', HOST, '/invisibility', { json: fixture(HOST, 'invisibility-result.json') });
  const app = await api();
  const body = (await call(app, `/api/invisibility?id=${ID}`)).json();
  assert.equal(body.ip, '185.107.56.231');
  assert.deepEqual(body.score, { proxy: 35, vpn: 80 });
  const types: Record<string, Record<string, string>> = {
    headers: { proxy: 'boolean' },
    datacenter: { is_datacenter: 'boolean' },
    blocklist: { proxy: 'boolean', vpn: 'boolean', vpnExitNode: 'boolean' },
    tor_detection: { proxy: 'boolean', vpn: 'boolean' },
    tcp: { proxy: 'boolean', clientos: 'string', ipos: 'string' },
    latency_vs_ping: { vpn: 'boolean', tcpTime: 'number', pingTime: 'number' },
    latency_vs_ws: { proxy: 'boolean', tcpTime: 'number', wsTime: 'number' },
    timezone: { proxy: 'boolean', vpn: 'boolean', clienttimezone: 'string', iptimezone: 'string' },
    net: { proxy: 'boolean' },
    flow: { proxy: 'boolean' },
    highlatency: { proxy: 'boolean' },
    webrtc: { proxy: 'boolean', ip: 'string' },
  };
  for (const [object, fields] of Object.entries(types)) {
    for (const [field, type] of Object.entries(fields)) {
      assert.equal(typeof body[object][field], type, `${object}.${field}`);
    }
  }
  assert.deepEqual(body.webrtc.allips, ['185.107.56.231', '91.64.12.37']);
  assert.deepEqual(body.latency_vs_ping, { vpn: true, tcpTime: 182, pingTime: 41 });
  assert.deepEqual(body.timezone, {
    proxy: false,
    vpn: true,
    clienttimezone: 'Europe/Berlin',
    iptimezone: 'Europe/Amsterdam',
  });
  await app.close();
});

test('invisibility: an upstream 200 pending passes as pending', async () => {
  fake.on('GET', HOST, '/invisibility', { json: { status: 'pending' } });
  const app = await api();
  const res = await call(app, `/api/invisibility?id=${ID}`);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'pending' });
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

test('invisibility: a 401/403 keeps its status with its text in error, never message (contract §9); others pass through', async () => {
  const app = await api();
  for (const [status, body, expected] of [
    [403, { error: 'Forbidden', reason: 'plan' }, { error: 'Forbidden', reason: 'plan' }],
    [401, { error: 'Sign in required' }, { error: 'Sign in required' }],
    [401, { message: 'Invalid token' }, { error: 'Invalid token' }],
    [403, { message: 'Token expired', hint: 'sign in again' }, { error: 'Token expired', hint: 'sign in again' }],
    [403, {}, { error: 'Sign in required' }],
    [500, { error: 'internal' }, { error: 'internal' }],
    [500, { message: 'internal' }, { message: 'internal' }],
  ] as const) {
    fake.reset();
    fake.on('GET', HOST, '/invisibility', { status, json: body });
    const res = await call(app, `/api/invisibility?id=${ID}`);
    assert.equal(res.statusCode, status);
    assert.deepEqual(res.json(), expected, JSON.stringify(body));
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  await app.close();
});

test('invisibility: a missing or malformed id gets its own 400, and never reaches the upstream', async () => {
  const app = await api();
  const missing = await call(app, '/api/invisibility');
  assertErrorAnswer(missing, 400, 'No ID provided');
  for (const id of [ID.slice(1), `${ID}x`, `${ID.slice(2)}%2F.`, `${ID.slice(3)}%40ev`, `${ID.slice(1)}%26`]) {
    const res = await call(app, `/api/invisibility?id=${id}`);
    assertErrorAnswer(res, 400, 'Invalid ID', id);
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('invisibility: without the private settings it is 500 API key is missing', async () => {
  const app = await api({});
  const res = await call(app, `/api/invisibility?id=${ID}`);
  assertErrorAnswer(res, 500, 'API key is missing');
  await app.close();
});

// ---- persona

test('persona: re-serialises the body, forwards headers minus the body and hop ones, and passes the answer', async () => {
  fake.on('POST', HOST, '/persona/evaluate', { json: fixture(HOST, 'persona-evaluation.json') });
  const app = await api();
  const res = await call(app, {
    method: 'POST',
    url: '/api/persona/evaluate',
    headers: {
      ...CALLER,
      'content-type': 'application/json; charset=utf-8',
      connection: 'keep-alive',
      host: 'caller.example',
    },
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

test('persona: answers the contract fields the site reads: grade, score as a share, counts and the result rows', async () => {
  fake.on('POST', HOST, '/persona/evaluate', { json: fixture(HOST, 'persona-evaluation.json') });
  const app = await api();
  const body = (await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: persona })).json();
  assert.equal(body.grade, 'B');
  assert.equal(body.score, 0.74);
  assert.deepEqual(body.counts, {
    total: 18,
    scored: 15,
    match: 11,
    mismatch: 2,
    unnatural: 1,
    leak: 1,
    unknown: 1,
    notApplicable: 2,
  });
  assert.equal(body.results.length, 18);
  for (const r of body.results) {
    assert.equal(typeof r.id, 'string');
    assert.ok(['match', 'coherence', 'leak'].includes(r.axis), r.axis);
    assert.ok(['match', 'mismatch', 'leak', 'unnatural', 'unknown', 'not-applicable'].includes(r.verdict), r.verdict);
    assert.ok(['public', 'probed', 'risk-engine'].includes(r.visibility), r.visibility);
    assert.equal(typeof r.detail, 'object');
  }
  const counted = (verdict: string) => body.results.filter((r: { verdict: string }) => r.verdict === verdict).length;
  assert.deepEqual(
    [counted('match'), counted('mismatch'), counted('not-applicable')],
    [body.counts.match, body.counts.mismatch, body.counts.notApplicable],
  );
  assert.deepEqual(body.results[1], {
    id: 'webrtc-leak',
    axis: 'leak',
    verdict: 'leak',
    visibility: 'probed',
    detail: { exposed: [{ ip: '91.64.12.37', countryCode: 'DE' }], v4: '91.64.12.37' },
  });
  await app.close();
});

test('persona: a null score (ungraded) passes', async () => {
  fake.on('POST', HOST, '/persona/evaluate', {
    json: { ...(fixture(HOST, 'persona-evaluation.json') as object), grade: 'unknown', score: null },
  });
  const app = await api();
  const res = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().score, null);
  assert.equal(res.json().grade, 'unknown');
  await app.close();
});

test('persona: the upstream status and payload pass through, the quota 429 included', async () => {
  fake.on('POST', HOST, '/persona/evaluate', {
    status: 429,
    json: { error: 'Monthly quota used up', code: 'quota_exceeded' },
  });
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
    assertErrorAnswer(res, 405, 'Method Not Allowed', method);
  }
  await app.close();
});

test('persona: without persona.country it is 400 No persona provided', async () => {
  const app = await api();
  for (const payload of [
    {},
    { persona: {} },
    { persona: { country: '' } },
    { persona: 'DE' },
    { observation: {} },
    [],
  ]) {
    const res = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: payload as object });
    assertErrorAnswer(res, 400, 'No persona provided', JSON.stringify(payload));
  }
  const noBody = await call(app, { method: 'POST', url: '/api/persona/evaluate' });
  assertErrorAnswer(noBody, 400, 'No persona provided');
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('persona: without the private settings it is 500 API key is missing', async () => {
  const app = await api({});
  const res = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assertErrorAnswer(res, 500, 'API key is missing');
  await app.close();
});

test('persona: a refused connection or a timeout is 502 Upstream fetch failed', async () => {
  const refused = (await buildTestApi({ ...FAKE_PRIVATE_ENV, UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin() })).app;
  const res = await call(refused, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assertErrorAnswer(res, 502, 'Upstream fetch failed');
  await refused.close();

  fake.on('POST', HOST, '/persona/evaluate', { hang: true });
  const slow = (
    await buildTestApi({ ...FAKE_PRIVATE_ENV, UPSTREAM_OVERRIDE_ORIGIN: fake.origin, UPSTREAM_TIMEOUT_MS: '50' })
  ).app;
  const timedOut = await call(slow, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assertErrorAnswer(timedOut, 502, 'Upstream fetch failed');
  await slow.close();
});

test('an error status without a JSON body keeps its status with a JSON error; a 2xx without JSON is 502 Upstream error', async () => {
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
  assertErrorAnswer(down, 503, 'Upstream error');

  fake.on('POST', HOST, '/persona/evaluate', { status: 200, body: 'ok' });
  const garbled = await call(app, { method: 'POST', url: '/api/persona/evaluate', payload: persona });
  assertErrorAnswer(garbled, 502, 'Upstream error');
  await app.close();
});
