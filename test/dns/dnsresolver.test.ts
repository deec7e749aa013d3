import { test, after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream, fixture, type Canned, type Handler } from '../support/fake-upstream.js';
import { FakeDns } from '../support/fake-dns.js';
import { DOH_ENDPOINTS, dohAnswer } from '../support/fake-routes/dnsresolver.js';
import { assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { loadResolvers } from '../../routes/dnsresolver/index.js';

let fake: FakeUpstream;
let dns: FakeDns;
const RESOLVERS = loadResolvers();
const PLAIN = RESOLVERS.filter((r) => r.kind === 'dns').length;
const DOH = RESOLVERS.length - PLAIN;

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

async function api(timeoutMs = 2000) {
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    DNS_OVERRIDE_SERVER: dns.address,
    UPSTREAM_TIMEOUT_MS: String(timeoutMs),
  });
  return app;
}

/** The same reply from every DoH resolver, then per-host overrides. */
function doh(all: Canned | Handler, overrides: Record<string, Canned | Handler> = {}) {
  for (const [host, path] of DOH_ENDPOINTS) fake.on('GET', host, path, overrides[host] ?? all);
}

type Result = { resolver: string; kind: string; server: string; status: string; answers: string[]; ttl?: number; error?: string; ms: number };

test('every resolver answers in its own entry, answers normalised, never cached', async () => {
  dns.on('example.com', 'A', { answers: [{ type: 'A', name: 'example.com', ttl: 300, data: '93.184.215.14' }] });
  doh(dohAnswer(), {
    'dns.google': { json: fixture('dns.google', 'example.com-A.json') },
    'cloudflare-dns.com': { json: fixture('cloudflare-dns.com', 'example.com-A.json') },
  });
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=Example.COM&type=a');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  const body = res.json() as { hostname: string; type: string; results: Result[] };
  assert.equal(body.hostname, 'example.com');
  assert.equal(body.type, 'A');
  assert.deepEqual(
    body.results.map((r) => r.resolver),
    RESOLVERS.map((r) => r.name),
  );
  for (const r of body.results) {
    assert.equal(r.status, 'ok', r.resolver);
    assert.deepEqual(r.answers, ['93.184.215.14'], r.resolver);
    assert.ok(Number.isInteger(r.ms));
  }
  const google = body.results.find((r) => r.resolver === 'Google');
  assert.deepEqual({ ...google, ms: 0 }, { resolver: 'Google', kind: 'dns', server: '8.8.8.8', status: 'ok', answers: ['93.184.215.14'], ttl: 300, ms: 0 });
  const googleDoh = body.results.find((r) => r.resolver === 'Google DoH');
  assert.equal(googleDoh?.kind, 'doh');
  assert.equal(googleDoh?.server, 'https://dns.google/resolve');
  assert.equal(googleDoh?.ttl, 2853);
  assert.equal(dns.questions.length, PLAIN);
  const sent = fake.requestsTo('cloudflare-dns.com')[0];
  assert.equal(sent?.headers.accept, 'application/dns-json');
  assert.equal(sent?.query.get('name'), 'example.com');
  assert.equal(sent?.query.get('type'), 'A');
  assert.equal(fake.requests.length, DOH);
  await app.close();
});

test('TXT answers read the same from plain DNS, unquoted DoH and quoted, chunked DoH; CNAME steps are dropped', async () => {
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
  for (const r of res.json().results as Result[]) {
    assert.deepEqual(r.answers, ['v=spf1 -all', 'google-site-verification=abc123'], r.resolver);
  }
  await app.close();
});

test('CAA answers agree whether the DoH server sends text or RFC 3597 hex', async () => {
  dns.on('example.com', 'CAA', { answers: [{ type: 'CAA', name: 'example.com', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } }] });
  doh(
    { json: fixture('cloudflare-dns.com', 'example.com-CAA.json') },
    { 'dns.google': { json: fixture('dns.google', 'example.com-CAA.json') } },
  );
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=example.com&type=caa');
  for (const r of res.json().results as Result[]) assert.deepEqual(r.answers, ['0 issue "letsencrypt.org"'], r.resolver);
  await app.close();
});

test('MX and SOA answers take one zone-file form across both kinds', async () => {
  dns.on('example.net', 'MX', { answers: [{ type: 'MX', name: 'example.net', data: { preference: 10, exchange: 'Mail.Example.net' } }] });
  dns.on('example.net', 'SOA', {
    answers: [
      {
        type: 'SOA',
        name: 'example.net',
        data: { mname: 'ns.icann.org', rname: 'noc.dns.icann.org', serial: 2024081464, refresh: 7200, retry: 3600, expire: 1209600, minimum: 3600 },
      },
    ],
  });
  const answer = (type: number, data: string): Handler => (_req, res) =>
    void res.writeHead(200).end(JSON.stringify({ Status: 0, Answer: [{ name: 'example.net.', type, TTL: 60, data }] }));
  const app = await api();
  doh(answer(15, '10 mail.example.net.'));
  let res = await call(app, '/api/dnsresolver?hostname=example.net&type=MX');
  for (const r of res.json().results as Result[]) assert.deepEqual(r.answers, ['10 mail.example.net'], r.resolver);
  fake.reset();
  doh(answer(6, 'ns.icann.org. noc.dns.icann.org. 2024081464 7200 3600 1209600 3600'));
  res = await call(app, '/api/dnsresolver?hostname=example.net&type=SOA');
  for (const r of res.json().results as Result[]) {
    assert.deepEqual(r.answers, ['ns.icann.org noc.dns.icann.org 2024081464 7200 3600 1209600 3600'], r.resolver);
  }
  await app.close();
});

