import { test, after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { closedOrigin, FakeUpstream } from '../support/fake-upstream.js';
import { FakeKv } from '../support/fake-kv.js';
import { assertErrorAnswer, buildTestApi, call, type LogCapture } from '../support/app.js';
import { overHttp } from '../support/over-http.js';
import { MAX_REPORT_BYTES, normaliseTtlDays } from '../../routes/report/index.js';
import { reportOfSize } from '../support/report-of-size.js';
import { FULL_REPORT } from '../support/fake-routes/platform.js';
import { EXAMPLE_REPORT } from '../../routes/report/examples.js';

const ACCOUNT = '023e105f4ecef8ad9ca31a8372d0c353';
const NAMESPACE = '0f2ac74b498b48028cb68387c421e279';
const TOKEN = 'radar-test-token';
const STORE_ENV = { RADAR_API_KEY: TOKEN, KV_ACCOUNT_ID: ACCOUNT, KV_NAMESPACE_ID: NAMESPACE };
const DAY = 24 * 60 * 60 * 1000;

let fake: FakeUpstream;
let kv: FakeKv;
let clock = Date.now();

before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());
beforeEach(() => {
  fake.reset();
  clock = Date.now();
  kv = new FakeKv(fake, { accountId: ACCOUNT, namespaceId: NAMESPACE, token: TOKEN, now: () => clock });
});

/** A fresh copy of a report, so a test may change it. */
const copy = <T>(value: T): T => structuredClone(value);

function post(app: Parameters<typeof call>[0], body: unknown) {
  return call(app, { method: 'POST', url: '/api/report', payload: body as Record<string, unknown> });
}

test('the contract example is stored: 201 {id, expiresAt}; GET answers {expiresAt, report} as written, no-store both ways', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const res = await post(app, { report: EXAMPLE_REPORT, ttlDays: 3 });
  assert.equal(res.statusCode, 201);
  assert.equal(res.headers['cache-control'], 'no-store');
  const created = res.json();
  assert.deepEqual(Object.keys(created), ['id', 'expiresAt']);
  const { id, expiresAt } = created;
  assert.match(id, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(typeof expiresAt, 'string');
  assert.equal(new Date(expiresAt).toISOString(), expiresAt);
  const ttlMs = Date.parse(expiresAt) - Date.now();
  assert.ok(ttlMs > 3 * DAY - 60_000 && ttlMs <= 3 * DAY, `expiry ${expiresAt}`);

  const [put] = fake.requestsTo(
    'api.cloudflare.com',
    `/client/v4/accounts/${ACCOUNT}/storage/kv/namespaces/${NAMESPACE}/values/${id}`,
  );
  assert.equal(put?.method, 'PUT');
  assert.equal(put?.query.get('expiration_ttl'), String(3 * 24 * 60 * 60));
  assert.equal(put?.headers.authorization, `Bearer ${TOKEN}`);
  assert.match(String(put?.headers['content-type']), /^multipart\/form-data; boundary=/);
  const entry = kv.entries.get(id)!;
  assert.equal(entry.value, JSON.stringify({ expiresAt, report: EXAMPLE_REPORT }));
  assert.deepEqual(JSON.parse(entry.metadata!), { expiresAt });

  const read = await call(app, `/api/report/${id}`);
  assert.equal(read.statusCode, 200);
  assert.equal(read.headers['cache-control'], 'no-store');
  assert.equal(read.body, entry.value);
  const body = read.json();
  assert.equal(body.report.v, 1);
  assert.equal(typeof body.report.sections, 'object');
  assert.equal(body.report.origin, 'localhost');
  assert.equal(body.report.sections.ipinfo.cards[0].asn, 'AS15169');
  await app.close();
});

test('a report with every section, masked addresses and nulls reads back unchanged', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const res = await post(app, { report: FULL_REPORT, ttlDays: 7 });
  assert.equal(res.statusCode, 201, res.body);
  const { id, expiresAt } = res.json();
  const read = await call(app, `/api/report/${id}`);
  assert.equal(read.statusCode, 200);
  assert.deepEqual(read.json(), { expiresAt, report: FULL_REPORT });
  await app.close();
});

test('a report expires after its ttl and then answers 404 Report not found or expired', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const res = await post(app, { report: EXAMPLE_REPORT, ttlDays: 1 });
  const { id } = res.json();
  clock += DAY - 1000;
  assert.equal((await call(app, `/api/report/${id}`)).statusCode, 200);
  clock += 2000;
  const gone = await call(app, `/api/report/${id}`);
  assertErrorAnswer(gone, 404, 'Report not found or expired');
  await app.close();
});

