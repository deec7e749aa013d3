import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertErrorAnswer, buildTestApi, call, runStartupStep } from '../support/app.js';
import { GEO_DATABASES_STEP } from '../../datasets/geo/service-databases.js';
import { cityDatabase, asnDatabase } from '../support/sample-geo-databases.js';
import { mountainViewRecord } from '../support/geo-records.js';

let dataDir: string;
before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'geo-local-'));
  await mkdir(join(dataDir, 'geo'));
  await writeFile(join(dataDir, 'geo', 'GeoLite2-City.mmdb'), cityDatabase());
  await writeFile(join(dataDir, 'geo', 'GeoLite2-ASN.mmdb'), asnDatabase());
});
after(() => rm(dataDir, { recursive: true, force: true }));

async function loadedApp(dir = dataDir) {
  const api = await buildTestApi({ DATA_DIR: dir });
  await runStartupStep(api.app, GEO_DATABASES_STEP);
  return api;
}

test('geo-local answers from the city and ASN databases in English (IPv4), cached a day', async () => {
  const { app } = await loadedApp();
  const res = await call(app, '/api/geo-local?ip=8.8.8.8');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  assert.deepEqual(res.json(), mountainViewRecord({ latitude: 37.4223, longitude: -122.085, org: 'GOOGLE' }));
  await app.close();
});

test('geo-local in another language, IPv6, with fallback to English for names the database lacks', async () => {
  const { app } = await loadedApp();
  const de = (await call(app, '/api/geo-local?ip=2a01:4f8:c0c:1234::1&lang=DE')).json();
  assert.equal(de.city, 'Nürnberg');
  assert.equal(de.region, 'Bayern');
  assert.equal(de.country, 'DE');
  assert.equal(de.country_name, 'Deutschland', "the database's own name in the language asked");
  assert.equal(de.asn, 'AS24940');
  assert.equal(de.timezone, 'Europe/Berlin');
  const zh = (await call(app, '/api/geo-local?ip=8.8.8.8&lang=zh-TW')).json();
  assert.equal(zh.city, '芒廷维尤', 'zh-TW uses the sibling zh-CN');
  assert.equal(zh.region, '加利福尼亚州');
  const pt = (await call(app, '/api/geo-local?ip=2a01:4f8:c0c:1234::1&lang=pt-PT')).json();
  assert.equal(pt.city, 'Nuremberga', 'pt-PT uses pt-BR');
  assert.equal(pt.region, 'Bavaria', 'a name missing in pt-BR falls back to en');
  assert.equal(pt.country_name, 'Alemanha');
  await app.close();
});

test('geo-local: addresses sharing a database record each get their own answer, in the language asked', async () => {
  const { app } = await loadedApp();
  const ask = async (ip: string, lang: string) => (await call(app, `/api/geo-local?ip=${ip}&lang=${lang}`)).json();
  const first = await ask('8.8.8.8', 'de');
  const second = await ask('8.8.8.4', 'de');
  assert.equal(first.ip, '8.8.8.8');
  assert.equal(second.ip, '8.8.8.4');
  assert.deepEqual({ ...second, ip: first.ip }, first);
  assert.equal((await ask('8.8.8.4', 'ja')).city, 'マウンテンビュー');
  assert.equal((await ask('8.8.8.8', 'en')).city, 'Mountain View');
  assert.equal((await ask('8.8.8.8', 'de')).city, first.city);
  await app.close();
});

test('geo-local: absurd lang values fall back to English, never an error', async () => {
  const { app } = await loadedApp();
  for (const lang of ['%00%FF', 'x'.repeat(500), 'klingon-tlh', '../../etc', '', 'en&lang=de']) {
    const res = await call(app, `/api/geo-local?ip=8.8.8.8&lang=${lang}`);
    assert.equal(res.statusCode, 200, lang);
    assert.equal(res.json().city, 'Mountain View');
  }
  const twice = await call(app, '/api/geo-local?ip=8.8.8.8&lang=de&lang=ja');
  assert.equal(twice.statusCode, 200);
  assert.equal(twice.json().city, 'Mountain View');
  await app.close();
});

test('geo-local: an address with only a registered country gives no place but its network; one the databases do not hold gives nulls', async () => {
  const { app } = await loadedApp();
  const au = (await call(app, '/api/geo-local?ip=1.1.1.1')).json();
  assert.equal(au.country, 'AU');
  assert.equal(au.country_code, 'AU');
  assert.equal(au.country_name, 'Australia');
  assert.equal(au.city, null);
  assert.equal(au.latitude, null);
  assert.equal(au.timezone, null);
  assert.equal(au.asn, 'AS13335');
  assert.equal(au.org, 'CLOUDFLARENET');
  const none = await call(app, '/api/geo-local?ip=9.9.9.9');
  assert.equal(none.statusCode, 200);
  assert.deepEqual(none.json(), {
    ip: '9.9.9.9',
    city: null,
    region: null,
    country: null,
    country_name: null,
    country_code: null,
    latitude: null,
    longitude: null,
    timezone: null,
    asn: null,
    org: null,
  });
  await app.close();
});

test('geo-local: 503 with no database loaded, not cached, no timezone', async () => {
  const { app } = await buildTestApi({ DATA_DIR: join(dataDir, 'empty') });
  const res = await call(app, '/api/geo-local?ip=8.8.8.8');
  assertErrorAnswer(res, 503, 'Geolocation database is not loaded');
  await app.close();
});

test('geo-local: a corrupt city database at boot leaves 503 and an error log, no crash', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'geo-corrupt-'));
  await mkdir(join(dir, 'geo'));
  await writeFile(join(dir, 'geo', 'GeoLite2-City.mmdb'), Buffer.from('this is not a MaxMind database'));
  await writeFile(join(dir, 'geo', 'GeoLite2-ASN.mmdb'), asnDatabase());
  const { app, logs } = await buildTestApi({ DATA_DIR: dir });
  await runStartupStep(app, GEO_DATABASES_STEP);
  const res = await call(app, '/api/geo-local?ip=8.8.8.8');
  assert.equal(res.statusCode, 503);
  const errors = logs.find('geo database could not be loaded');
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.level, 50);
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

test('geo-local: a city database without the ASN one answers with null asn and org', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'geo-cityonly-'));
  await mkdir(join(dir, 'geo'));
  await writeFile(join(dir, 'geo', 'GeoLite2-City.mmdb'), cityDatabase());
  const { app } = await loadedApp(dir);
  const body = (await call(app, '/api/geo-local?ip=8.8.8.8')).json();
  assert.equal(body.city, 'Mountain View');
  assert.equal(body.asn, null);
  assert.equal(body.org, null);
  await app.close();
  await rm(dir, { recursive: true, force: true });
});
