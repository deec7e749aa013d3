import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, call } from '../support/app.js';
import { registerGeoFakeRoutes } from '../support/fake-routes/geo.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { mountainViewRecord } from '../support/geo-records.js';

const V6 = '2a01:4f8:c0c:1234::1';
const FIELDS = [
  'ip',
  'city',
  'region',
  'country',
  'country_name',
  'country_code',
  'latitude',
  'longitude',
  'timezone',
  'asn',
  'org',
];
const KEYS = {
  GEO_KEYED_A_API_KEY: 'tok-a',
  GEO_KEYED_B_API_KEY: 'key-b',
  GEO_KEYED_C_API_KEY: 'key-c',
  PRIVATE_API_KEY: 'private-key',
  PRIVATE_API_ENDPOINT: 'https://private-api.example',
};

const fake = fakeUpstreamPerFile(registerGeoFakeRoutes);

async function get(url: string, env: Record<string, string> = KEYS, headers: Record<string, string> = {}) {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, ...env });
  try {
    return await call(app, { method: 'GET', url, headers });
  } finally {
    await app.close();
  }
}

const NUMBERS = new Set(['latitude', 'longitude']);

/** Every field of the record is there with its type: a number (coordinates) or a string, or null when unknown. */
function assertRecord(body: Record<string, unknown>) {
  for (const field of FIELDS) {
    assert.ok(field in body, `field ${field} present`);
    const value = body[field];
    if (value !== null) assert.equal(typeof value, NUMBERS.has(field) ? 'number' : 'string', field);
  }
  assert.equal(typeof body.ip, 'string');
}

test('geo-keyed-a normalises ipinfo (IPv4): loc split, org/asn split, country name from the code, cached a day', async () => {
  const res = await get('/api/geo-keyed-a?ip=8.8.8.8');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  assert.deepEqual(res.json(), mountainViewRecord({ country_name: 'United States of America' }));
  const [sent] = fake.requestsTo('ipinfo.io');
  assert.equal(sent?.path, '/8.8.8.8');
  assert.equal(sent?.query.get('token'), 'tok-a');
  assert.equal(sent?.headers.referer, undefined, 'caller headers stay with the caller');
});

test('geo-keyed-a IPv6, and without a key no token is sent', async () => {
  const res = await get(`/api/geo-keyed-a?ip=${V6}`, {});
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assertRecord(body);
  assert.equal(body.ip, V6);
  assert.equal(body.country, 'DE');
  assert.equal(body.country_code, 'DE');
  assert.equal(body.country_name, 'Germany');
  assert.equal(body.asn, 'AS24940');
  assert.equal(body.org, 'Hetzner Online GmbH');
  assert.equal(body.timezone, 'Europe/Berlin');
  assert.equal(fake.requestsTo('ipinfo.io')[0]?.query.has('token'), false);
});

test('geo-keyed-a: missing city, region, loc and org become null, and so does the timezone', async () => {
  fake.on('GET', 'ipinfo.io', '/1.1.1.1', { json: fixture('ipinfo.io', '1.1.1.1-no-city.json') });
  const res = await get('/api/geo-keyed-a?ip=1.1.1.1');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assertRecord(body);
  assert.equal(body.city, null);
  assert.equal(body.region, null);
  assert.equal(body.latitude, null);
  assert.equal(body.longitude, null);
  assert.equal(body.timezone, null);
  assert.equal(body.asn, null);
  assert.equal(body.country, 'AU');
  assert.equal(body.country_name, 'Australia');
});

test('geo-keyed-a: ipinfo bogon is a 500 with a message, no timezone, not cached', async () => {
  fake.on('GET', 'ipinfo.io', '/8.8.4.4', { json: fixture('ipinfo.io', 'bogon.json') });
  const res = await get('/api/geo-keyed-a?ip=8.8.4.4');
  assert.equal(res.statusCode, 500);
  assert.deepEqual(Object.keys(res.json()), ['error']);
  assert.match(res.json().error, /bogon/);
  assert.equal(res.headers['cache-control'], 'no-store');
});

