import { test, after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream, fixture, type Canned, type Handler } from '../support/fake-upstream.js';
import { FakeDns } from '../support/fake-dns.js';
import { DOH_ENDPOINTS, dohAnswer } from '../support/fake-routes/dnsresolver.js';
import { assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { queryTimeouts } from '../../routes/dnsresolver/index.js';
import { loadResolvers } from '../../routes/dnsresolver/resolvers.js';

let fake: FakeUpstream;
let dns: FakeDns;
const RESOLVERS = loadResolvers();
const UDP = RESOLVERS.filter((r) => r.udp).length;
const DOH = RESOLVERS.filter((r) => r.doh).length;

before(async () => {
  fake = await FakeUpstream.start();
  dns = await FakeDns.start();
});
after(async () => {
  await fake.close();
  await dns.close();
});
beforeEach(() => {
  fake.reset();
  dns.questions.length = 0;
  dns.delayMs = 0;
});

async function api(timeoutMs = 2000, env: Record<string, string> = {}) {
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    DNS_OVERRIDE_SERVER: dns.address,
    UPSTREAM_TIMEOUT_MS: String(timeoutMs),
    ...env,
  });
  return app;
}

/** The same reply from every DoH resolver, then per-host overrides. */
function doh(all: Canned | Handler, overrides: Record<string, Canned | Handler> = {}) {
  for (const [host, path] of DOH_ENDPOINTS) fake.on('GET', host, path, overrides[host] ?? all);
}

type Row = {
  id: string;
  provider: string;
  country: string;
  type: 'udp' | 'doh';
  result: string[] | string;
  status: string;
};
const rowsOf = (body: unknown) => (body as { results: Row[] }).results;
const A_EXAMPLE = [{ type: 'A' as const, name: 'example.com', ttl: 300, data: '93.184.215.14' }];

test('one row per provider and protocol, in list order with udp before doh, never cached', async () => {
  dns.on('example.com', 'A', { answers: A_EXAMPLE });
  doh(dohAnswer(), {
    'dns.google': { json: fixture('dns.google', 'example.com-A.json') },
    'cloudflare-dns.com': { json: fixture('cloudflare-dns.com', 'example.com-A.json') },
  });
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=Example.COM&type=a');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  const body = res.json() as { hostname: string; results: Row[] };
  assert.deepEqual(Object.keys(body), ['hostname', 'results']);
  assert.equal(body.hostname, 'example.com');
  const expectedRows = RESOLVERS.flatMap((r) => [
    ...(r.udp
      ? [
          {
            id: r.id,
            provider: r.provider,
            country: r.country,
            type: 'udp',
            result: ['93.184.215.14'],
            status: 'records',
          },
        ]
      : []),
    ...(r.doh
      ? [
          {
            id: r.id,
            provider: r.provider,
            country: r.country,
            type: 'doh',
            result: ['93.184.215.14'],
            status: 'records',
          },
        ]
      : []),
  ]);
  assert.deepEqual(body.results, expectedRows);
  assert.equal(dns.questions.length, UDP);
  assert.equal(fake.requests.length, DOH);
  const [sent] = fake.requestsTo('cloudflare-dns.com');
  assert.equal(sent?.headers.accept, 'application/dns-json');
  assert.equal(sent?.query.get('ct'), 'application/dns-json');
  assert.equal(sent?.query.get('name'), 'example.com');
  assert.equal(sent?.query.get('type'), 'A');
  assert.equal(fake.requestsTo('dns.google')[0]?.query.get('type'), 'A');
  await app.close();
});

test('TXT: every row, plain or DoH, quoted or not, gives each record once as its joined text, CNAME steps left out', async () => {
  dns.on('www.example.org', 'TXT', {
    answers: [
      { type: 'TXT', name: 'www.example.org', data: 'v=spf1 -all' },
      { type: 'TXT', name: 'www.example.org', data: ['google-site-', 'verification=abc123'] },
    ],
  });
  doh(
    { json: fixture('cloudflare-dns.com', 'www.example.org-TXT.json') },
    { 'dns.google': { json: fixture('dns.google', 'www.example.org-TXT.json') } },
  );
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=www.example.org&type=TXT');
  assert.equal(res.statusCode, 200);
  for (const row of rowsOf(res.json())) {
    assert.deepEqual(row.result, ['v=spf1 -all', 'google-site-verification=abc123'], `${row.id} ${row.type}`);
  }
  await app.close();
});

