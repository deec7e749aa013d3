import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { request } from 'undici';
import { downloadTestBed } from '../support/download-test-bed.js';
import { LogCapture, REFERER } from '../support/app.js';
import { startServer, stopServer } from '../support/real-server.js';
import { Upstream } from '../../lib/upstream.js';
import { GeoDatabases, type Edition, type GeoProvider } from '../../datasets/geo/databases.js';
import { dbipAsnDatabase, dbipCityDatabase } from '../support/sample-dbip-databases.js';
import { asnDatabase, cityDatabase } from '../support/sample-geo-databases.js';
import { mountainViewRecord } from '../support/geo-records.js';
import { DBIP_HOST, dbipPath, serveDbip, serveDbipEveryMonth } from '../support/fake-dbip.js';

const NOVEMBER = 1_793_491_200;
const OCTOBER = 1_790_812_800;
// Early in a month, before DB-IP has published it.
const NOW = new Date('2026-11-03T12:00:00Z');

const bed = downloadTestBed('geo-dbip-');

function databases(dir: string, provider: GeoProvider = 'dbip') {
  const logs = new LogCapture();
  const logger = pino({ level: 'debug' }, logs);
  return {
    logs,
    dbs: new GeoDatabases({
      dir,
      provider,
      upstream: new Upstream({ timeoutMs: 8000, siteUrl: '', overrideOrigin: bed.fake.origin, logger }),
      accountId: '',
      licenseKey: '',
      logger,
      now: () => NOW,
    }),
  };
}

const epoch = (dbs: GeoDatabases, e: Edition) => dbs[e]!.metadata.buildEpoch.getTime() / 1000;
const gets = (path: string) => bed.fake.requestsTo(DBIP_HOST, path).filter((r) => r.method === 'GET').length;

