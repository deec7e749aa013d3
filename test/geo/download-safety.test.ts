import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { downloadTestBed } from '../support/download-test-bed.js';
import { LogCapture } from '../support/app.js';
import { spawnServer } from '../support/real-server.js';
import { Upstream } from '../../lib/upstream.js';
import { GeoDatabases } from '../../datasets/geo/databases.js';
import { AsnDatasets } from '../../datasets/asn/store.js';
import { cityDatabase } from '../support/sample-geo-databases.js';
import { MAXMIND_HOST, maxmindArchive, sha256 } from '../support/fake-maxmind.js';
import { FakeDns } from '../support/fake-dns.js';

const CITY_PATH = '/geoip/databases/GeoLite2-City/download';

const bed = downloadTestBed('geo-safety-');

function databases(maxArchiveBytes?: number, dnsServer?: string) {
  const logs = new LogCapture();
  const logger = pino({ level: 'debug' }, logs);
  const dbs = new GeoDatabases({
    dir: join(bed.work, 'geo'),
    upstream: new Upstream({ timeoutMs: 8000, siteUrl: '', overrideOrigin: bed.fake.origin, logger, dnsServer }),
    accountId: '12345',
    licenseKey: 'licence-secret',
    logger,
    maxArchiveBytes,
  });
  return { dbs, logs };
}

/** The checksum answers; the archive request is redirected to `location`. */
function redirectArchiveTo(location: string, tgz: Buffer): void {
  bed.fake.on('GET', MAXMIND_HOST, CITY_PATH, (req, res) => {
    if (req.query.get('suffix') === 'tar.gz.sha256') return void res.writeHead(200).end(`${sha256(tgz)}  x.tar.gz\n`);
    res.writeHead(302, { location }).end();
  });
}

test('a redirect to plain HTTP, this machine or a private network is refused before any request goes there', async () => {
  const tgz = maxmindArchive('city', cityDatabase());
  const targets = [
    ['http://download.maxmind.com/plain/GeoLite2-City.tar.gz', MAXMIND_HOST, '/plain'],
    ['http://storage.example/plain/GeoLite2-City.tar.gz', 'storage.example', '/plain'],
    ['https://127.0.0.1/x.tar.gz', '127.0.0.1', '/'],
    ['https://[::1]/x.tar.gz', '[::1]', '/'],
    ['https://10.1.2.3/x.tar.gz', '10.1.2.3', '/'],
    ['https://169.254.169.254/latest/x.tar.gz', '169.254.169.254', '/'],
    ['https://metadata.localhost/x.tar.gz', 'metadata.localhost', '/'],
    ['file:///etc/passwd', '', '/'],
  ] as const;
  for (const [location, host, path] of targets) {
    bed.fake.reset();
    redirectArchiveTo(location, tgz);
    const { dbs } = databases();
    await assert.rejects(dbs.download('city', Date.now() + 60_000), /only HTTPS to a public host/, location);
    assert.equal(host ? bed.fake.requestsTo(host, path).length : 0, 0, `nothing sent to ${location}`);
    assert.equal(dbs.city, undefined);
  }
  const credentialsSent = bed.fake.requests.filter((r) => r.headers.authorization !== undefined);
  assert.ok(
    credentialsSent.every((r) => r.host === MAXMIND_HOST),
    'credentials only ever go to the download service',
  );
});

test('a redirect to a name that resolves to this machine or a private network is refused like the address itself', async (t) => {
  const tgz = maxmindArchive('city', cityDatabase());
  const dns = await FakeDns.start();
  t.after(() => dns.close());
  const a = (name: string, data: string) => dns.on(name, 'A', { answers: [{ type: 'A', name, ttl: 300, data }] });
  const aaaa = (name: string, data: string) =>
    dns.on(name, 'AAAA', { answers: [{ type: 'AAAA', name, ttl: 300, data }] });
  a('loopback.storage.test', '127.0.0.1');
  a('private.storage.test', '10.1.2.3');
  a('metadata.storage.test', '169.254.169.254');
  aaaa('v6-loopback.storage.test', '::1');
  // One public address beside a private one is still refused: the connection could take either.
  a('mixed.storage.test', '93.184.215.14');
  aaaa('mixed.storage.test', 'fd00::1');
  for (const host of [
    'loopback.storage.test',
    'private.storage.test',
    'metadata.storage.test',
    'v6-loopback.storage.test',
    'mixed.storage.test',
  ]) {
    bed.fake.reset();
    redirectArchiveTo(`https://${host}/x.tar.gz`, tgz);
    bed.fake.on('GET', host, '/x.tar.gz', { body: tgz });
    const { dbs } = databases(undefined, dns.address);
    await assert.rejects(dbs.download('city', Date.now() + 60_000), /only HTTPS to a public host/, host);
    assert.equal(bed.fake.requestsTo(host).length, 0, `nothing sent to ${host}`);
    assert.equal(dbs.city, undefined);
  }

  // The same redirect to a name with only public addresses is followed.
  a('public.storage.test', '93.184.215.14');
  aaaa('public.storage.test', '2606:2800:21f:cb07:6820:80da:af6b:8b2c');
  bed.fake.reset();
  redirectArchiveTo('https://public.storage.test/x.tar.gz', tgz);
  bed.fake.on('GET', 'public.storage.test', '/x.tar.gz', { body: tgz });
  const { dbs } = databases(undefined, dns.address);
  await dbs.download('city', Date.now() + 60_000);
  assert.ok(dbs.city);
  assert.equal(bed.fake.requestsTo('public.storage.test').length, 1);
});

