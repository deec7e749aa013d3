import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { downloadTestBed } from '../support/download-test-bed.js';
import { buildTestApi, call, LogCapture, runStartupStep } from '../support/app.js';
import { GEO_DATABASES_STEP } from '../../datasets/geo/service-databases.js';
import { Upstream } from '../../lib/upstream.js';
import { EDITIONS, GeoDatabases, type Edition } from '../../datasets/geo/databases.js';
import { asnDatabase, cityDatabase } from '../support/sample-geo-databases.js';
import { MAXMIND_HOST, maxmindArchive, serveMaxmind, sha256 } from '../support/fake-maxmind.js';
import { setTimeout as delay } from 'node:timers/promises';
import { FakeDns } from '../support/fake-dns.js';

const OLD = new Date('2026-01-01T00:00:00Z');

const bed = downloadTestBed('geo-db-');

function databases(
  dir: string,
  logs = new LogCapture(),
  credentials = true,
  downloadCapMs?: number,
  dnsServer?: string,
) {
  const logger = pino({ level: 'debug' }, logs);
  return {
    logs,
    dbs: new GeoDatabases({
      dir,
      upstream: new Upstream({ timeoutMs: 8000, siteUrl: '', overrideOrigin: bed.fake.origin, logger, dnsServer }),
      accountId: credentials ? '12345' : '',
      licenseKey: credentials ? 'licence-secret' : '',
      logger,
      downloadCapMs,
    }),
  };
}

async function seed(dir: string, city = cityDatabase(), asn = asnDatabase()) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'GeoLite2-City.mmdb'), city);
  await writeFile(join(dir, 'GeoLite2-ASN.mmdb'), asn);
  await utimes(join(dir, 'GeoLite2-City.mmdb'), OLD, OLD);
  await utimes(join(dir, 'GeoLite2-ASN.mmdb'), OLD, OLD);
}

const epoch = (dbs: GeoDatabases, e: Edition) => dbs[e]!.metadata.buildEpoch.getTime() / 1000;

test('boot: missing databases are downloaded with HTTP Basic, verified, extracted and loaded; geo-local answers', async () => {
  serveMaxmind(bed.fake, 'city', maxmindArchive('city', cityDatabase(1_800_000_000)), new Date('2026-11-20T00:00:00Z'));
  serveMaxmind(bed.fake, 'asn', maxmindArchive('asn', asnDatabase(1_800_000_000)), new Date('2026-11-20T00:00:00Z'));
  const { app, logs } = await buildTestApi({
    DATA_DIR: bed.work,
    UPSTREAM_OVERRIDE_ORIGIN: bed.fake.origin,
    GEODB_ACCOUNT_ID: '12345',
    GEODB_LICENSE_KEY: 'licence-secret',
  });
  assert.equal((await call(app, '/api/geo-local?ip=8.8.8.8')).statusCode, 503);
  await runStartupStep(app, GEO_DATABASES_STEP);
  const res = await call(app, '/api/geo-local?ip=8.8.8.8');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().city, 'Mountain View');
  assert.equal(res.json().asn, 'AS15169');

  const sent = bed.fake.requestsTo(MAXMIND_HOST);
  assert.equal(sent.length, 4, 'one checksum and one archive per edition');
  const basic = 'Basic ' + Buffer.from('12345:licence-secret').toString('base64');
  assert.ok(sent.every((r) => r.headers.authorization === basic));
  const files = await readdir(join(bed.work, 'geo'));
  assert.deepEqual(files.sort(), ['GeoLite2-ASN.mmdb', 'GeoLite2-City.mmdb'], 'no temporary files are left');
  assert.ok(!logs.text.includes('licence-secret'), 'the licence key never reaches a log line');
  await app.close();
});

test('boot: without credentials nothing is downloaded; present databases are not re-downloaded', async () => {
  const { dbs, logs } = databases(join(bed.work, 'geo'), new LogCapture(), false);
  await dbs.bootstrap();
  assert.equal(bed.fake.requests.length, 0);
  assert.equal(dbs.city, undefined);
  const [missing, ...more] = logs.find('geo databases missing');
  assert.equal(more.length, 0, 'one line for both editions');
  assert.match(
    String(missing?.msg),
    /GeoLite2-City, GeoLite2-ASN.*\/api\/geo-local answers 503.*set GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY/,
  );
  assert.equal(missing?.level, 40);
  assert.equal(missing?.err, undefined, 'an expected state, not an error: no stack');

  await seed(join(bed.work, 'seeded'));
  const seeded = databases(join(bed.work, 'seeded')).dbs;
  await seeded.bootstrap();
  assert.equal(bed.fake.requests.length, 0);
  assert.ok(seeded.city && seeded.asn);
});

