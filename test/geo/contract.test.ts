import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { assertErrorAnswer, assertGuardErrors, buildTestApi, call, runStartupStep } from '../support/app.js';
import { GEO_DATABASES_STEP } from '../../datasets/geo/service-databases.js';
import { registerGeoFakeRoutes } from '../support/fake-routes/geo.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { fixture } from '../support/fake-upstream.js';

// The frontend contract, section 1: the fields the site's frontend reads from
// every geo answer, checked on the fakes' data that `npm run demo` serves, with
// the demo's own requests and settings (geo-local's databases downloaded from
// the fake download service at start-up, as in the demo).

const ROUTES = [
  'geo-keyed-a',
  'geo-free-a',
  'geo-free-b',
  'geo-keyed-b',
  'geo-keyed-c',
  'geo-local',
  'geo-private',
] as const;
const DEMO_URLS: Record<(typeof ROUTES)[number], string> = {
  'geo-keyed-a': '/api/geo-keyed-a?ip=8.8.8.8',
  'geo-free-a': '/api/geo-free-a?ip=8.8.8.8&lang=de',
  'geo-free-b': '/api/geo-free-b?ip=8.8.8.8',
  'geo-keyed-b': '/api/geo-keyed-b?ip=8.8.8.8',
  'geo-keyed-c': '/api/geo-keyed-c?ip=8.8.8.8',
  'geo-local': '/api/geo-local?ip=8.8.8.8&lang=ja',
  'geo-private': '/api/geo-private?ip=8.8.8.8',
};
// What each source calls the country in the demo's language.
const COUNTRY_NAMES: Record<(typeof ROUTES)[number], string> = {
  'geo-keyed-a': 'United States of America',
  'geo-free-a': 'Vereinigte Staaten',
  'geo-free-b': 'United States',
  'geo-keyed-b': 'United States',
  'geo-keyed-c': 'United States of America',
  'geo-local': 'アメリカ',
  'geo-private': 'United States',
};
const SETTINGS = {
  GEO_KEYED_A_API_KEY: 'fake-key',
  GEO_KEYED_B_API_KEY: 'fake-key',
  GEO_KEYED_C_API_KEY: 'fake-key',
  GEODB_ACCOUNT_ID: 'fake-account',
  GEODB_LICENSE_KEY: 'fake-key',
  PRIVATE_API_KEY: 'fake-private-key',
  PRIVATE_API_ENDPOINT: 'https://private-api.example',
};

const fake = fakeUpstreamPerFile(registerGeoFakeRoutes);
let dataDir: string;
before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'geo-contract-'));
});
after(() => rm(dataDir, { recursive: true, force: true }));

async function demoApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const { app } = await buildTestApi({ ...SETTINGS, UPSTREAM_OVERRIDE_ORIGIN: fake.origin, DATA_DIR: dataDir, ...env });
  await runStartupStep(app, GEO_DATABASES_STEP);
  return app;
}

/** The REQUIRED fields of section 1.1, with their types, and the example values of the demo's 8.8.8.8. */
function assertRequiredRecord(route: string, body: Record<string, unknown>): void {
  assert.equal(body.country, 'US', `${route}: country is the ISO code`);
  assert.equal(body.country_code, 'US', `${route}: country_code is the same code`);
  assert.equal(
    body.country_name,
    COUNTRY_NAMES[route as (typeof ROUTES)[number]],
    `${route}: country_name is the source's name`,
  );
  for (const field of ['region', 'city', 'org'] as const) {
    assert.equal(typeof body[field], 'string', `${route}: ${field} is a string`);
    assert.ok((body[field] as string).length > 0, `${route}: ${field} holds data`);
  }
  for (const field of ['latitude', 'longitude'] as const) {
    assert.equal(typeof body[field], 'number', `${route}: ${field} is a number`);
    assert.ok(body[field] !== 0, `${route}: ${field} holds data`);
  }
  assert.match(
    String(body.timezone),
    /^America\/(Los_Angeles|New_York|Chicago)$/,
    `${route}: timezone is an IANA name`,
  );
  assert.equal(body.asn, 'AS15169', `${route}: asn is an "AS…" string`);
  assert.equal(body.error, undefined, `${route}: no error key on a success`);
}

test('every geo route answers the demo 200 with every REQUIRED field of the record holding data of its type', async () => {
  const app = await demoApp();
  try {
    for (const route of ROUTES) {
      const res = await call(app, DEMO_URLS[route]);
      assert.equal(res.statusCode, 200, route);
      assertRequiredRecord(route, res.json());
    }
  } finally {
    await app.close();
  }
});

