import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { registerRipeStatFakeRoutes } from '../support/fake-routes/asn.js';
import { dataDir } from './helpers.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const RIPE = 'stat.ripe.net';
const OVERVIEW = '/data/as-overview/data.json';

interface Body {
  origin: number;
  nodes: Array<{ asn: number; type: string; name: string | null }>;
  edges: Array<{ from: number; to: number }>;
}

const edgeSet = (body: Body) => new Set(body.edges.map((e) => `${e.from}>${e.to}`));
const byAsn = (body: Body) => [...body.nodes].sort((a, b) => a.asn - b.asn);

const fake = fakeUpstreamPerFile(registerRipeStatFakeRoutes);

/** The API with both fixture snapshots on disk, loaded by the start-up steps. */
async function loadedApi(
  t: { after: (fn: () => Promise<void>) => void },
  snapshots = { relationships: true, organisations: true },
) {
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

test('the contract shape: typed nodes, customer-to-provider edges, cacheable for 30 days', async (t) => {
  const { app } = await loadedApi(t);
  const res = await call(app, '/api/asn-connectivity?asn=AS15169');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=2592000');
  const body = res.json() as Body;
  assert.deepEqual(Object.keys(body), ['origin', 'nodes', 'edges', 'relationships', 'snapshot']);
  assert.equal(body.origin, 15169);
  assert.deepEqual(body.nodes[0], { asn: 15169, type: 'origin', name: 'Google LLC' });
  assert.deepEqual(byAsn(body), [
    { asn: 1299, type: 'tier1', name: 'Arelion Sweden AB' },
    { asn: 2914, type: 'tier1', name: 'NTT America, Inc.' },
    { asn: 3356, type: 'tier1', name: 'Level 3 Parent, LLC' },
    { asn: 6453, type: 'intermediate', name: 'TATA COMMUNICATIONS (AMERICA) INC' },
    { asn: 15169, type: 'origin', name: 'Google LLC' },
  ]);
  assert.deepEqual(edgeSet(body), new Set(['15169>3356', '15169>6453', '6453>1299', '6453>2914']));
  for (const e of body.edges) assert.deepEqual(Object.keys(e), ['from', 'to']);
  assert.equal(fake.requestsTo(RIPE).length, 0);
});

test('the counts of neighbours come from the snapshot the graph is drawn from, and name its date', async (t) => {
  const { app } = await loadedApi(t);
  const google = (await call(app, '/api/asn-connectivity?asn=15169')).json() as Body & { relationships: unknown };
  const drawn = google.edges.filter((e) => e.from === 15169).length;
  assert.deepEqual(google.relationships, { upstreams: drawn, downstreams: 0, peers: 1 });
  const cloudflare = (await call(app, '/api/asn-connectivity?asn=13335')).json() as Body & {
    relationships: unknown;
    snapshot: string;
  };
  // Four providers, three drawn: 6939 leads to no Tier-1 and is pruned; the site says so under the graph.
  assert.deepEqual(cloudflare.relationships, { upstreams: 4, downstreams: 0, peers: 1 });
  // A snapshot on disk without the download's record is dated by its file.
  assert.match(cloudflare.snapshot, /^\d{4}-\d{2}-\d{2}$/);
});

test('a multi-homed AS: Tier-1 providers directly, intermediates up to their Tier-1s, a provider that leads nowhere pruned', async (t) => {
  const { app } = await loadedApi(t);
  const body = (await call(app, '/api/asn-connectivity?asn=13335')).json() as Body;
  // 6939 buys no transit but has two customers, far from a Tier-1's customer base: an intermediate with no way up, pruned.
  assert.deepEqual(
    byAsn(body).map((n) => [n.asn, n.type]),
    [
      [174, 'tier1'],
      [1299, 'tier1'],
      [3356, 'tier1'],
      [8220, 'intermediate'],
      [9002, 'intermediate'],
      [13335, 'origin'],
    ],
  );
  assert.deepEqual(
    edgeSet(body),
    new Set(['13335>174', '13335>8220', '13335>9002', '8220>174', '8220>3356', '9002>1299', '9002>3356']),
  );
});

test('a stub AS: its one provider and the Tier-1s above; RIPEstat names only the AS the local snapshot lacks, without its handle', async (t) => {
  const { app } = await loadedApi(t);
  const body = (await call(app, '/api/asn-connectivity?asn=200000')).json() as Body;
  assert.deepEqual(byAsn(body), [
    { asn: 1299, type: 'tier1', name: 'Arelion Sweden AB' },
    { asn: 3356, type: 'tier1', name: 'Level 3 Parent, LLC' },
    { asn: 9002, type: 'intermediate', name: 'RETN Limited' },
    { asn: 200000, type: 'origin', name: 'Example Hosting Ltd' },
  ]);
  assert.deepEqual(edgeSet(body), new Set(['200000>9002', '9002>1299', '9002>3356']));
  const lookups = fake.requestsTo(RIPE, OVERVIEW);
  assert.equal(lookups.length, 1);
  assert.equal(lookups[0]!.query.get('resource'), 'AS200000');
  assert.equal(lookups[0]!.query.get('sourceapp'), 'netdiag-backend');
});

test('a Tier-1 queried itself is one origin-tier1 node', async (t) => {
  const { app } = await loadedApi(t);
  const body = (await call(app, '/api/asn-connectivity?asn=174')).json() as Body & { snapshot: string };
  assert.deepEqual(body, {
    origin: 174,
    nodes: [{ asn: 174, type: 'origin-tier1', name: 'Cogent Communications' }],
    edges: [],
    relationships: { upstreams: 0, downstreams: 102, peers: 3 },
    snapshot: body.snapshot,
  });
});

test('an AS whose only upstream leads to no Tier-1 is the origin alone', async (t) => {
  const { app } = await loadedApi(t);
  const body = (await call(app, '/api/asn-connectivity?asn=208000')).json() as Body;
  assert.deepEqual(
    body.nodes.map((n) => [n.asn, n.type]),
    [[208000, 'origin']],
  );
  assert.deepEqual(body.edges, []);
});

test('an AS missing from the snapshot gives an empty graph', async (t) => {
  const { app } = await loadedApi(t);
  const res = await call(app, '/api/asn-connectivity?asn=64511');
  assert.equal(res.statusCode, 200);
  const body = res.json() as Body & { snapshot: string | null };
  // The snapshot is dated: the network is missing from the data, the server is not missing the data.
  assert.match(body.snapshot ?? '', /^\d{4}-\d{2}-\d{2}$/);
  assert.deepEqual(body, { origin: 64511, nodes: [], edges: [], relationships: null, snapshot: body.snapshot });
  assert.equal(fake.requestsTo(RIPE).length, 0);
});

test('without a snapshot: an empty graph, never an error, and not cached', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const res = await call(app, '/api/asn-connectivity?asn=13335');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.deepEqual(res.json(), { origin: 13335, nodes: [], edges: [], relationships: null, snapshot: null });
  await app.close();
});

test('without the organisation snapshot, names come from RIPEstat; a failed lookup leaves the name null', async (t) => {
  fake.on('GET', RIPE, OVERVIEW, (req, res) => {
    if (req.query.get('resource') === 'AS1299') {
      res.writeHead(500).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        status: 'ok',
        data: { holder: `HANDLE-${req.query.get('resource')} - holder of ${req.query.get('resource')}` },
      }),
    );
  });
  const { app, logs } = await loadedApi(t, { relationships: true, organisations: false });
  const res = await call(app, '/api/asn-connectivity?asn=200000');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(
    byAsn(res.json() as Body).map((n) => n.name),
    [null, 'holder of AS3356', 'holder of AS9002', 'holder of AS200000'],
  );
  assert.equal(fake.requestsTo(RIPE, OVERVIEW).length, 4);
  assert.equal(logs.find('as-overview lookup failed').length, 1);
});