test('NXDOMAIN, SERVFAIL and an empty answer are reported per resolver', async () => {
  const app = await api();
  doh({ json: fixture('dns.google', 'nonexistent.example-A.json') });
  let res = await call(app, '/api/dnsresolver?hostname=nonexistent.example&type=A');
  assert.equal(res.statusCode, 200);
  for (const r of res.json().results as Result[]) {
    assert.equal(r.status, 'error', r.resolver);
    assert.equal(r.error, 'NXDOMAIN', r.resolver);
    assert.deepEqual(r.answers, []);
  }
  fake.reset();
  dns.on('broken.example', 'A', { rcode: 'SERVFAIL' });
  doh({ json: { Status: 2, Question: [{ name: 'broken.example.', type: 1 }] } });
  res = await call(app, '/api/dnsresolver?hostname=broken.example&type=A');
  for (const r of res.json().results as Result[]) assert.equal(r.error, 'SERVFAIL', r.resolver);
  fake.reset();
  dns.on('example.com', 'AAAA', { answers: [] });
  doh({ json: { Status: 0, Question: [{ name: 'example.com.', type: 28 }] } });
  res = await call(app, '/api/dnsresolver?hostname=example.com&type=AAAA');
  for (const r of res.json().results as Result[]) {
    assert.equal(r.status, 'ok', r.resolver);
    assert.deepEqual(r.answers, [], r.resolver);
  }
  await app.close();
});

test('a slow DoH resolver times out in its own entry while the others answer', async () => {
  dns.on('example.com', 'A', { answers: [{ type: 'A', name: 'example.com', ttl: 60, data: '93.184.215.14' }] });
  doh(dohAnswer(), { 'dns.google': { hang: true } });
  const app = await api(300);
  const res = await call(app, '/api/dnsresolver?hostname=example.com&type=A');
  assert.equal(res.statusCode, 200);
  const results = res.json().results as Result[];
  const slow = results.find((r) => r.resolver === 'Google DoH');
  assert.equal(slow?.status, 'error');
  assert.equal(slow?.error, 'Timeout');
  assert.deepEqual(slow?.answers, []);
  const others = results.filter((r) => r.resolver !== 'Google DoH');
  assert.equal(others.length, RESOLVERS.length - 1);
  for (const r of others) assert.deepEqual([r.status, r.answers], ['ok', ['93.184.215.14']], r.resolver);
  await app.close();
});

test('a plain DNS server that never answers times out while the DoH resolvers answer', async () => {
  dns.on('example.com', 'A', { drop: true });
  doh(dohAnswer());
  const app = await api(300);
  const res = await call(app, '/api/dnsresolver?hostname=example.com&type=A');
  assert.equal(res.statusCode, 200);
  for (const r of res.json().results as Result[]) {
    if (r.kind === 'dns') assert.deepEqual([r.status, r.error], ['error', 'Timeout'], r.resolver);
    else assert.deepEqual([r.status, r.answers], ['ok', ['93.184.215.14']], r.resolver);
  }
  await app.close();
});

test('a DoH resolver answering an error status, a non-JSON body or a dropped connection fails alone', async () => {
  dns.on('example.com', 'A', { answers: [{ type: 'A', name: 'example.com', ttl: 60, data: '93.184.215.14' }] });
  doh(dohAnswer(), {
    'dns.google': { status: 500, body: 'oops' },
    'cloudflare-dns.com': { body: '<html>not json</html>' },
    'dns.adguard-dns.com': { destroy: true },
  });
  const app = await api();
  const res = await call(app, '/api/dnsresolver?hostname=example.com&type=A');
  assert.equal(res.statusCode, 200);
  const byName = new Map((res.json().results as Result[]).map((r) => [r.resolver, r]));
  assert.equal(byName.get('Google DoH')?.error, 'HTTP 500');
  assert.equal(byName.get('Cloudflare DoH')?.error, 'Malformed answer');
  assert.equal(byName.get('AdGuard DoH')?.error, 'Unreachable');
  assert.deepEqual(byName.get('AliDNS DoH')?.answers, ['93.184.215.14']);
  assert.deepEqual(byName.get('Quad9')?.answers, ['93.184.215.14']);
  await app.close();
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
