import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { fixture, fixtureBytes } from '../support/fake-upstream.js';
import { buildTestApi, call } from '../support/app.js';
import { registerCaidaFakeRoutes } from '../support/fake-routes/asn.js';
import { Upstream } from '../../lib/upstream.js';
import { AsnDatasets, MISSING_RETRY_MS } from '../../datasets/asn/store.js';
import { AUTO_UPDATE } from '../../lib/periodic-check.js';
import { parseAsRel, REL_PROVIDER } from '../../datasets/asn/graph.js';
import { parseAsOrg } from '../../datasets/asn/orgs.js';
import { generateAsRel } from '../../bench/gen-as-rel.js';
import { dataDir, type DataDir } from './helpers.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const CAIDA = 'publicdata.caida.org';
const REL_DIR = '/datasets/as-relationships/serial-2/';
const ORG_DIR = '/datasets/as-organizations/';
const HOUR = 60 * 60 * 1000;

const fake = fakeUpstreamPerFile(registerCaidaFakeRoutes);

function datasets(dir: DataDir): AsnDatasets {
  const upstream = new Upstream({ timeoutMs: 8000, siteUrl: '', overrideOrigin: fake.origin });
  return new AsnDatasets({
    upstream,
    dataDir: dir.path,
    logger: pino({ level: process.env.DBG ? 'debug' : 'silent' }),
  });
}

/** A listing page that names `file` as the newest snapshot. */
function listing(file: string): string {
  return `<html><body><a href="20261101.as-rel2.txt.bz2">20261101.as-rel2.txt.bz2</a> <a href="${file}">${file}</a></body></html>`;
}

const leftovers = async (dir: DataDir) =>
  (await readdir(join(dir.path, 'asn'))).filter((f) => f.includes('.download') || f.includes('.tmp'));

test('the relationship parser builds the CSR graph and finds the Tier-1s', async () => {
  const graph = await parseAsRel(Readable.from([fixture(CAIDA, '20261101.as-rel2.txt') as string]));
  assert.equal(graph.size, 113);
  assert.equal(graph.linkCount, 424);
  assert.deepEqual([...graph.asns].slice(0, 4), [174, 1299, 2914, 3356]);
  // 6939 buys no transit either, but has two customers, not a Tier-1's hundreds.
  assert.deepEqual(
    [...graph.tier1].map((i) => graph.asns[i]),
    [174, 1299, 2914, 3356],
  );
  assert.deepEqual(graph.relationCounts(9002), { upstreams: 2, downstreams: 2, peers: 0 });
  assert.deepEqual(graph.relationCounts(174), { upstreams: 0, downstreams: 102, peers: 3 });
  assert.deepEqual(graph.relationCounts(6939), { upstreams: 0, downstreams: 2, peers: 2 });
  assert.equal(graph.relationCounts(64511), undefined);
  assert.equal(graph.offsets[graph.size], 848);
});

test("every AS's providers sit together at the end of its adjacency slice", async () => {
  const graph = await parseAsRel(Readable.from([generateAsRel(3000, 3).text]));
  for (let i = 0; i < graph.size; i++) {
    const all = graph.neighboursOf(i, REL_PROVIDER).sort((a, b) => a - b);
    assert.deepEqual(
      graph.providersOf(i).sort((a, b) => a - b),
      all,
    );
  }
});

test('the parsers refuse a corrupt file rather than half-load it', async () => {
  await assert.rejects(parseAsRel(Readable.from(['174|1299|0|bgp\n<html>502 Bad Gateway</html>\n'])), /line 2/);
  await assert.rejects(parseAsRel(Readable.from(['174|1299|2|bgp\n'])), /unknown relation/);
  await assert.rejects(parseAsRel(Readable.from(['# only comments\n'])), /no relationships/);
  await assert.rejects(parseAsOrg(Readable.from(['ORG|2024|Name|US|ARIN\n'])), /before any/);
  const orgs = await parseAsOrg(Readable.from([fixture(CAIDA, '20261101.as-org2info.txt') as string]));
  assert.equal(orgs.size, 11);
  assert.equal(orgs.name(1299), 'Arelion Sweden AB');
  assert.equal(orgs.name(200000), undefined);
});