test('geo-keyed-a: an upstream error answer passes its message on as a 500', async () => {
  fake.on('GET', 'ipinfo.io', '/8.8.8.8', { status: 403, json: fixture('ipinfo.io', 'error-403.json') });
  const res = await get('/api/geo-keyed-a?ip=8.8.8.8');
  assert.equal(res.statusCode, 500);
  assert.match(res.json().error, /^Please ensure you've entered your token correctly/);
});

test('comma-separated keys: one of them is sent per request', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, GEO_KEYED_A_API_KEY: 'k1, k2,k3' });
  // A distinct address each time: the answer to one address is kept, whatever key asked.
  for (let i = 0; i < 30; i++) assert.equal((await call(app, `/api/geo-keyed-a?ip=8.8.${i}.8`)).statusCode, 200);
  await app.close();
  const used = new Set(fake.requestsTo('ipinfo.io').map((r) => r.query.get('token')));
  assert.ok([...used].every((k) => ['k1', 'k2', 'k3'].includes(k!)));
  assert.ok(used.size > 1, 'keys rotate');
});

test('geo-free-a: ip-api in English and German, its own localised country name, lang forwarded as given', async () => {
  const en = await get('/api/geo-free-a?ip=8.8.8.8');
  assert.equal(en.statusCode, 200);
  assert.deepEqual(en.json(), {
    ip: '8.8.8.8',
    city: 'Ashburn',
    region: 'Virginia',
    country: 'US',
    country_name: 'United States',
    country_code: 'US',
    latitude: 39.03,
    longitude: -77.5,
    timezone: 'America/New_York',
    asn: 'AS15169',
    org: 'Google LLC',
  });
  assert.equal(fake.requestsTo('ip-api.com')[0]?.query.get('lang'), 'en');
  const de = await get('/api/geo-free-a?ip=8.8.8.8&lang=de');
  assert.equal(de.json().country, 'US');
  assert.equal(de.json().country_name, 'Vereinigte Staaten');
  assert.equal(fake.requestsTo('ip-api.com')[1]?.query.get('lang'), 'de');
  await get('/api/geo-free-a?ip=8.8.8.8&lang=xx-Weird_1');
  assert.equal(fake.requestsTo('ip-api.com')[2]?.query.get('lang'), 'xx-Weird_1');
});

test('geo-free-a: IPv6 in Japanese', async () => {
  const res = await get(`/api/geo-free-a?ip=${V6}&lang=ja`);
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.ip, V6);
  assert.equal(body.city, 'ニュルンベルク');
  assert.equal(body.country, 'DE');
  assert.equal(body.country_name, 'ドイツ');
  assert.equal(body.timezone, 'Europe/Berlin');
  assert.equal(body.asn, 'AS24940');
  assert.equal(body.org, 'Hetzner Online GmbH', 'isp, not the shorter org label');
});

test("geo-free-a: org is ip-api's isp, as the frontend contract maps it, not its org or AS name", async () => {
  fake.on('GET', 'ip-api.com', '/json/1.1.1.1', { json: fixture('ip-api.com', '1.1.1.1.en.json') });
  const body = (await get('/api/geo-free-a?ip=1.1.1.1')).json();
  assert.equal(body.org, 'Cloudflare, Inc');
  assert.equal(body.asn, 'AS13335');
  assert.equal(body.country, 'AU');
  assert.equal(body.timezone, 'Australia/Brisbane');
});

test('geo-free-a: HTTP 200 with status "fail" is a 500 with its message', async () => {
  fake.on('GET', 'ip-api.com', /^\/json\//, { json: fixture('ip-api.com', 'fail.json') });
  const res = await get('/api/geo-free-a?ip=8.8.8.8');
  assertErrorAnswer(res, 500, 'reserved range');
});

test('geo-free-b: ip.sb IPv4, numeric asn', async () => {
  const res = await get('/api/geo-free-b?ip=8.8.8.8');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), mountainViewRecord());
  assert.equal(fake.requestsTo('api.ip.sb')[0]?.path, '/geoip/8.8.8.8');
});

test("geo-free-b: a country-level answer has null city and region; org is ip.sb's isp, not its organization", async () => {
  fake.on('GET', 'api.ip.sb', '/geoip/1.1.1.1', { json: fixture('api.ip.sb', '1.1.1.1-country-only.json') });
  const body = (await get('/api/geo-free-b?ip=1.1.1.1')).json();
  assertRecord(body);
  assert.equal(body.city, null);
  assert.equal(body.region, null);
  assert.equal(body.country, 'AU');
  assert.equal(body.country_name, 'Australia');
  assert.equal(body.org, 'Cloudflare');
  assert.equal(body.asn, 'AS13335');
  assert.equal(body.timezone, 'Australia/Sydney');
});