async function get(url: string) {
  const res = await request(url, { headers: REFERER });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

test('GEODB_PROVIDER=dbip: a fresh process downloads both lite databases with no account; geo-local and /readyz answer from them', async (t) => {
  // Whatever month the real clock says: the month logic has its own tests with a pinned clock.
  serveDbipEveryMonth(bed.fake, 'city', gzipSync(dbipCityDatabase()));
  serveDbipEveryMonth(bed.fake, 'asn', gzipSync(dbipAsnDatabase()));
  const server = await startServer({
    DATA_DIR: bed.work,
    UPSTREAM_OVERRIDE_ORIGIN: bed.fake.origin,
    GEODB_PROVIDER: 'dbip',
  });
  t.after(() => stopServer(server));

  const month = new Date().toISOString().slice(0, 7);
  const sent = bed.fake.requestsTo(DBIP_HOST);
  assert.deepEqual(
    sent.map((r) => `${r.method} ${r.path}`),
    [`GET ${dbipPath('city', month)}`, `GET ${dbipPath('asn', month)}`],
    'one download per edition, this month first',
  );
  assert.ok(
    sent.every((r) => r.headers.authorization === undefined),
    'no credentials anywhere',
  );
  assert.deepEqual((await readdir(join(bed.work, 'geo'))).sort(), ['dbip-asn-lite.mmdb', 'dbip-city-lite.mmdb']);

  const mountainView = await get(`${server.apiUrl}/api/geo-local?ip=8.8.8.8`);
  assert.equal(mountainView.status, 200);
  // The time zone comes from the coordinates, as DB-IP gives none.
  assert.deepEqual(mountainView.body, mountainViewRecord());

  const chinese = await get(`${server.apiUrl}/api/geo-local?ip=8.8.8.8&lang=zh-CN`);
  assert.equal(chinese.body.country_name, '美国', 'a name DB-IP has in the language');
  assert.equal(chinese.body.city, 'Mountain View', 'English where DB-IP names only in English');

  const ipv6 = await get(`${server.apiUrl}/api/geo-local?ip=2a01:4f8::1`);
  assert.equal(ipv6.status, 200);
  assert.equal(ipv6.body.city, 'Nuremberg');
  assert.equal(ipv6.body.org, 'Hetzner Online GmbH');

  const countryOnly = await get(`${server.apiUrl}/api/geo-local?ip=139.130.4.5`);
  assert.equal(countryOnly.status, 200);
  assert.equal(countryOnly.body.country_code, 'AU');
  for (const field of ['city', 'region', 'latitude', 'longitude', 'asn', 'org', 'timezone']) {
    assert.equal(countryOnly.body[field], null, `${field}: what DB-IP does not hold is null`);
  }

  const ready = await get(`${server.apiUrl}/readyz`);
  const datasets = ready.body.datasets as Record<string, Record<string, unknown>>;
  assert.deepEqual(datasets.geoCity, {
    state: 'loaded',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ageSeconds: datasets.geoCity!.ageSeconds,
    database: { provider: 'dbip', edition: 'DBIP-City-Lite' },
  });
  assert.deepEqual(datasets.geoAsn!.database, { provider: 'dbip', edition: 'DBIP-ASN-Lite (compat=GeoLite2-ASN)' });
});

test('month fallback: before this month is out, last month is downloaded; this month replaces it once published', async () => {
  const dir = join(bed.work, 'geo');
  serveDbip(bed.fake, 'city', '2026-10', gzipSync(dbipCityDatabase(OCTOBER)));
  serveDbip(bed.fake, 'asn', '2026-10', gzipSync(dbipAsnDatabase(OCTOBER)));
  const { dbs } = databases(dir);
  await dbs.bootstrap();
  assert.equal(epoch(dbs, 'city'), OCTOBER);
  assert.equal(epoch(dbs, 'asn'), OCTOBER);
  assert.deepEqual(
    bed.fake.requestsTo(DBIP_HOST).map((r) => r.path),
    [dbipPath('city', '2026-11'), dbipPath('city', '2026-10'), dbipPath('asn', '2026-11'), dbipPath('asn', '2026-10')],
  );
  const cityPath = join(dir, 'dbip-city-lite.mmdb');
  assert.equal((await stat(cityPath)).mtime.toISOString(), '2026-10-01T00:00:00.000Z', 'the file carries its release');

  bed.fake.reset();
  serveDbip(bed.fake, 'city', '2026-10', gzipSync(dbipCityDatabase(OCTOBER)));
  serveDbip(bed.fake, 'asn', '2026-10', gzipSync(dbipAsnDatabase(OCTOBER)));
  await dbs.checkForUpdates();
  assert.equal(gets('/free/'), 0, 'last month again: nothing to download');
  assert.equal(bed.fake.requestsTo(DBIP_HOST).filter((r) => r.method === 'HEAD').length, 4);

  serveDbip(bed.fake, 'city', '2026-11', gzipSync(dbipCityDatabase(NOVEMBER)));
  await dbs.checkForUpdates();
  assert.equal(gets(dbipPath('city', '2026-11')), 1, 'this month, once out, is downloaded');
  assert.equal(gets('/free/dbip-asn-lite'), 0, 'the ASN edition still has only last month');
  assert.equal(epoch(dbs, 'city'), NOVEMBER, 'swapped in without a restart');
  assert.equal(epoch(dbs, 'asn'), OCTOBER);
  assert.equal(dbs.status('city').state, 'loaded');
  assert.equal((await stat(cityPath)).mtime.toISOString(), '2026-11-01T00:00:00.000Z');
  assert.deepEqual((await readdir(dir)).sort(), ['dbip-asn-lite.mmdb', 'dbip-city-lite.mmdb'], 'no work left');
});

test('a truncated, corrupt or wrong download is never loaded: the last good database stays, marked stale', async () => {
  const dir = join(bed.work, 'geo');
  await mkdir(dir, { recursive: true });
  const good = dbipCityDatabase(OCTOBER);
  await writeFile(join(dir, 'dbip-city-lite.mmdb'), good);
  await writeFile(join(dir, 'dbip-asn-lite.mmdb'), dbipAsnDatabase(OCTOBER));
  const october = new Date('2026-10-01T00:00:00Z');
  await utimes(join(dir, 'dbip-city-lite.mmdb'), october, october);
  await utimes(join(dir, 'dbip-asn-lite.mmdb'), october, october);
  const { dbs, logs } = databases(dir);
  await dbs.loadAll();
  serveDbip(bed.fake, 'asn', '2026-10', gzipSync(dbipAsnDatabase(OCTOBER)));

  const gzipped = gzipSync(dbipCityDatabase(NOVEMBER));
  const broken: Array<[string, Buffer<ArrayBufferLike>, RegExp]> = [
    ['a truncated gzip', gzipped.subarray(0, Math.floor(gzipped.length / 2)), /unexpected end of file/],
    [
      'a gzip whose bytes were changed',
      Buffer.concat([gzipped.subarray(0, 40), Buffer.alloc(64), gzipped.subarray(104)]),
      /./,
    ],
    ['not gzip at all', Buffer.from('<html>rate limited</html>'), /incorrect header check/],
    ["garbage, gzip'd", gzipSync(Buffer.from('not a database')), /./],
    ['the ASN edition served as the city', gzipSync(dbipAsnDatabase(NOVEMBER)), /unexpected database type/],
    ['a GeoLite2 ASN file served as the city', gzipSync(asnDatabase(NOVEMBER)), /unexpected database type/],
  ];
  for (const [what, body, reason] of broken) {
    logs.lines.length = 0;
    serveDbip(bed.fake, 'city', '2026-11', body);
    await dbs.checkForUpdates();
    assert.deepEqual(await readFile(join(dir, 'dbip-city-lite.mmdb')), good, what);
    assert.equal(epoch(dbs, 'city'), OCTOBER, `${what}: the loaded reader stays`);
    assert.equal(dbs.city!.get('8.8.8.8')?.city?.names.en, 'Mountain View');
    assert.equal(dbs.status('city').state, 'stale', what);
    const [failed] = logs.find('geo database update failed');
    assert.match(String((failed?.err as { message?: string } | undefined)?.message ?? failed?.reason), reason, what);
    assert.deepEqual(
      (await readdir(dir)).sort(),
      ['dbip-asn-lite.mmdb', 'dbip-city-lite.mmdb'],
      `${what}: no work left`,
    );
  }

  serveDbip(bed.fake, 'city', '2026-11', gzipSync(dbipCityDatabase(NOVEMBER)));
  await dbs.checkForUpdates();
  assert.equal(epoch(dbs, 'city'), NOVEMBER, 'a good release afterwards is taken');
  assert.equal(dbs.status('city').state, 'loaded');
});

test('boot: nothing published leaves geo-local unloaded, says so in one line, and start-up goes on', async () => {
  const { dbs, logs } = databases(join(bed.work, 'geo'));
  await dbs.bootstrap();
  assert.equal(dbs.city, undefined);
  assert.deepEqual(dbs.status('city'), { state: 'missing', updatedAt: null });
  assert.equal(logs.lines.filter((l) => (l.level as number) >= 40).length, 1, logs.text);
  const [line] = logs.find('geo databases missing');
  assert.match(String(line?.msg), /dbip-city-lite, dbip-asn-lite.*answers 503; the download failed \(.*404/);
  assert.equal(line?.err, undefined);
  assert.deepEqual(await readdir(join(bed.work, 'geo')), []);
});

test('/readyz names a MaxMind database as such, and a DB-IP file an operator put in place by hand as DB-IP', async () => {
  const dir = join(bed.work, 'geo');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'GeoLite2-City.mmdb'), cityDatabase());
  await writeFile(join(dir, 'GeoLite2-ASN.mmdb'), dbipAsnDatabase());
  const maxmind = databases(dir, 'maxmind').dbs;
  await maxmind.loadAll();
  assert.deepEqual(maxmind.status('city').database, { provider: 'maxmind', edition: 'GeoLite2-City' });
  assert.deepEqual(maxmind.status('asn').database, {
    provider: 'dbip',
    edition: 'DBIP-ASN-Lite (compat=GeoLite2-ASN)',
  });
  assert.equal(bed.fake.requests.length, 0);
});