test('MX: plain DNS answers one string of "priority exchange." pairs; DoH an array of its data', async () => {
  dns.on('example.net', 'MX', {
    answers: [
      { type: 'MX', name: 'example.net', data: { preference: 10, exchange: 'mx1.example.net' } },
      { type: 'MX', name: 'example.net', data: { preference: 20, exchange: 'mx2.example.net' } },
    ],
  });
  doh(
    (_req, res) =>
      void res.writeHead(200).end(
        JSON.stringify({
          Status: 0,
          Answer: [
            { name: 'example.net.', type: 15, TTL: 60, data: '10 mx1.example.net.' },
            { name: 'example.net.', type: 15, TTL: 60, data: '20 mx2.example.net.' },
          ],
        }),
      ),
  );
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=example.net&type=mx');
  for (const row of rowsOf(res.json())) {
    const expected =
      row.type === 'udp' ? '10 mx1.example.net., 20 mx2.example.net.' : ['10 mx1.example.net.', '20 mx2.example.net.'];
    assert.deepEqual(row.result, expected, `${row.id} ${row.type}`);
  }
  await app.close();
});

test('NXDOMAIN: "N/A" over plain DNS, ["N/A"] over DoH (its answer has no Answer section), and said as nxdomain', async () => {
  doh({ json: fixture('dns.google', 'nonexistent.example-A.json') });
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=nonexistent.example&type=A');
  assert.equal(res.statusCode, 200);
  for (const row of rowsOf(res.json())) {
    assert.deepEqual(row.result, row.type === 'udp' ? 'N/A' : ['N/A'], `${row.id} ${row.type}`);
    assert.equal(row.status, 'nxdomain', `${row.id} ${row.type}`);
  }
  await app.close();
});

test('an empty answer (NODATA): "N/A" over plain DNS, ["N/A"] over DoH, said as nodata: the name exists', async () => {
  dns.on('example.com', 'AAAA', { answers: [] });
  doh({ json: { Status: 0, Question: [{ name: 'example.com.', type: 28 }] } });
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=example.com&type=AAAA');
  assert.equal(res.statusCode, 200);
  for (const row of rowsOf(res.json())) {
    assert.deepEqual(row.result, row.type === 'udp' ? 'N/A' : ['N/A'], `${row.id} ${row.type}`);
    assert.equal(row.status, 'nodata', `${row.id} ${row.type}`);
  }
  await app.close();
});

test('SERVFAIL over plain DNS is "N/A" in that row alone', async () => {
  dns.on('broken.example', 'A', { rcode: 'SERVFAIL' });
  doh(dohAnswer());
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=broken.example&type=A');
  assert.equal(res.statusCode, 200);
  for (const row of rowsOf(res.json())) {
    assert.deepEqual(row.result, row.type === 'udp' ? 'N/A' : ['93.184.215.14'], `${row.id} ${row.type}`);
    assert.equal(row.status, row.type === 'udp' ? 'failed' : 'records', `${row.id} ${row.type}`);
  }
  await app.close();
});

test('a slow DoH resolver is "N/A" at its deadline while the other rows answer', async () => {
  dns.on('example.com', 'A', { answers: A_EXAMPLE });
  doh(dohAnswer(), { 'dns.google': { hang: true } });
  const app = await api(1000);
  const res = await call(app, '/api/dnsresolver?hostname=example.com&type=A');
  assert.equal(res.statusCode, 200);
  for (const row of rowsOf(res.json())) {
    const slow = row.id === 'google' && row.type === 'doh';
    assert.deepEqual(row.result, slow ? 'N/A' : ['93.184.215.14'], `${row.id} ${row.type}`);
    assert.equal(row.status, slow ? 'failed' : 'records', `${row.id} ${row.type}`);
  }
  await app.close();
});

test('a plain DNS server that never answers is "N/A" at its deadline while the DoH rows answer', async () => {
  dns.on('example.com', 'A', { drop: true });
  doh(dohAnswer());
  const app = await api(1000);
  const res = await call(app, '/api/dnsresolver?hostname=example.com&type=A');
  assert.equal(res.statusCode, 200);
  for (const row of rowsOf(res.json())) {
    assert.deepEqual(row.result, row.type === 'udp' ? 'N/A' : ['93.184.215.14'], `${row.id} ${row.type}`);
  }
  await app.close();
});