test('download follows the redirect to storage without sending the credentials there', async (t) => {
  // The storage name is resolved (and found public) before the redirect is followed.
  const dns = await FakeDns.start();
  t.after(() => dns.close());
  dns.on('storage.example', 'A', {
    answers: [{ type: 'A', name: 'storage.example', ttl: 300, data: '93.184.215.14' }],
  });
  const tgz = maxmindArchive('city', cityDatabase(1_800_000_000));
  bed.fake.on('GET', MAXMIND_HOST, '/geoip/databases/GeoLite2-City/download', (req, res) => {
    if (req.query.get('suffix') === 'tar.gz.sha256') return void res.writeHead(200).end(`${sha256(tgz)}  x.tar.gz\n`);
    res.writeHead(302, { location: 'https://storage.example/signed/GeoLite2-City.tar.gz?sig=abc' }).end();
  });
  bed.fake.on('GET', 'storage.example', '/signed/GeoLite2-City.tar.gz', { body: tgz });
  const { dbs } = databases(join(bed.work, 'geo'), undefined, undefined, undefined, dns.address);
  await dbs.download('city', Date.now() + 60_000);
  assert.equal(epoch(dbs, 'city'), 1_800_000_000);
  const [storage] = bed.fake.requestsTo('storage.example');
  assert.equal(storage?.query.get('sig'), 'abc');
  assert.equal(storage?.headers.authorization, undefined);
});

test('a download with a bad checksum never replaces the good database', async () => {
  const dir = join(bed.work, 'geo');
  await seed(dir);
  const before = await readFile(join(dir, 'GeoLite2-City.mmdb'));
  const { dbs, logs } = databases(dir);
  await dbs.loadAll();
  serveMaxmind(bed.fake, 'city', maxmindArchive('city', cityDatabase(1_800_000_000)), new Date(), 'f'.repeat(64));
  serveMaxmind(bed.fake, 'asn', maxmindArchive('asn', asnDatabase()), OLD);
  await dbs.checkForUpdates();
  assert.deepEqual(await readFile(join(dir, 'GeoLite2-City.mmdb')), before);
  assert.equal(epoch(dbs, 'city'), 1_790_000_000, 'the loaded reader stays');
  assert.match(
    String((logs.find('geo database update failed')[0]?.err as { message?: string })?.message),
    /checksum mismatch/,
  );
  assert.deepEqual((await readdir(dir)).sort(), ['GeoLite2-ASN.mmdb', 'GeoLite2-City.mmdb']);
});

test('a download whose checksum matches but which holds no valid database is refused', async () => {
  const dir = join(bed.work, 'geo');
  await seed(dir);
  const before = await readFile(join(dir, 'GeoLite2-City.mmdb'));
  const { dbs, logs } = databases(dir);
  await dbs.loadAll();
  serveMaxmind(bed.fake, 'city', maxmindArchive('city', Buffer.from('garbage, not a database at all')), new Date());
  await dbs.checkForUpdates();
  assert.deepEqual(await readFile(join(dir, 'GeoLite2-City.mmdb')), before);
  assert.equal(epoch(dbs, 'city'), 1_790_000_000);
  assert.ok(logs.find('geo database update failed').length >= 1);

  // An ASN database delivered as the city edition is also refused.
  serveMaxmind(bed.fake, 'city', maxmindArchive('city', asnDatabase(1_800_000_000)), new Date());
  await dbs.checkForUpdates();
  assert.deepEqual(await readFile(join(dir, 'GeoLite2-City.mmdb')), before);
  assert.equal(epoch(dbs, 'city'), 1_790_000_000);
});

