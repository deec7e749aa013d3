import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { registerRipeStatFakeRoutes } from '../support/fake-routes/asn.js';
import { dataDir } from './helpers.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const RIPE = 'stat.ripe.net';
const OVERVIEW = '/data/as-overview/data.json';

interface Body {
  asn: number;
  dataset: string;
  found: boolean;
  truncated: boolean;
  nodes: Array<{ asn: number; name: string | null; country: string | null; tier1: boolean; depth: number }>;
  edges: Array<{ from: number; to: number; relation: string }>;
}

const edgeSet = (body: Body) => new Set(body.edges.map((e) => `${e.from}>${e.to}:${e.relation}`));
const node = (body: Body, asn: number) => body.nodes.find((n) => n.asn === asn);

const fake = fakeUpstreamPerFile(registerRipeStatFakeRoutes);

/** The API with both fixture snapshots on disk, loaded by the start-up steps. */
async function loadedApi(t: { after: (fn: () => Promise<void>) => void }, snapshots = { relationships: true, organisations: true }) {
  const dir = await dataDir(snapshots);
  const api = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, DATA_DIR: dir.path });
  await api.app.lifecycle.boot();
  t.after(async () => {
    await api.app.close();
    await dir.remove();
  });
  return api;
}

test('asn guard: missing and malformed ASNs are 400 with the spec strings', async (t) => {
  const { app } = await loadedApi(t);
  await assertGuardErrors(app, [
    ['/api/asn-connectivity', 'No ASN provided'],
    ['/api/asn-connectivity?asn=', 'No ASN provided'],
    ['/api/asn-connectivity?asn=AS-13335', 'Invalid ASN'],
    ['/api/asn-connectivity?asn=4294967296', 'Invalid ASN'],
  ]);
});

test('a stub AS: one provider, then the two Tier-1s above it and their peering; RIPEstat only for the unnamed AS', async (t) => {
  const { app } = await loadedApi(t);
  const res = await call(app, '/api/asn-connectivity?asn=AS200000');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  const body = res.json() as Body;
  assert.equal(body.asn, 200000);
  assert.equal(body.dataset, 'loaded');
  assert.equal(body.found, true);
  assert.equal(body.truncated, false);
  assert.deepEqual(
    body.nodes.map((n) => [n.asn, n.depth, n.tier1]).sort((a, b) => (a[0] as number) - (b[0] as number)),
    [
      [1299, 2, true],
      [3356, 2, true],
      [9002, 1, false],
      [200000, 0, false],
    ],
  );
  assert.deepEqual(edgeSet(body), new Set(['200000>9002:provider', '9002>3356:provider', '9002>1299:provider', '3356>1299:peer']));
  assert.deepEqual(node(body, 9002), { asn: 9002, name: 'RETN Limited', country: 'GB', tier1: false, depth: 1 });
  assert.equal(node(body, 200000)!.name, 'HOSTING-EXAMPLE - Example Hosting Ltd');
  const lookups = fake.requestsTo(RIPE, OVERVIEW);
  assert.equal(lookups.length, 1);
  assert.equal(lookups[0]!.query.get('resource'), 'AS200000');
  assert.equal(lookups[0]!.query.get('sourceapp'), 'netdiag-backend');
});

test('a multi-homed AS: every provider, the paths above them, and the Tier-1 clique links', async (t) => {
  const { app } = await loadedApi(t);
  const body = (await call(app, '/api/asn-connectivity?asn=13335')).json() as Body;
  assert.deepEqual(
    body.nodes.map((n) => n.asn).sort((a, b) => a - b),
    [174, 1299, 3356, 6939, 8220, 9002, 13335],
  );
  assert.deepEqual(
    edgeSet(body),
    new Set([
      '13335>174:provider',
      '13335>6939:provider',
      '13335>9002:provider',
      '13335>8220:provider',
      '9002>3356:provider',
      '9002>1299:provider',
      '8220>174:provider',
      '8220>3356:provider',
      '174>3356:peer',
      '174>1299:peer',
      '3356>1299:peer',
    ]),
  );
  // 6939 sells transit and buys none, but misses peerings with 174 and 3356: not in the clique.
  assert.equal(node(body, 6939)!.tier1, false);
  assert.equal(node(body, 174)!.tier1, true);
  assert.equal(node(body, 13335)!.name, 'Cloudflare, Inc.');
  assert.equal(fake.requestsTo(RIPE).length, 0);
});

test('a Tier-1 itself is the whole graph', async (t) => {
  const { app } = await loadedApi(t);
  const body = (await call(app, '/api/asn-connectivity?asn=174')).json() as Body;
  assert.equal(body.found, true);
  assert.deepEqual(body.nodes, [{ asn: 174, name: 'Cogent Communications', country: 'US', tier1: true, depth: 0 }]);
  assert.deepEqual(body.edges, []);
});

test('an AS missing from the snapshot gives an empty graph marked not found', async (t) => {
  const { app } = await loadedApi(t);
  const res = await call(app, '/api/asn-connectivity?asn=64511');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { asn: 64511, dataset: 'loaded', found: false, truncated: false, nodes: [], edges: [] });
  assert.equal(fake.requestsTo(RIPE).length, 0);
});

test('without a snapshot: an empty graph, never an error, and not cached', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const res = await call(app, '/api/asn-connectivity?asn=13335');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(res.json(), { asn: 13335, dataset: 'unavailable', found: false, truncated: false, nodes: [], edges: [] });
  await app.close();
});

test('without the organisation snapshot, names come from RIPEstat; a failed lookup leaves the name null', async (t) => {
  fake.on('GET', RIPE, OVERVIEW, (req, res) => {
    if (req.query.get('resource') === 'AS1299') {
      res.writeHead(500).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', data: { holder: `holder of ${req.query.get('resource')}` } }));
  });
  const { app } = await loadedApi(t, { relationships: true, organisations: false });
  const res = await call(app, '/api/asn-connectivity?asn=200000');
  assert.equal(res.statusCode, 200);
  const body = res.json() as Body;
  assert.equal(node(body, 9002)!.name, 'holder of AS9002');
  assert.equal(node(body, 3356)!.name, 'holder of AS3356');
  assert.equal(node(body, 1299)!.name, null);
  assert.equal(fake.requestsTo(RIPE, OVERVIEW).length, 4);
});