test('identical questions in flight are asked once: 5 concurrent lookups of one name, 1 query per resolver; another name is asked apart', async () => {
  const A_OTHER = [{ type: 'A' as const, name: 'example.org', ttl: 300, data: '93.184.215.15' }];
  dns.on('example.com', 'A', { answers: A_EXAMPLE }).on('example.org', 'A', { answers: A_OTHER });
  // Slow enough that all six lookups are out together.
  dns.delayMs = 500;
  doh(dohAnswer(500));
  // All six from one client, all running at once (test/dnsresolver/client-lookups.test.ts has the cap).
  const app = await api(2000, { DNSRESOLVER_CLIENT_LOOKUPS: '6' });
  const [other, ...same] = await Promise.all([
    call(app, '/api/dnsresolver?hostname=example.org&type=A'),
    ...Array.from({ length: 5 }, () => call(app, '/api/dnsresolver?hostname=example.com&type=A')),
  ]);
  assert.equal(dns.questions.filter((q) => q.name === 'example.com').length, UDP);
  assert.equal(dns.questions.filter((q) => q.name === 'example.org').length, UDP);
  assert.equal(fake.requests.filter((r) => r.query.get('name') === 'example.com').length, DOH);
  assert.equal(fake.requests.filter((r) => r.query.get('name') === 'example.org').length, DOH);
  for (const res of same) {
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), same[0]!.json());
  }
  for (const row of rowsOf(same[0]!.json())) assert.notEqual(row.result, 'N/A', `${row.id} ${row.type}`);
  const udpRows = rowsOf(other!.json()).filter((row) => row.type === 'udp');
  assert.ok(udpRows.every((row) => JSON.stringify(row.result) === '["93.184.215.15"]'));
  await app.close();
});

test('a DoH resolver answering an error status, a non-JSON body or a dropped connection is "N/A" alone', async () => {
  dns.on('example.com', 'A', { answers: A_EXAMPLE });
  doh(dohAnswer(), {
    'dns.google': { status: 500, body: 'oops' },
    'cloudflare-dns.com': { body: '<html>not json</html>' },
    'dns.adguard.com': { destroy: true },
  });
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=example.com&type=A');
  assert.equal(res.statusCode, 200);
  const dohRows = new Map(
    rowsOf(res.json())
      .filter((r) => r.type === 'doh')
      .map((r) => [r.id, r.result]),
  );
  assert.deepEqual(Object.fromEntries(dohRows), {
    google: 'N/A',
    cloudflare: 'N/A',
    adguard: 'N/A',
    alidns: ['93.184.215.14'],
  });
  for (const row of rowsOf(res.json()).filter((r) => r.type === 'udp')) {
    assert.deepEqual(row.result, ['93.184.215.14'], row.id);
  }
  await app.close();
});

test("each query's deadline is the contract's 3 s (UDP) and 5 s (DoH), lowered by a lower upstream timeout", () => {
  assert.deepEqual(queryTimeouts(8000), { udpMs: 3000, dohMs: 5000 });
  assert.deepEqual(queryTimeouts(4000), { udpMs: 3000, dohMs: 4000 });
  assert.deepEqual(queryTimeouts(300), { udpMs: 300, dohMs: 300 });
});

test('the guards answer 400 with their exact strings before any resolver is asked', async () => {
  const app = await api();
  const cases: Array<[string, string]> = [
    ['/api/dnsresolver?type=A', 'No domain provided'],
    ['/api/dnsresolver?hostname=&type=A', 'No domain provided'],
    ['/api/dnsresolver?hostname=not_valid..example&type=A', 'Invalid domain'],
    ['/api/dnsresolver?hostname=example.com', 'No record type provided'],
    ['/api/dnsresolver?hostname=example.com&type=ANY', 'Invalid record type'],
    ['/api/dnsresolver?hostname=example.com&type=AXFR', 'Invalid record type'],
  ];
  await assertGuardErrors(app, cases);
  assert.equal(fake.requests.length + dns.questions.length, 0);
  await app.close();
});