test('an unknown id is 404 and a malformed id is the guard 400', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const unknown = await call(app, '/api/report/AAAAAAAAAAAAAAAAAAAAAA');
  assertErrorAnswer(unknown, 404, 'Report not found or expired');
  const bad = await call(app, '/api/report/short');
  assertErrorAnswer(bad, 400, 'Invalid report id');
  assert.equal(fake.requestsTo('api.cloudflare.com').length, 1);
  await app.close();
});

test('a store entry past its stored expiry, or outside the whitelist, is 404', async () => {
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  kv.set(
    'BBBBBBBBBBBBBBBBBBBBBB',
    JSON.stringify({ expiresAt: new Date(Date.now() - 1000).toISOString(), report: EXAMPLE_REPORT }),
    3600,
  );
  assert.equal((await call(app, '/api/report/BBBBBBBBBBBBBBBBBBBBBB')).statusCode, 404);
  // A report in the shape this service stored before it followed the page's whitelist.
  const old = { version: 1, createdAt: '2026-11-22T23:50:00.000Z', ipCards: [] };
  kv.set(
    'CCCCCCCCCCCCCCCCCCCCCC',
    JSON.stringify({ expiresAt: new Date(Date.now() + DAY).toISOString(), report: old }),
    3600,
  );
  const stale = await call(app, '/api/report/CCCCCCCCCCCCCCCCCCCCCC');
  assertErrorAnswer(stale, 404, 'Report not found or expired');
  assert.equal(logs.find('outside the report whitelist').length, 1);
  await app.close();
});

type Mutation = (r: any) => void;
const failures: Array<[string, Mutation, string[]]> = [
  [
    'a country name as country code',
    (r) => (r.sections.ipinfo.cards[0].countryCode = 'United States'),
    ['report.sections.ipinfo.cards[0].countryCode: expected 2-letter country code or empty string'],
  ],
  ['an unknown key', (r) => (r.comment = 'hello'), ['report.comment: unknown key']],
  [
    'an unknown key deep inside',
    (r) => (r.sections.ipinfo.cards[0].note = 'x'),
    ['report.sections.ipinfo.cards[0].note: unknown key'],
  ],
  [
    'an unknown section',
    (r) => (r.sections.whois = { testedAt: '2026-11-24T12:00:00Z' }),
    ['report.sections.whois: unknown section'],
  ],
  ['no section', (r) => (r.sections = {}), ['report.sections: at least one section required']],
  ['a missing key', (r) => delete r.generatedAt, ['report.generatedAt: missing required key']],
  ['another version', (r) => (r.v = 2), ['report.v: expected integer 1']],
  [
    'a wrong type',
    (r) => (r.sections.ipinfo.cards[0].asn = 15169),
    ['report.sections.ipinfo.cards[0].asn: expected string (max 16)'],
  ],
  [
    'a string too long',
    (r) => (r.sections.ipinfo.cards[0].city = 'x'.repeat(65)),
    ['report.sections.ipinfo.cards[0].city: expected string (max 64)'],
  ],
  // 64 code points, but 128 UTF-16 units as the page counts.
  [
    'a string too long in UTF-16 units',
    (r) => (r.sections.ipinfo.cards[0].city = '\u{1F600}'.repeat(64)),
    ['report.sections.ipinfo.cards[0].city: expected string (max 64)'],
  ],
  [
    'an unknown enum value',
    (r) => (r.sections.ipinfo.cards[0].isProxy = 'true'),
    ['report.sections.ipinfo.cards[0].isProxy: expected one of yes|maybe|no'],
  ],
  [
    'a number out of range',
    (r) => (r.sections.ipinfo.cards[0].qualityScore = 101),
    ['report.sections.ipinfo.cards[0].qualityScore: expected number in [0, 100]'],
  ],
  [
    'a fraction where an integer belongs',
    (r) =>
      (r.sections.connectivity = {
        testedAt: '2026-11-24T12:00:00Z',
        targets: [{ id: 'g', name: 'G', status: 'ok', timeMs: 1.5 }],
      }),
    ['report.sections.connectivity.targets[0].timeMs: expected integer in [0, 600000]'],
  ],
  [
    'a date Date.parse cannot read',
    (r) => (r.generatedAt = 'yesterday'),
    ['report.generatedAt: expected ISO date string'],
  ],
  [
    'an empty time zone',
    (r) => (r.sections.ipinfo.cards[0].timezone = ''),
    ['report.sections.ipinfo.cards[0].timezone: expected IANA time zone name'],
  ],
  [
    'a malformed IP',
    (r) => (r.sections.ipinfo.cards[0].ip = '8.8.8'),
    ['report.sections.ipinfo.cards[0].ip: expected IP address (full or tail-masked)'],
  ],
  [
    'a masked IPv6 with too few groups',
    (r) => (r.sections.ipinfo.cards[0].ip = '2a01:4f8:x'),
    ['report.sections.ipinfo.cards[0].ip: expected IP address (full or tail-masked)'],
  ],
  [
    'a URL as ping target',
    (r) => (r.sections.pingtest = { testedAt: '2026-11-24T12:00:00Z', target: 'https://example.com/', probes: [] }),
    ['report.sections.pingtest.target: expected IP address or domain name'],
  ],
  [
    'null where not nullable',
    (r) => (r.sections.ipinfo.cards[0].city = null),
    ['report.sections.ipinfo.cards[0].city: unexpected null'],
  ],
  [
    'too many items',
    (r) => (r.sections.ipinfo.cards = Array.from({ length: 9 }, () => r.sections.ipinfo.cards[0])),
    ['report.sections.ipinfo.cards: too many items (max 8)'],
  ],
  [
    'an object where an array belongs',
    (r) => (r.sections.ipinfo.cards = {}),
    ['report.sections.ipinfo.cards: expected array'],
  ],
];

