import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { FakeUpstream, fixture, fixtureBytes } from '../support/fake-upstream.js';
import { LogCapture } from '../support/app.js';
import { Upstream } from '../../lib/upstream.js';
import { AsnDatasets } from '../../datasets/asn/store.js';
import { GeoDatabases } from '../../datasets/geo/databases.js';
import { cityDatabase } from '../support/sample-geo-databases.js';
import { MAXMIND_HOST, maxmindArchive, sha256 } from '../support/fake-maxmind.js';

const CAIDA = 'publicdata.caida.org';
// A short interval stands in for the 5 s one; the body arrives in pieces with longer pauses between them.
const EVERY_MS = 100;
const PIECES = 6;
const PAUSE_MS = 80;

let fake: FakeUpstream;
before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());

/** Sends `body` in PIECES pieces PAUSE_MS apart; with its Content-Length unless `announce` is false (chunked). */
function slowly(body: Buffer, announce = true) {
  return async (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, announce ? { 'content-length': String(body.length) } : {});
    const size = Math.ceil(body.length / PIECES);
    for (let i = 0; i < PIECES; i++) {
      res.write(body.subarray(i * size, (i + 1) * size));
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
    res.end();
  };
}

function progressLines(logs: LogCapture, what: string) {
  return logs.lines.filter((l) => l.download === what);
}

/** Each line at least EVERY_MS after the one before, with the bytes growing and never over the body. */
function assertPaced(lines: Array<Record<string, unknown>>, bodyLength: number) {
  assert.ok(lines.length >= 1, 'a download longer than the interval logs its progress');
  for (let i = 1; i < lines.length; i++) {
    // A line's time is read a moment after the pacing clock, so it may fall one millisecond later.
    assert.ok(
      (lines[i]!.time as number) - (lines[i - 1]!.time as number) >= EVERY_MS - 1,
      'at most one line per interval',
    );
    assert.ok((lines[i]!.bytes as number) > (lines[i - 1]!.bytes as number));
  }
  for (const line of lines) assert.ok((line.bytes as number) > 0 && (line.bytes as number) <= bodyLength);
}

test('the AS snapshot downloads log their progress: bytes and percent when the size is announced, bytes alone when not', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'progress-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const rel = fixtureBytes(CAIDA, '20261101.as-rel2.txt.bz2');
  const org = fixtureBytes(CAIDA, '20261101.as-org2info.txt.gz');
  fake.on('GET', CAIDA, '/datasets/as-relationships/serial-2/', {
    body: fixture(CAIDA, 'as-relationships-serial-2.html') as string,
  });
  fake.on('GET', CAIDA, '/datasets/as-relationships/serial-2/20261101.as-rel2.txt.bz2', slowly(rel));
  fake.on('GET', CAIDA, '/datasets/as-organizations/', { body: fixture(CAIDA, 'as-organizations.html') as string });
  fake.on('GET', CAIDA, '/datasets/as-organizations/20261101.as-org2info.txt.gz', slowly(org, false));
  const logs = new LogCapture();
  const upstream = new Upstream({ timeoutMs: 8000, siteUrl: '', overrideOrigin: fake.origin });
  const datasets = new AsnDatasets({
    upstream,
    dataDir,
    logger: pino({ level: 'info' }, logs),
    progressEveryMs: EVERY_MS,
  });
  await datasets.bootstrap();
  assert.ok(datasets.graph && datasets.orgs, 'both downloaded');

  const known = progressLines(logs, '20261101.as-rel2.txt.bz2');
  assertPaced(known, rel.length);
  for (const line of known) {
    assert.equal(line.totalBytes, rel.length);
    assert.equal(line.percent, Math.floor(((line.bytes as number) / rel.length) * 100));
    assert.match(String(line.msg), /^downloading 20261101\.as-rel2\.txt\.bz2: \d+\.\d MB of \d+\.\d MB \(\d{1,3}%\)$/);
  }
  const unknown = progressLines(logs, '20261101.as-org2info.txt.gz');
  assertPaced(unknown, org.length);
  for (const line of unknown) {
    assert.deepEqual([line.totalBytes, line.percent], [null, null]);
    assert.match(String(line.msg), /^downloading 20261101\.as-org2info\.txt\.gz: \d+\.\d MB so far$/);
  }
});

test('a geo database download logs its progress too', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'progress-geo-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const tgz = maxmindArchive('city', cityDatabase());
  fake.on('GET', MAXMIND_HOST, '/geoip/databases/GeoLite2-City/download', (req, res) => {
    if (req.query.get('suffix') === 'tar.gz.sha256') return void res.writeHead(200).end(`${sha256(tgz)}  x.tar.gz\n`);
    return slowly(tgz)(req, res);
  });
  const logs = new LogCapture();
  const logger = pino({ level: 'info' }, logs);
  const upstream = new Upstream({ timeoutMs: 8000, siteUrl: '', overrideOrigin: fake.origin, logger });
  const databases = new GeoDatabases({
    dir,
    upstream,
    accountId: 'a',
    licenseKey: 'k',
    logger,
    progressEveryMs: EVERY_MS,
  });
  await databases.download('city', Date.now() + 60_000);
  assert.ok(databases.city);
  const lines = progressLines(logs, 'GeoLite2-City');
  assertPaced(lines, tgz.length);
  assert.ok(lines.every((l) => l.totalBytes === tgz.length));
});
