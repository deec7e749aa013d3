import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { FakeDns } from '../support/fake-dns.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { buildTestApi, call } from '../support/app.js';
import { Upstream } from '../../lib/upstream.js';

// Issue 32, item 3: the 8 s deadline covers name resolution. Upstream calls go
// to a loopback origin named by a host name (UPSTREAM_OVERRIDE_ORIGIN), which
// the app resolves through DNS_OVERRIDE_SERVER: a real UDP server on loopback
// that never answers for that name, or answers and counts the questions.

const fake = fakeUpstreamPerFile();
const NAME = 'upstream.resolve.test';
// The spec's 8 s, and room for a busy machine; before the fix the same routes
// took 9–10.5 s, their lookup stuck in libuv's thread pool past every abort.
const DEADLINE_MS = 8000;
const MARGIN_MS = 1500;

async function fakeDns(t: TestContext): Promise<FakeDns> {
  const dns = await FakeDns.start();
  t.after(() => dns.close());
  return dns;
}

const namedOrigin = () => fake.origin.replace('127.0.0.1', NAME);
const asked = (dns: FakeDns) => dns.questions.filter((q) => q.name === NAME).length;

test("routes whose upstream's name never resolves answer their failure within the 8 s deadline", async (t) => {
  const dns = await fakeDns(t);
  dns.on(NAME, 'A', { drop: true }).on(NAME, 'AAAA', { drop: true });
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: namedOrigin(),
    DNS_OVERRIDE_SERVER: dns.address,
    RADAR_API_KEY: 'radar-key',
    REPO_STARS_REPOSITORY: 'o/r',
  });
  t.after(() => app.close());
  // The upstream-only routes answer their failure; dnsresolver its plain-DNS rows, its DoH rows failed.
  const expected: Record<string, number> = {
    '/api/repo-stars': 500,
    '/api/asn-radar?view=asn&asn=15169': 500,
    '/api/asn-radar?view=outages': 500,
    '/api/dnsresolver?hostname=example.com&type=A': 200,
  };
  const answers = await Promise.all(
    Object.keys(expected).map(async (url) => {
      const started = performance.now();
      const res = await call(app, url);
      return { url, res, elapsed: performance.now() - started };
    }),
  );
  for (const { url, res, elapsed } of answers) {
    assert.ok(elapsed < DEADLINE_MS + MARGIN_MS, `${url} answered after ${Math.round(elapsed)} ms`);
    assert.equal(res.statusCode, expected[url], url);
    if (res.statusCode === 500) assert.deepEqual(Object.keys(res.json()), ['error'], url);
  }
  // The name was asked of the configured resolver, not the system's, and no request reached the upstream.
  assert.ok(asked(dns) >= 2, `${asked(dns)} questions`);
  assert.equal(fake.requests.length, 0);
});

test('a call with a shorter timeout ends with it, its lookup included', async (t) => {
  const dns = await fakeDns(t);
  dns.on(NAME, 'A', { drop: true }).on(NAME, 'AAAA', { drop: true });
  const upstream = new Upstream({
    timeoutMs: 8000,
    siteUrl: '',
    overrideOrigin: namedOrigin(),
    dnsServer: dns.address,
  });
  t.after(() => upstream.close());
  const started = performance.now();
  await assert.rejects(upstream.json('https://api.example/v', { timeoutMs: 300 }), { name: 'AbortError' });
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 250 && elapsed < 1500, `ended after ${Math.round(elapsed)} ms`);
});

test('repeated calls to one upstream ask its name once, and each reaches the upstream', async (t) => {
  const dns = await fakeDns(t);
  dns.on(NAME, 'A', { answers: [{ type: 'A', name: NAME, ttl: 300, data: '127.0.0.1' }] });
  fake.on('GET', 'api.github.com', '/repos/o/r', { json: { stargazers_count: 42 } });
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: namedOrigin(),
    DNS_OVERRIDE_SERVER: dns.address,
    REPO_STARS_REPOSITORY: 'o/r',
  });
  t.after(() => app.close());
  for (let i = 0; i < 3; i++) {
    const res = await call(app, '/api/repo-stars');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { stars: 42 });
  }
  const upstream = app.upstream;
  await Promise.all(Array.from({ length: 5 }, () => upstream.okJson('https://api.github.com/repos/o/r')));
  assert.ok(fake.requestsTo('api.github.com', '/repos/o/r').length >= 6);
  // One question per record type, A and AAAA, for every call together.
  assert.equal(asked(dns), 2);
});

test("WHOIS servers' names resolve through the same resolver and cache", async (t) => {
  const dns = await fakeDns(t);
  // Not a public address: the referral step refuses it, so nothing connects outside loopback.
  dns.on('whois.iana.org', 'A', { answers: [{ type: 'A', name: 'whois.iana.org', ttl: 300, data: '10.0.0.1' }] });
  const { app, logs } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, DNS_OVERRIDE_SERVER: dns.address });
  t.after(() => app.close());
  for (const q of ['example.com', 'example.net', 'example.org']) {
    const res = await call(app, `/api/whois?q=${q}`);
    // RDAP, the fallback, finds nothing on the fake upstream.
    assert.equal(res.statusCode, 404, q);
  }
  assert.equal(dns.questions.filter((q) => q.name === 'whois.iana.org').length, 2);
  // Each query's referral step met the cached answer, and refused it.
  const refused = logs.lines.filter((l) => JSON.stringify(l).includes('Refused whois.iana.org: resolves to 10.0.0.1'));
  assert.equal(refused.length, 3);
});