for (const [name, mutate, details] of failures) {
  test(`a report with ${name} is 400 with its detail`, async () => {
    const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
    const report = copy(EXAMPLE_REPORT);
    mutate(report);
    const res = await post(app, { report, ttlDays: 1 });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'Invalid report', details });
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(fake.requestsTo('api.cloudflare.com').length, 0);
    await app.close();
  });
}

test('tail-masked and full addresses, empty country codes, nulls where nullable and a domain target are accepted', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const report: any = copy(EXAMPLE_REPORT);
  const card = report.sections.ipinfo.cards[0];
  for (const ip of ['203.0.113.x', '2a01:4f8:c0c:1234:x', '2001:4860:4860::8888', '8.8.8.8']) {
    report.sections.ipinfo.cards.push({ ...card, ip, countryCode: 'us' });
  }
  report.sections.speedtest = { testedAt: '2026-11-24T12:00:00Z', downloadMbps: null, uploadMbps: 12.5 };
  report.sections.pingtest = { testedAt: '2026-11-24T12:00:00Z', target: 'Sub.Example.COM', probes: [] };
  report.sections.persona = {
    testedAt: '2026-11-24T12:00:00Z',
    country: '',
    grade: 'unknown',
    score: null,
    counts: { total: 0, scored: 0, match: 0, mismatch: 0, unnatural: 0, leak: 0, unknown: 0, notApplicable: 0 },
    results: [],
  };
  const res = await post(app, { report, ttlDays: 1 });
  assert.equal(res.statusCode, 201, res.body);
  await app.close();
});

test('a 400 names at most 20 problems', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const report: any = copy(EXAMPLE_REPORT);
  report.sections.ipinfo.cards = Array.from({ length: 8 }, () => ({
    source: 1,
    ip: 'x',
    countryCode: 'USA',
    city: 2,
    isp: 3,
  }));
  const res = await post(app, { report, ttlDays: 1 });
  assert.equal(res.statusCode, 400);
  const { details } = res.json();
  assert.equal(details.length, 20);
  for (const line of details) assert.match(line, /^report\.sections\.ipinfo\.cards\[\d\]\.\w+: .+$/);
  await app.close();
});

test('a body without a report, or not an object, is 400 Invalid report', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  for (const body of [{ ttlDays: 1 }, [1, 2], { report: 'text' }, { report: [EXAMPLE_REPORT] }, { report: null }]) {
    const res = await post(app, body);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'Invalid report', details: ['report: expected object'] });
  }
  await app.close();
});

test('the 256 KB cap: exactly at the cap is stored, one byte over is 413', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const atCap = await post(app, { report: reportOfSize(MAX_REPORT_BYTES), ttlDays: 1 });
  assert.equal(atCap.statusCode, 201);
  const over = await post(app, { report: reportOfSize(MAX_REPORT_BYTES + 1), ttlDays: 1 });
  assertErrorAnswer(over, 413, 'Report too large');
  assert.equal(kv.entries.size, 1);
  await app.close();
});