test('scheduler: first check 60 s after start, then every 24 h, downloading only a newer copy; atomic swap', async () => {
  const dir = join(bed.work, 'geo');
  await seed(dir);
  const { dbs } = databases(dir);
  await dbs.loadAll();
  const cityPath = join(dir, 'GeoLite2-City.mmdb');
  const oldInode = (await stat(cityPath)).ino;
  let cityModified = new Date('2026-11-20T00:00:00Z');
  let cityArchive = maxmindArchive('city', cityDatabase(1_800_000_000));
  bed.fake.on('*', MAXMIND_HOST, '/geoip/databases/GeoLite2-City/download', (req, res) => {
    if (req.query.get('suffix') === 'tar.gz.sha256') {
      return void res.writeHead(200).end(`${sha256(cityArchive)}  c.tar.gz\n`);
    }
    res
      .writeHead(200, { 'last-modified': cityModified.toUTCString() })
      .end(req.method === 'HEAD' ? undefined : cityArchive);
  });
  serveMaxmind(bed.fake, 'asn', maxmindArchive('asn', asnDatabase(1_800_000_000)), OLD);
  const heads = () => bed.fake.requestsTo(MAXMIND_HOST).filter((r) => r.method === 'HEAD').length;
  const archiveGets = (e: Edition) =>
    bed.fake
      .requestsTo(MAXMIND_HOST, `/geoip/databases/${EDITIONS[e]}/`)
      .filter((r) => r.method === 'GET' && r.query.get('suffix') === 'tar.gz').length;

  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  try {
    dbs.startAutoUpdate();
    mock.timers.tick(59_999);
    await dbs.idle();
    assert.equal(bed.fake.requests.length, 0, 'nothing before 60 s');

    mock.timers.tick(1);
    await dbs.idle();
    assert.equal(heads(), 2, 'first check: one HEAD per edition');
    assert.equal(archiveGets('city'), 1, 'the newer city copy is downloaded');
    assert.equal(archiveGets('asn'), 0, 'the ASN copy is not newer');
    assert.equal(epoch(dbs, 'city'), 1_800_000_000, 'the new reader is in use');
    assert.equal(epoch(dbs, 'asn'), 1_790_000_000);
    const swapped = await stat(cityPath);
    assert.notEqual(swapped.ino, oldInode, 'replaced by rename, not rewritten in place');
    assert.equal(swapped.mtime.getTime(), cityModified.getTime(), 'the file carries the upstream Last-Modified');

    mock.timers.tick(24 * 60 * 60 * 1000 - 1);
    await dbs.idle();
    assert.equal(heads(), 2, 'no second check before 24 h');
    mock.timers.tick(1);
    await dbs.idle();
    assert.equal(heads(), 4, 'second check after 24 h');
    assert.equal(archiveGets('city'), 1, 'an unchanged upstream copy is not downloaded again');

    cityModified = new Date('2026-11-27T00:00:00Z');
    cityArchive = maxmindArchive('city', cityDatabase(1_810_000_000));
    // The scheduler marks a check finished a few promise turns after it is; a day would pass here.
    await new Promise((resolve) => setImmediate(resolve));
    mock.timers.tick(24 * 60 * 60 * 1000);
    await dbs.idle();
    assert.equal(heads(), 6);
    assert.equal(archiveGets('city'), 2, 'a later upstream copy is downloaded');
    assert.equal(epoch(dbs, 'city'), 1_810_000_000);
  } finally {
    dbs.stop();
    mock.timers.reset();
  }
  assert.deepEqual((await readdir(dir)).sort(), ['GeoLite2-ASN.mmdb', 'GeoLite2-City.mmdb']);
});

test('scheduler: an upstream without Last-Modified is not downloaded; stop() cancels the pending first check', async () => {
  const dir = join(bed.work, 'geo');
  await seed(dir);
  const { dbs, logs } = databases(dir);
  await dbs.loadAll();
  bed.fake.on('HEAD', MAXMIND_HOST, /^\/geoip\/databases\//, { status: 200 });
  await dbs.checkForUpdates();
  assert.equal(bed.fake.requests.filter((r) => r.method === 'GET').length, 0);
  assert.equal(logs.find('no Last-Modified').length, 2);

  bed.fake.reset();
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  try {
    dbs.startAutoUpdate();
    dbs.stop();
    mock.timers.tick(24 * 60 * 60 * 1000);
    await dbs.idle();
    assert.equal(bed.fake.requests.length, 0);
  } finally {
    mock.timers.reset();
  }
});

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await delay(25);
  }
  assert.fail(`gave up waiting for ${what}`);
}