test('geo-keyed-b adds isHosting and isProxy as booleans', async () => {
  const app = await demoApp();
  const body = (await call(app, DEMO_URLS['geo-keyed-b'])).json();
  await app.close();
  assert.equal(body.isHosting, true);
  assert.equal(body.isProxy, false);
});

test('geo-private: advancedData with score, tags {isNative, isProxyOrVPN}, proxyProtocol, proxyProvider, operatorType', async () => {
  const app = await demoApp();
  const body = (await call(app, DEMO_URLS['geo-private'])).json();
  await app.close();
  assert.deepEqual(body.advancedData, {
    score: 86,
    tags: { isNative: true, isProxyOrVPN: false },
    proxyProtocol: '',
    proxyProvider: '',
    operatorType: 'Hosting',
  });
});

test('geo-private gated states: each of the five keys is the plain code (tags too), 200, geo fields untouched', async () => {
  const app = await demoApp();
  try {
    const signedOut = await call(app, '/api/geo-private?ip=2a01:4f8:c0c:1234::1&lang=de');
    assert.equal(signedOut.statusCode, 200);
    const out = signedOut.json();
    const sentinel = (code: string) => ({
      score: code,
      tags: code,
      proxyProtocol: code,
      proxyProvider: code,
      operatorType: code,
    });
    assert.deepEqual(out.advancedData, sentinel('sign_in_required'));
    assert.equal(out.country, 'DE');
    assert.equal(out.country_name, 'Deutschland');
    assert.equal(out.city, 'Nürnberg');
    assert.equal(out.asn, 'AS24940');

    fake.on('GET', 'private-api.example', '/ipinfo', { json: fixture('private-api.example', 'ipinfo-quota.json') });
    const overQuota = await call(app, '/api/geo-private?ip=8.8.8.8');
    assert.equal(overQuota.statusCode, 200);
    const quota = overQuota.json();
    assert.deepEqual(quota.advancedData, sentinel('quota_exceeded'));
    assertRequiredRecord('geo-private', quota);
  } finally {
    await app.close();
  }
});

test('the error bodies section 1.3 names: guards 400, upstream failure 500, keys missing 500, geo-local 503', async () => {
  const app = await demoApp();
  try {
    for (const route of ROUTES) {
      await assertGuardErrors(app, [
        [`/api/${route}`, 'No IP address provided'],
        [`/api/${route}?ip=nope`, 'Invalid IP address'],
        [`/api/${route}?ip=10.1.2.3`, 'Not a public IP address'],
      ]);
    }
    assert.equal(
      fake.requests.filter((r) => !r.host.endsWith('maxmind.com')).length,
      0,
      'guards answer before any upstream call',
    );

    // Every third-party source and the companion API unreachable: 500 {error: message}.
    for (const host of [
      'ipinfo.io',
      'ip-api.com',
      'api.ip.sb',
      'api.ipapi.is',
      'api.ip2location.io',
      'private-api.example',
    ]) {
      fake.on('GET', host, /.*/, { destroy: true });
    }
    for (const route of ROUTES.filter((r) => r !== 'geo-local')) {
      const res = await call(app, DEMO_URLS[route]);
      assert.equal(res.statusCode, 500, route);
      assert.deepEqual(Object.keys(res.json()), ['error'], route);
      assert.ok(res.json().error.length > 0, route);
      assert.equal(res.headers['cache-control'], 'no-store', route);
    }
  } finally {
    await app.close();
  }

  const noKeys = await demoApp({ GEO_KEYED_B_API_KEY: '', GEO_KEYED_C_API_KEY: '', PRIVATE_API_KEY: '' });
  try {
    assert.deepEqual((await call(noKeys, DEMO_URLS['geo-private'])).json(), { error: 'API key is missing' });
    for (const route of ['geo-keyed-b', 'geo-keyed-c'] as const) {
      const res = await call(noKeys, DEMO_URLS[route]);
      assert.equal(res.statusCode, 500, route);
      assert.deepEqual(Object.keys(res.json()), ['error'], route);
    }
  } finally {
    await noKeys.close();
  }

  const { app: noDatabase } = await buildTestApi({ DATA_DIR: join(dataDir, 'empty') });
  const res = await call(noDatabase, DEMO_URLS['geo-local']);
  await noDatabase.close();
  assertErrorAnswer(res, 503, 'Geolocation database is not loaded');
});
