import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApi, call } from '../support/app.js';

const KEYS = {
  MAP_API_KEY: 'k-map',
  GEO_KEYED_A_API_KEY: 'k-a',
  GEO_KEYED_B_API_KEY: 'k-b',
  GEO_KEYED_C_API_KEY: 'k-c',
  PRIVATE_API_KEY: 'k-private',
  PRIVATE_API_ENDPOINT: 'https://private.example/api',
  RADAR_API_KEY: 'k-radar',
  KV_ACCOUNT_ID: 'acc',
  KV_NAMESPACE_ID: 'ns',
};

// The original site's hostnames (frontend contract, section 15).
const CANONICAL = ['ipcheck.ing', 'www.ipcheck.ing', 'localtest.ipcheck.ing', 'dev.ipcheck.ing', 'test.ipcheck.ing'];

test('configs: the eight booleans, every flag following its setting, and no key value is ever sent', async () => {
  const { app } = await buildTestApi(KEYS);
  const res = await call(app, '/api/configs');
  // In the contract's order, written by the serialiser from the schema.
  assert.equal(
    res.body,
    JSON.stringify({
      map: true,
      ipInfo: true,
      ipChecking: true,
      ip2location: true,
      originalSite: false,
      cloudFlare: true,
      ipapiis: true,
      reportSharing: true,
    }),
  );
  for (const value of Object.values(KEYS)) assert.ok(!res.body.includes(value), value);
  await app.close();

  const bare = await buildTestApi({ PRIVATE_API_KEY: 'only-key', KV_ACCOUNT_ID: 'acc' });
  const flags = (await call(bare.app, '/api/configs')).json();
  assert.equal(flags.ipChecking, false, 'the private API needs key and endpoint');
  assert.equal(flags.reportSharing, false, 'report sharing needs all three settings');
  assert.deepEqual(Object.keys(flags).sort(), [
    'cloudFlare',
    'ip2location',
    'ipChecking',
    'ipInfo',
    'ipapiis',
    'map',
    'originalSite',
    'reportSharing',
  ]);
  assert.ok(Object.values(flags).every((value) => value === false));
  await bare.app.close();
});

test('configs: originalSite only for a Referer on one of the five canonical hostnames', async () => {
  const { app } = await buildTestApi({
    ALLOWED_DOMAINS: [...CANONICAL, 'mirror.example', 'staging.ipcheck.ing'].join(','),
  });
  const flag = async (referer: string) =>
    (await call(app, { method: 'GET', url: '/api/configs', headers: { referer } })).json().originalSite;
  for (const host of CANONICAL) assert.equal(await flag(`https://${host}/some/page`), true, host);
  assert.equal(await flag('https://mirror.example/'), false);
  assert.equal(await flag('https://staging.ipcheck.ing/'), false);
  assert.equal(await flag('http://localhost:5173/'), false);
  await app.close();
});

test('configs: the answer varies with the Referer, so a shared cache keeps one copy per Referer', async () => {
  const { app } = await buildTestApi();
  const res = await call(app, '/api/configs');
  assert.equal(res.headers['cache-control'], 'public, max-age=3600');
  assert.equal(res.headers.vary, 'Referer');
  await app.close();
});