test('start-up downloads missing snapshots from the newest listing entries, decompressed under DATA_DIR', async (t) => {
  const dir = await dataDir();
  t.after(() => dir.remove());
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, DATA_DIR: dir.path });
  await app.lifecycle.boot();
  assert.deepEqual(
    fake
      .requestsTo(CAIDA)
      .map((r) => r.path)
      .sort(),
    [ORG_DIR, `${ORG_DIR}20261101.as-org2info.txt.gz`, REL_DIR, `${REL_DIR}20261101.as-rel2.txt.bz2`],
  );
  assert.equal(await readFile(join(dir.path, 'asn', 'as-rel2.txt'), 'utf8'), fixture(CAIDA, '20261101.as-rel2.txt'));
  assert.equal(
    await readFile(join(dir.path, 'asn', 'as-org2info.txt'), 'utf8'),
    fixture(CAIDA, '20261101.as-org2info.txt'),
  );
  assert.deepEqual(JSON.parse(await readFile(join(dir.path, 'asn', 'state.json'), 'utf8')), {
    relationships: '20261101.as-rel2.txt.bz2',
    organisations: '20261101.as-org2info.txt.gz',
  });
  assert.deepEqual(await leftovers(dir), []);
  const body = (await call(app, '/api/asn-connectivity?asn=9002')).json();
  await app.close();
  assert.deepEqual(body.nodes[0], { asn: 9002, type: 'origin', name: 'RETN Limited' });
});

test('start-up with snapshots on disk loads them and downloads nothing', async (t) => {
  const dir = await dataDir({ relationships: true, organisations: true });
  t.after(() => dir.remove());
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, DATA_DIR: dir.path });
  await app.lifecycle.boot();
  const body = (await call(app, '/api/asn-connectivity?asn=174')).json();
  await app.close();
  assert.equal(fake.requestsTo(CAIDA).length, 0);
  assert.deepEqual(body.nodes, [{ asn: 174, type: 'origin-tier1', name: 'Cogent Communications' }]);
});

test('a failed start-up download is non-fatal: the route degrades to an empty graph', async (t) => {
  const dir = await dataDir();
  t.after(() => dir.remove());
  fake.reset();
  fake.on('GET', CAIDA, /.*/, { status: 503, body: 'Service Unavailable' });
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, DATA_DIR: dir.path });
  t.after(() => app.close());
  await app.lifecycle.boot();
  // One line for both, without a stack: what failed, what runs degraded, when it is tried again.
  const lines = logs.lines.filter((l) => l.level === 40 && /^AS /.test(String(l.msg)));
  assert.equal(lines.length, 1, logs.text);
  assert.match(
    String(lines[0]!.msg),
    /^AS relationships and AS organisations not downloaded \(.*answered 503.*\): \/api\/asn-connectivity has no graph.*tried again every hour$/,
  );
  assert.equal(lines[0]!.err, undefined);
  const res = await call(app, '/api/asn-connectivity?asn=13335');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { origin: 13335, nodes: [], edges: [], relationships: null, snapshot: null });
  assert.equal(res.headers['cache-control'], 'no-store');
});

test('a snapshot missing after start-up is tried again every hour until it is in, then no more', async (t) => {
  const dir = await dataDir();
  t.after(() => dir.remove());
  fake.reset();
  fake.on('GET', CAIDA, /.*/, { status: 503, body: 'Service Unavailable' });
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.after(() => mock.timers.reset());
  const ds = datasets(dir);
  t.after(() => ds.stop());
  await ds.bootstrap();
  assert.deepEqual(ds.status('relationships'), { state: 'missing', updatedAt: null });
  const listings = () => fake.requestsTo(CAIDA).filter((r) => r.path === REL_DIR).length;
  assert.equal(listings(), 1);

  // Still failing an hour later: tried once more, quietly.
  let checked = once(ds, 'checked');
  mock.timers.tick(MISSING_RETRY_MS);
  await checked;
  assert.equal(listings(), 2);
  assert.equal(ds.graph, null);
  // The scheduler marks its run finished a few turns after the check's own end.
  await new Promise((resolve) => setImmediate(resolve));

  // The upstream is back: the next retry brings both in, and retrying stops.
  fake.reset();
  registerCaidaFakeRoutes(fake);
  checked = once(ds, 'checked');
  mock.timers.tick(MISSING_RETRY_MS);
  await checked;
  assert.notEqual(ds.graph, null);
  assert.notEqual(ds.orgs, null);
  const status = ds.status('relationships');
  assert.equal(status.state, 'loaded');
  assert.equal(status.updatedAt?.toISOString(), '2026-11-01T00:00:00.000Z', 'the snapshot date from its name');
  await new Promise((resolve) => setImmediate(resolve));
  let later = 0;
  ds.on('checked', () => later++);
  mock.timers.tick(5 * MISSING_RETRY_MS);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(later, 0, 'no retry once both are in');
});