test('an archive over the byte cap is refused, by its Content-Length or as it streams, and its folder removed', async () => {
  const tgz = maxmindArchive('city', cityDatabase());
  const cap = Math.floor(tgz.length / 2);
  for (const chunked of [false, true]) {
    bed.fake.reset();
    bed.fake.on('GET', MAXMIND_HOST, CITY_PATH, (req, res) => {
      if (req.query.get('suffix') === 'tar.gz.sha256') return void res.writeHead(200).end(`${sha256(tgz)}  x.tar.gz\n`);
      res.writeHead(200, chunked ? {} : { 'content-length': String(tgz.length) });
      res.end(tgz);
    });
    const { dbs } = databases(cap);
    await assert.rejects(dbs.download('city', Date.now() + 60_000), new RegExp(`over ${cap} bytes`));
    assert.deepEqual(await readdir(join(bed.work, 'geo')), [], 'no temporary folder left');
  }
});

test('temporary folders an interrupted download left are removed at start-up; the AS datasets do the same with their files', async () => {
  const geo = join(bed.work, 'geo');
  await mkdir(join(geo, '.download-GeoLite2-City-abcdef012345'), { recursive: true });
  await writeFile(join(geo, '.download-GeoLite2-City-abcdef012345', 'GeoLite2-City.tar.gz'), 'partial');
  const { dbs, logs } = databases();
  bed.fake.on('*', MAXMIND_HOST, /./, { status: 503 });
  await dbs.bootstrap();
  assert.deepEqual(await readdir(geo), []);
  assert.equal(logs.find('removed temporary folders of an interrupted download').length, 1);

  const asn = join(bed.work, 'asn');
  await mkdir(asn, { recursive: true });
  await writeFile(join(asn, 'as-rel2.txt.4242.download'), 'partial');
  const asnLogs = new LogCapture();
  const logger = pino({ level: 'debug' }, asnLogs);
  const datasets = new AsnDatasets({
    upstream: new Upstream({ timeoutMs: 1000, siteUrl: '', overrideOrigin: bed.fake.origin, logger }),
    dataDir: bed.work,
    logger,
  });
  await datasets.bootstrap();
  assert.ok(!(await readdir(asn)).some((name) => name.endsWith('.download')));
  assert.equal(asnLogs.find('removed temporary files of an interrupted download').length, 1);
});

test('SIGTERM during the boot download: the process stops cleanly, exit 0, no temporary folder left, no "timed out" said', async () => {
  const tgz = maxmindArchive('city', cityDatabase());
  // The archive arrives in part and then stalls, as a long download does.
  bed.fake.on('*', MAXMIND_HOST, /^\/geoip\/databases\//, (req, res) => {
    if (req.query.get('suffix') === 'tar.gz.sha256') return void res.writeHead(200).end(`${sha256(tgz)}  x.tar.gz\n`);
    res.writeHead(200, { 'content-length': String(tgz.length) });
    res.write(tgz.subarray(0, 100));
  });
  const dataDir = join(bed.work, 'data');
  const server = await spawnServer({
    UPSTREAM_OVERRIDE_ORIGIN: bed.fake.origin,
    GEODB_ACCOUNT_ID: '12345',
    GEODB_LICENSE_KEY: 'licence-secret',
    DATA_DIR: dataDir,
  });
  // The server never gets to listen while its download stalls; the fake tells when it is under way.
  for (
    let i = 0;
    i < 600 && bed.fake.requestsTo(MAXMIND_HOST).filter((r) => r.query.get('suffix') === 'tar.gz').length === 0;
    i++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(
    (await readdir(join(dataDir, 'geo'))).some((name) => name.startsWith('.download-')),
    'the download is under way',
  );
  server.child.kill('SIGTERM');
  const [code] = await server.exit;
  assert.equal(code, 0);
  assert.deepEqual(
    (await readdir(join(dataDir, 'geo'))).filter((name) => name.startsWith('.download-')),
    [],
  );
  assert.ok(server.lines.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'));
  // The download was abandoned, not timed out, and the log says which.
  const said = server.lines.map((l) => JSON.stringify(l));
  assert.deepEqual(
    said.filter((l) => l.includes('timed out')),
    [],
  );
  assert.ok(
    said.some((l) => l.includes('abandoned: the service is stopping')),
    said.join('\n'),
  );
});