test('geo-free-b: IPv6', async () => {
  const body = (await get(`/api/geo-free-b?ip=${V6}`)).json();
  assert.equal(body.city, 'Falkenstein');
  assert.equal(body.region, 'Saxony');
  assert.equal(body.timezone, 'Europe/Berlin');
});

test('geo-free-b: unreachable upstream is a 500 with the failure message and no timezone', async () => {
  fake.on('GET', 'api.ip.sb', /^\/geoip\//, { destroy: true });
  const res = await get('/api/geo-free-b?ip=8.8.8.8');
  assert.equal(res.statusCode, 500);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error']);
  assert.ok(body.error.length > 0);
});

test('geo-free-b: a body that is not JSON is a 500', async () => {
  fake.on('GET', 'api.ip.sb', /^\/geoip\//, { status: 502, body: '<html>Bad gateway</html>' });
  const res = await get('/api/geo-free-b?ip=8.8.8.8');
  assert.equal(res.statusCode, 500);
  assert.match(res.json().error, /not JSON/);
});

test('geo-keyed-b: ipapi.is with isHosting and isProxy (IPv4 and IPv6)', async () => {
  const v4 = await get('/api/geo-keyed-b?ip=8.8.8.8');
  assert.equal(v4.statusCode, 200);
  assert.deepEqual(
    v4.json(),
    mountainViewRecord({ latitude: 37.38605, longitude: -122.08385, isHosting: true, isProxy: false }),
  );
  const sent = fake.requestsTo('api.ipapi.is')[0];
  assert.equal(sent?.query.get('q'), '8.8.8.8');
  assert.equal(sent?.query.get('key'), 'key-b');
  const v6 = (await get(`/api/geo-keyed-b?ip=${V6}`)).json();
  assert.equal(v6.isHosting, false);
  assert.equal(v6.isProxy, true, 'a VPN counts as a proxy');
  assert.equal(v6.timezone, 'Europe/Berlin');
});

test('geo-keyed-b: no key is a 500; an upstream error message passes on', async () => {
  const nokey = await get('/api/geo-keyed-b?ip=8.8.8.8', {});
  assertErrorAnswer(nokey, 500, 'GEO_KEYED_B_API_KEY is not configured');
  assert.equal(fake.requestsTo('api.ipapi.is').length, 0);
  fake.on('GET', 'api.ipapi.is', '/', { status: 401, json: fixture('api.ipapi.is', 'error-key.json') });
  const bad = await get('/api/geo-keyed-b?ip=8.8.8.8');
  assert.deepEqual(bad.json(), { error: 'Invalid API key. Please check your API key.' });
});

test('geo-keyed-c: ip2location.io IPv4 and IPv6, string asn', async () => {
  const v4 = await get('/api/geo-keyed-c?ip=8.8.8.8');
  assert.equal(v4.statusCode, 200);
  assert.deepEqual(
    v4.json(),
    mountainViewRecord({ country_name: 'United States of America', latitude: 37.38605, longitude: -122.08385 }),
  );
  assert.equal(fake.requestsTo('api.ip2location.io')[0]?.query.get('key'), 'key-c');
  const v6 = (await get(`/api/geo-keyed-c?ip=${V6}`)).json();
  assert.equal(v6.city, 'Nurnberg');
  assert.equal(v6.asn, 'AS24940');
});

test('geo-keyed-c: "-" placeholders and 0,0 coordinates become null; no key and upstream errors are 500s', async () => {
  fake.on('GET', 'api.ip2location.io', '/', { json: fixture('api.ip2location.io', 'unknown-fields.json') });
  const unknown = (await get('/api/geo-keyed-c?ip=8.8.8.8')).json();
  assertRecord(unknown);
  for (const f of [
    'city',
    'region',
    'country',
    'country_name',
    'country_code',
    'latitude',
    'longitude',
    'timezone',
    'asn',
    'org',
  ]) {
    assert.equal(unknown[f], null, f);
  }
  const nokey = await get('/api/geo-keyed-c?ip=8.8.8.8', {});
  assertErrorAnswer(nokey, 500, 'GEO_KEYED_C_API_KEY is not configured');
  assert.equal(fake.requestsTo('api.ip2location.io').length, 1, 'only the placeholder answer above was asked');
  fake.on('GET', 'api.ip2location.io', '/', { status: 401, json: fixture('api.ip2location.io', 'error-key.json') });
  assert.deepEqual((await get('/api/geo-keyed-c?ip=8.8.8.8')).json(), {
    error: 'Invalid API key or insufficient credit.',
  });
});

test('geo-private: signed-in caller gets advancedData values; headers and lang forwarded; no-store', async () => {
  const res = await get('/api/geo-private?ip=8.8.8.8', KEYS, {
    authorization: 'Bearer user-token',
    'accept-language': 'fr-FR',
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(
    res.json(),
    mountainViewRecord({
      advancedData: {
        score: 86,
        tags: { isNative: true, isProxyOrVPN: false },
        proxyProtocol: '',
        proxyProvider: '',
        operatorType: 'Hosting',
      },
    }),
  );
  const sent = fake.requestsTo('private-api.example', '/ipinfo')[0]!;
  assert.equal(sent.query.get('key'), 'private-key');
  assert.equal(sent.query.get('ip'), '8.8.8.8');
  assert.equal(sent.query.get('lang'), 'en');
  assert.equal(sent.headers.authorization, 'Bearer user-token');
  assert.equal(sent.headers['accept-language'], 'fr-FR');
});

test('geo-private: a VPN exit, signed in: tags, protocol and provider as the companion API gives them', async () => {
  fake.on('GET', 'private-api.example', '/ipinfo', {
    json: fixture('private-api.example', 'ipinfo-signed-in-vpn.json'),
  });
  const body = (await get('/api/geo-private?ip=146.70.116.14&lang=de')).json();
  assert.equal(body.country, 'CH');
  assert.equal(body.country_name, 'Schweiz');
  assert.equal(body.timezone, 'Europe/Zurich');
  assert.deepEqual(body.advancedData, {
    score: 23,
    tags: { isNative: false, isProxyOrVPN: true },
    proxyProtocol: 'wireguard',
    proxyProvider: 'Mullvad VPN',
    operatorType: 'Hosting',
  });
});

test("geo-private: odd advancedData values are brought into the contract's types", async () => {
  const base = fixture('private-api.example', 'ipinfo-signed-in.json') as Record<string, unknown>;
  const answer = (advancedData: unknown) =>
    fake.on('GET', 'private-api.example', '/ipinfo', { json: { ...base, advancedData } });
  answer({ score: 140, operatorType: 'residential' });
  assert.deepEqual((await get('/api/geo-private?ip=8.8.8.8')).json().advancedData, {
    score: 'unknown',
    tags: { isNative: false, isProxyOrVPN: false },
    proxyProtocol: 'unknown',
    proxyProvider: 'unknown',
    operatorType: 'Residential',
  });
  answer({
    score: '42',
    tags: { isNative: 'yes', isProxyOrVPN: true },
    proxyProtocol: ' socks5 ',
    proxyProvider: 'unknown',
    operatorType: 'Education',
  });
  assert.deepEqual((await get('/api/geo-private?ip=8.8.8.8')).json().advancedData, {
    score: 42,
    tags: { isNative: false, isProxyOrVPN: true },
    proxyProtocol: 'socks5',
    proxyProvider: 'unknown',
    operatorType: 'Education',
  });
  answer({
    score: 'unknown',
    tags: { isNative: true, isProxyOrVPN: false },
    proxyProtocol: '',
    proxyProvider: '',
    operatorType: null,
  });
  assert.equal((await get('/api/geo-private?ip=8.8.8.8')).json().advancedData.score, 'unknown');
});

test('geo-private: signed-out (IPv6, German) and over-quota callers get the code in all five keys, geo fields untouched', async () => {
  const signedOut = {
    score: 'sign_in_required',
    tags: 'sign_in_required',
    proxyProtocol: 'sign_in_required',
    proxyProvider: 'sign_in_required',
    operatorType: 'sign_in_required',
  };
  const out = await get(`/api/geo-private?ip=${V6}&lang=de`);
  assert.equal(out.statusCode, 200);
  const body = out.json();
  assert.equal(body.city, 'Nürnberg');
  assert.equal(body.country, 'DE');
  assert.equal(body.country_name, 'Deutschland');
  assert.equal(body.asn, 'AS24940');
  assert.equal(body.timezone, 'Europe/Berlin');
  assert.deepEqual(body.advancedData, signedOut);
  assert.equal(fake.requestsTo('private-api.example')[0]?.query.get('lang'), 'de');

  fake.on('GET', 'private-api.example', '/ipinfo', { json: fixture('private-api.example', 'ipinfo-quota.json') });
  const quota = (await get('/api/geo-private?ip=8.8.8.8')).json();
  assert.deepEqual(quota.advancedData, {
    score: 'quota_exceeded',
    tags: 'quota_exceeded',
    proxyProtocol: 'quota_exceeded',
    proxyProvider: 'quota_exceeded',
    operatorType: 'quota_exceeded',
  });
  assert.equal(quota.city, 'Mountain View');
  assert.equal(quota.asn, 'AS15169');
  assert.equal(quota.timezone, 'America/Los_Angeles');
});

test('geo-private: no advancedData is a signed-out caller; one key holding a code puts all five in that state', async () => {
  const { advancedData: _given, ...geo } = fixture('private-api.example', 'ipinfo-signed-in.json') as Record<
    string,
    unknown
  >;
  fake.on('GET', 'private-api.example', '/ipinfo', { json: geo });
  const none = (await get('/api/geo-private?ip=8.8.8.8')).json();
  assert.equal(none.advancedData.tags, 'sign_in_required');
  assert.equal(none.advancedData.score, 'sign_in_required');
  assert.equal(none.city, 'Mountain View');
  fake.on('GET', 'private-api.example', '/ipinfo', {
    json: { ...geo, advancedData: { score: 'quota_exceeded', tags: { isNative: true, isProxyOrVPN: false } } },
  });
  const partial = (await get('/api/geo-private?ip=8.8.8.8')).json();
  assert.equal(partial.advancedData.tags, 'quota_exceeded');
  assert.equal(partial.advancedData.operatorType, 'quota_exceeded');
});

test('geo-private: without key or endpoint 500 "API key is missing"; upstream failure 500', async () => {
  const envs: Array<Record<string, string>> = [
    { PRIVATE_API_ENDPOINT: 'https://private-api.example' },
    { PRIVATE_API_KEY: 'k' },
    {},
  ];
  for (const env of envs) {
    const res = await get('/api/geo-private?ip=8.8.8.8', env);
    assertErrorAnswer(res, 500, 'API key is missing');
  }
  fake.on('GET', 'private-api.example', '/ipinfo', { status: 503, json: { error: 'Service unavailable' } });
  const res = await get('/api/geo-private?ip=8.8.8.8');
  assert.deepEqual(res.json(), { error: 'Service unavailable' });
});

test("third-party sources get none of the caller's headers; a hanging upstream times out as a 500", async () => {
  const caller = {
    authorization: 'Bearer secret-user',
    cookie: 'session=abc',
    'accept-language': 'de',
    'x-forwarded-for': '8.8.4.4',
  };
  for (const route of ['geo-keyed-a', 'geo-free-a', 'geo-free-b', 'geo-keyed-b', 'geo-keyed-c']) {
    assert.equal((await get(`/api/${route}?ip=8.8.8.8`, KEYS, caller)).statusCode, 200, route);
  }
  assert.equal(fake.requests.length, 5);
  for (const sent of fake.requests) {
    for (const name of Object.keys(caller)) assert.equal(sent.headers[name], undefined, `${sent.host} got ${name}`);
    assert.match(String(sent.headers['user-agent']), /^netdiag-backend\/v/);
  }

  fake.on('GET', 'api.ip.sb', /^\/geoip\//, { hang: true });
  const res = await get('/api/geo-free-b?ip=8.8.8.8', { UPSTREAM_TIMEOUT_MS: '100' });
  assert.equal(res.statusCode, 500);
  assert.match(res.json().error, /abort/i);
  assert.equal(res.headers['cache-control'], 'no-store');
});