test('a truncated download never replaces the snapshot in use', async (t) => {
  const dir = await dataDir({ relationships: true });
  t.after(() => dir.remove());
  const ds = datasets(dir);
  assert.equal(await ds.loadFromDisk('relationships'), true);
  const before = ds.graph;
  const good = fixtureBytes(CAIDA, '20261201.as-rel2.txt.bz2');
  for (const cut of [good.subarray(0, good.length - 4), good.subarray(0, good.length >> 1)]) {
    fake.on('GET', CAIDA, REL_DIR, { body: listing('20261201.as-rel2.txt.bz2') });
    fake.on('GET', CAIDA, `${REL_DIR}20261201.as-rel2.txt.bz2`, { body: cut });
    await assert.rejects(ds.update('relationships', false));
    assert.equal(ds.graph, before);
    assert.equal(await readFile(ds.path('relationships'), 'utf8'), fixture(CAIDA, '20261101.as-rel2.txt'));
    assert.deepEqual(await leftovers(dir), []);
  }
});

test('a well-formed but much smaller snapshot is taken as truncated and refused', async (t) => {
  const dir = await dataDir({ relationships: true });
  t.after(() => dir.remove());
  const ds = datasets(dir);
  await ds.loadFromDisk('relationships');
  const before = ds.graph;
  fake.on('GET', CAIDA, REL_DIR, { body: listing('20261215.as-rel2.txt.bz2') });
  fake.on('GET', CAIDA, `${REL_DIR}20261215.as-rel2.txt.bz2`, {
    body: fixtureBytes(CAIDA, '20261215.as-rel2.txt.bz2'),
  });
  await assert.rejects(ds.update('relationships', false), /taken as truncated/);
  assert.equal(ds.graph, before);
  assert.equal(await readFile(ds.path('relationships'), 'utf8'), fixture(CAIDA, '20261101.as-rel2.txt'));
});

test('a download that decompresses to something else is refused', async (t) => {
  const dir = await dataDir({ organisations: true });
  t.after(() => dir.remove());
  const ds = datasets(dir);
  await ds.loadFromDisk('organisations');
  const before = ds.orgs;
  fake.on('GET', CAIDA, ORG_DIR, { body: '<a href="20261201.as-org2info.txt.gz">x</a>' });
  fake.on('GET', CAIDA, `${ORG_DIR}20261201.as-org2info.txt.gz`, {
    body: gzipSync('<html><body>Access denied</body></html>\n'),
  });
  await assert.rejects(ds.update('organisations', false));
  assert.equal(ds.orgs, before);
  assert.equal(await readFile(ds.path('organisations'), 'utf8'), fixture(CAIDA, '20261101.as-org2info.txt'));
  assert.deepEqual(await leftovers(dir), []);
});