test('watcher: a database replaced by hand is reloaded; a corrupt replacement keeps the old one', async () => {
  const dir = join(bed.work, 'geo');
  await seed(dir);
  const { dbs, logs } = databases(dir);
  await dbs.loadAll();
  dbs.startWatcher();
  try {
    await writeFile(join(dir, 'incoming.tmp'), asnDatabase(1_805_000_000, 'GOOGLE LLC'));
    await rename(join(dir, 'incoming.tmp'), join(dir, 'GeoLite2-ASN.mmdb'));
    await until(() => epoch(dbs, 'asn') === 1_805_000_000, 'the ASN reload');
    assert.equal(dbs.asn!.get('8.8.8.8')?.autonomous_system_organization, 'GOOGLE LLC');
    assert.equal(epoch(dbs, 'city'), 1_790_000_000, 'the other database is untouched');

    await writeFile(join(dir, 'GeoLite2-City.mmdb'), Buffer.from('half-copied garbage'));
    await until(() => logs.find('geo database could not be loaded').length > 0, 'the failed reload');
    assert.equal(epoch(dbs, 'city'), 1_790_000_000);
    assert.equal(dbs.city!.get('8.8.8.8')?.city?.names.en, 'Mountain View');
  } finally {
    dbs.stop();
  }
});

test('boot: a failed download leaves geo-local at 503 and the start-up step still completes', async () => {
  bed.fake.on('GET', MAXMIND_HOST, /^\/geoip\//, { status: 401, body: 'Invalid license key' });
  const { dbs, logs } = databases(join(bed.work, 'geo'));
  await dbs.bootstrap();
  assert.equal(dbs.city, undefined);
  assert.deepEqual(dbs.status('city'), { state: 'missing', updatedAt: null });
  // One line for both editions, naming the refusal and the settings to check; no stack.
  assert.equal(logs.lines.filter((l) => (l.level as number) >= 40).length, 1, logs.text);
  const [line] = logs.find('geo databases missing');
  assert.match(String(line?.msg), /answered 401.*check GEODB_ACCOUNT_ID and GEODB_LICENSE_KEY/);
  assert.equal(line?.err, undefined);
});

test('boot: a download that stalls is abandoned at the cap; the step finishes and geo-local stays unloaded', async () => {
  const tgz = maxmindArchive('city', cityDatabase());
  bed.fake.on('GET', MAXMIND_HOST, /^\/geoip\//, (req, res) => {
    if (req.query.get('suffix') === 'tar.gz.sha256') return void res.writeHead(200).end(`${sha256(tgz)}  x.tar.gz\n`);
    res.writeHead(200, { 'content-length': String(tgz.length) });
    res.write(tgz.subarray(0, 100));
  });
  const { dbs, logs } = databases(join(bed.work, 'geo'), new LogCapture(), true, 300);
  await dbs.bootstrap();
  assert.equal(dbs.city, undefined);
  assert.match(String(logs.find('geo databases missing')[0]?.msg), /the download failed \(timed out\)/);
  assert.deepEqual(await readdir(join(bed.work, 'geo')), [], 'the partial download is removed');
});

test('app wiring: the geo-databases step loads, the background step starts the updater, closing the app stops it', async () => {
  await seed(join(bed.work, 'geo'));
  bed.fake.on('HEAD', MAXMIND_HOST, /^\/geoip\/databases\//, {
    status: 200,
    headers: { 'last-modified': OLD.toUTCString() },
  });
  const { app } = await buildTestApi({
    DATA_DIR: bed.work,
    UPSTREAM_OVERRIDE_ORIGIN: bed.fake.origin,
    GEODB_ACCOUNT_ID: '12345',
    GEODB_LICENSE_KEY: 'licence-secret',
    GEODB_AUTO_UPDATE: 'true',
  });
  // Only this capability's steps run here; the others' belong to their own tests.
  const steps = app.lifecycle.steps.filter((s) => s.name.startsWith('geo'));
  assert.deepEqual(
    steps.map((s) => s.phase),
    ['geo-databases', 'background'],
  );
  // The scheduler starts a check synchronously when its timer fires; the spy counts them and holds each one's promise.
  const checks = mock.method(GeoDatabases.prototype, 'checkForUpdates');
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  try {
    for (const step of steps) await step.run();
    assert.equal((await call(app, '/api/geo-local?ip=8.8.8.8')).statusCode, 200);
    mock.timers.tick(60_000);
    assert.equal(checks.mock.callCount(), 1, 'the first check started');
    await checks.mock.calls[0]!.result;
    assert.equal(bed.fake.requestsTo(MAXMIND_HOST).length, 2, 'the first check ran');
    await app.close();
    mock.timers.tick(48 * 60 * 60 * 1000);
    assert.equal(checks.mock.callCount(), 1, 'no check after the app closed');
    assert.equal(bed.fake.requestsTo(MAXMIND_HOST).length, 2, 'no check after the app closed');
  } finally {
    mock.timers.reset();
    checks.mock.restore();
  }
});