test('the size is judged after the whitelist: an oversized invalid report is 400, not 413', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const report: any = reportOfSize(300 * 1024);
  report.sections.ipinfo.cards[0].note = 'x';
  const res = await post(app, { report, ttlDays: 1 });
  assert.equal(res.statusCode, 400);
  assert.deepEqual(res.json(), {
    error: 'Invalid report',
    details: ['report.sections.ipinfo.cards[0].note: unknown key'],
  });
  await app.close();
});

test('the 500 KB JSON body limit sits above the report cap', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  // A valid 400 KB report reaches the handler (its own 413 body); a 600 KB body is refused by the body parser.
  const mid = await post(app, { report: reportOfSize(400 * 1024), ttlDays: 1 });
  assertErrorAnswer(mid, 413, 'Report too large');
  const huge = await post(app, { report: { ...EXAMPLE_REPORT, filler: 'x'.repeat(600 * 1024) }, ttlDays: 1 });
  assert.equal(huge.statusCode, 413);
  assert.notDeepEqual(huge.json(), { error: 'Report too large' });
  await app.close();
});

test('ttlDays 1, 3 and 7 are kept, anything else becomes 1', async () => {
  assert.deepEqual([1, 3, 7].map(normaliseTtlDays), [1, 3, 7]);
  for (const value of [0, 2, 30, -1, 3.5, '3', null, undefined, {}]) assert.equal(normaliseTtlDays(value), 1);
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  for (const [ttlDays, seconds] of [
    [7, 604800],
    [30, 86400],
    ['7', 86400],
    [undefined, 86400],
  ] as const) {
    fake.requests.length = 0;
    const res = await post(app, { report: EXAMPLE_REPORT, ttlDays });
    assert.equal(res.statusCode, 201);
    assert.equal(fake.requestsTo('api.cloudflare.com')[0]?.query.get('expiration_ttl'), String(seconds));
    const days = Math.round((Date.parse(res.json().expiresAt) - Date.now()) / DAY);
    assert.equal(days, seconds / 86400);
  }
  await app.close();
});

test('without all three store settings both routes answer 503 first, even for a bad body', async () => {
  for (const missing of ['RADAR_API_KEY', 'KV_ACCOUNT_ID', 'KV_NAMESPACE_ID'] as const) {
    const env: Record<string, string> = { UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV };
    delete env[missing];
    const { app } = await buildTestApi(env);
    for (const res of [
      await post(app, { report: EXAMPLE_REPORT, ttlDays: 1 }),
      await post(app, { report: { bogus: true } }),
      await post(app, { report: reportOfSize(MAX_REPORT_BYTES + 1) }),
      await call(app, '/api/report/AAAAAAAAAAAAAAAAAAAAAA'),
    ]) {
      assertErrorAnswer(res, 503, 'Report sharing is not configured');
    }
    const flags = await call(app, '/api/configs');
    assert.equal(flags.json().reportSharing, false);
    await app.close();
  }
  assert.equal(fake.requestsTo('api.cloudflare.com').length, 0);
});

test('any method but POST on /api/report is 405', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
    const res = await call(app, { method, url: '/api/report' });
    assertErrorAnswer(res, 405, 'Method Not Allowed', method);
  }
  await app.close();
});

/** The lines a store failure left: its warnings (one per route and reason), and any error line at all. */
function storeFailureLines(logs: LogCapture) {
  return {
    warnings: logs.find('report store failed').filter((l) => l.level === 40),
    errors: logs.lines.filter((l) => Number(l.level) >= 50),
  };
}

test('a store outage is a 500 {error}, never a success, logged as one warning without a stack', async () => {
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  kv.down = true;
  const res = await post(app, { report: EXAMPLE_REPORT, ttlDays: 1 });
  assertErrorAnswer(res, 500, 'Report store unavailable');
  assert.equal(kv.entries.size, 0);
  const read = await call(app, '/api/report/AAAAAAAAAAAAAAAAAAAAAA');
  assertErrorAnswer(read, 500, 'Report store unavailable');
  const { warnings, errors } = storeFailureLines(logs);
  assert.deepEqual(
    warnings.map((l) => l.route),
    ['/api/report', '/api/report/:id'],
  );
  for (const line of warnings) {
    assert.match(JSON.stringify(line.err), /Report store answered 500/);
    assert.ok(!JSON.stringify(line).includes('"stack"'), 'an expected failure has no stack');
  }
  assert.deepEqual(errors, []);
  assert.ok(!logs.text.includes(TOKEN));
  await app.close();
});