test('a newer snapshot is swapped in atomically: the old one serves until the new one is complete and valid', async (t) => {
  const dir = await dataDir({ relationships: true });
  t.after(() => dir.remove());
  const ds = datasets(dir);
  await ds.loadFromDisk('relationships');
  const before = ds.graph!;
  assert.deepEqual(before.relationCounts(200000), { upstreams: 1, downstreams: 0, peers: 0 });
  const newer = fixtureBytes(CAIDA, '20261201.as-rel2.txt.bz2');
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let sending!: () => void;
  const started = new Promise<void>((resolve) => (sending = resolve));
  fake.on('GET', CAIDA, REL_DIR, { body: listing('20261201.as-rel2.txt.bz2') });
  fake.on('GET', CAIDA, `${REL_DIR}20261201.as-rel2.txt.bz2`, async (_req, res) => {
    res.writeHead(200, { 'content-length': String(newer.length) });
    res.write(newer.subarray(0, 100));
    sending();
    await held;
    res.end(newer.subarray(100));
  });
  const updating = ds.update('relationships', false);
  await started;
  assert.equal(ds.graph, before);
  assert.equal(await readFile(ds.path('relationships'), 'utf8'), fixture(CAIDA, '20261101.as-rel2.txt'));
  release();
  assert.equal(await updating, true);
  assert.notEqual(ds.graph, before);
  assert.deepEqual(ds.graph!.relationCounts(200000), { upstreams: 2, downstreams: 0, peers: 0 });
  assert.match(await readFile(ds.path('relationships'), 'utf8'), /1299\|200000\|-1/);
  assert.equal(
    JSON.parse(await readFile(join(dir.path, 'asn', 'state.json'), 'utf8')).relationships,
    '20261201.as-rel2.txt.bz2',
  );
  assert.deepEqual(await leftovers(dir), []);
  // Already current: the next check downloads nothing.
  const downloads = fake.requestsTo(CAIDA, `${REL_DIR}2026`).length;
  assert.equal(await ds.update('relationships', false), false);
  assert.equal(fake.requestsTo(CAIDA, `${REL_DIR}2026`).length, downloads);
});

test('auto-update: first check a minute after start, then every 24 hours from it, stopped on request', async (t) => {
  const dir = await dataDir({ relationships: true, organisations: true });
  t.after(() => dir.remove());
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.after(() => mock.timers.reset());
  const ds = datasets(dir);
  ds.startAutoUpdate();
  const listings = () => fake.requestsTo(CAIDA).filter((r) => r.path === REL_DIR).length;

  mock.timers.tick(AUTO_UPDATE.firstAfterMs - 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(listings(), 0);
  let checked = once(ds, 'checked');
  mock.timers.tick(1);
  await checked;
  assert.equal(listings(), 1);
  assert.equal(
    fake.requestsTo(CAIDA, `${REL_DIR}20261101`).length,
    1,
    'no state yet: the newest snapshot is fetched once',
  );

  mock.timers.tick(24 * HOUR - 1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(listings(), 1, 'no second check before 24 hours after the first');
  checked = once(ds, 'checked');
  mock.timers.tick(1);
  await checked;
  assert.equal(listings(), 2);
  assert.equal(fake.requestsTo(CAIDA, `${REL_DIR}20261101`).length, 1, 'current snapshot: nothing downloaded');

  ds.stop();
  mock.timers.tick(48 * HOUR);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(listings(), 2);
});

test('ASNDATA_AUTO_UPDATE=true starts the updater as a background step and app.close stops it', async (t) => {
  const dir = await dataDir({ relationships: true, organisations: true });
  t.after(() => dir.remove());
  // Both snapshots current, so the check only reads the listings.
  await writeFile(
    join(dir.path, 'asn', 'state.json'),
    JSON.stringify({ relationships: '20261101.as-rel2.txt.bz2', organisations: '20261101.as-org2info.txt.gz' }),
  );
  mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  t.after(() => mock.timers.reset());
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    DATA_DIR: dir.path,
    ASNDATA_AUTO_UPDATE: 'true',
  });
  await app.lifecycle.boot();
  assert.equal(fake.requestsTo(CAIDA).length, 0);
  mock.timers.tick(AUTO_UPDATE.firstAfterMs);
  for (let i = 0; i < 10_000 && fake.requestsTo(CAIDA, ORG_DIR).length === 0; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.deepEqual(
    fake.requestsTo(CAIDA).map((r) => r.path),
    [REL_DIR, ORG_DIR],
  );
  await app.close();
  const seen = fake.requestsTo(CAIDA).length;
  mock.timers.tick(48 * HOUR);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(fake.requestsTo(CAIDA).length, seen);
});