/** POSTs a report on `env`; the store's failure is a 500, logged as exactly one warning without a stack and no error. */
async function postFailingStore(env: Record<string, string>): Promise<Record<string, unknown>> {
  const { app, logs } = await buildTestApi({ ...env, ...STORE_ENV });
  const res = await post(app, { report: EXAMPLE_REPORT, ttlDays: 1 });
  assertErrorAnswer(res, 500, 'Report store unavailable');
  await app.close();
  const { warnings, errors } = storeFailureLines(logs);
  assert.equal(warnings.length, 1);
  assert.ok(!JSON.stringify(warnings[0]).includes('"stack"'));
  assert.deepEqual(errors, []);
  return warnings[0]!.err as Record<string, unknown>;
}

test('an unreachable store is one warning without a stack, not an error', async () => {
  const err = await postFailingStore({ UPSTREAM_OVERRIDE_ORIGIN: await closedOrigin() });
  assert.equal(err.code, 'ECONNREFUSED');
});

test('a store that does not answer in time is one warning saying so, without a stack', async () => {
  fake.on('PUT', 'api.cloudflare.com', /.*/, { hang: true });
  const err = await postFailingStore({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, UPSTREAM_TIMEOUT_MS: '300' });
  assert.equal(err.reason, 'timed out');
});

test('a refused write (wrong token) and an unreachable store are 500 too', async () => {
  const wrong = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    ...STORE_ENV,
    RADAR_API_KEY: 'other-token',
  });
  const refused = await post(wrong.app, { report: EXAMPLE_REPORT, ttlDays: 1 });
  assert.equal(refused.statusCode, 500);
  assert.match(JSON.stringify(wrong.logs.find('report store failed')), /Authentication error/);
  await wrong.app.close();

  fake.on('PUT', 'api.cloudflare.com', /.*/, { destroy: true });
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const dropped = await post(app, { report: EXAMPLE_REPORT, ttlDays: 1 });
  assert.equal(dropped.statusCode, 500);
  assert.equal(logs.find('report store failed').length, 1);
  await app.close();
});

/** POSTs the example report `times` times over a real socket as client `ip`; the statuses and the last body. */
async function postOverHttp(fetch: Awaited<ReturnType<typeof overHttp>>, ip: string, times: number) {
  const statuses: number[] = [];
  let body = '';
  for (let i = 0; i < times; i++) {
    const res = await fetch('/api/report', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ report: EXAMPLE_REPORT, ttlDays: 7 }),
    });
    statuses.push(res.statusCode);
    body = res.body;
  }
  return { statuses, body };
}

test('storing has its own limit, 20 per client an hour by default, with the global limiter off: the 21st is 429 and stores nothing', async () => {
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV });
  const fetch = await overHttp(app);
  const { statuses, body } = await postOverHttp(fetch, '2001:db8:5:5::1', 21);
  assert.deepEqual(statuses, [...Array(20).fill(201), 429]);
  assert.deepEqual(JSON.parse(body), { message: 'Too Many Requests' });
  assert.equal(kv.entries.size, 20, 'the 21st never reached the store');
  assert.deepEqual(
    (await postOverHttp(fetch, '2001:db8:5:5::2', 1)).statuses,
    [429],
    'another address of the same /64',
  );
  assert.equal(kv.entries.size, 20);
  assert.deepEqual((await postOverHttp(fetch, '198.51.100.60', 1)).statuses, [201], 'another client');
  const [id] = kv.entries.keys();
  const read = await fetch(`/api/report/${id}`, { headers: { 'x-forwarded-for': '2001:db8:5:5::1' } });
  assert.equal(read.statusCode, 200, 'reading stays under the global limiter only');
  assert.equal(logs.find("client entered the report limiter's limited state").length, 1);
  await app.close();
});

test('REPORT_RATE_LIMIT sets the number; 0 leaves report creation to the global limiter, as the spec has it', async () => {
  const three = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV, REPORT_RATE_LIMIT: '3' });
  assert.deepEqual((await postOverHttp(await overHttp(three.app), '198.51.100.61', 4)).statuses, [201, 201, 201, 429]);
  await three.app.close();
  const none = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...STORE_ENV, REPORT_RATE_LIMIT: '0' });
  const { statuses } = await postOverHttp(await overHttp(none.app), '198.51.100.62', 25);
  assert.deepEqual(statuses, Array(25).fill(201));
  await none.app.close();
});
