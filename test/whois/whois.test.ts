import { test, after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream, fixture } from '../support/fake-upstream.js';
import { FakeWhois } from '../support/fake-whois.js';
import { assertGuardErrors, buildTestApi, call } from '../support/app.js';
import { INVALID_QUERY, LOOKUP_FAILED, NOT_PUBLIC, NO_TLD_SERVER } from '../../routes/whois/index.js';
import { WHOIS_MAX_BYTES } from '../../routes/whois/port43.js';

let fake: FakeUpstream;
let whois: FakeWhois;

before(async () => {
  fake = await FakeUpstream.start();
  whois = await FakeWhois.start();
});
after(async () => {
  await fake.close();
  await whois.close();
});
beforeEach(() => {
  fake.reset();
  whois.queries.length = 0;
});

async function api(timeoutMs = 2000) {
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    WHOIS_OVERRIDE_SERVER: whois.address,
    UPSTREAM_TIMEOUT_MS: String(timeoutMs),
  });
  return app;
}

const RIPE_IP = fixture('rdap.db.ripe.net', 'ip-193.0.6.139.json') as Record<string, unknown>;
const RIPE_WHOIS = fixture('whois.ripe.net', '193.0.6.139.txt') as string;

test('an IP is answered from the RDAP server the bootstrap table names, cacheable for a day', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { json: RIPE_IP });
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  assert.deepEqual(res.json(), { query: '193.0.6.139', type: 'ip', source: 'rdap', server: 'rdap.db.ripe.net', rdap: RIPE_IP });
  const [sent] = fake.requestsTo('rdap.db.ripe.net');
  assert.equal(sent?.headers.accept, 'application/rdap+json');
  assert.equal(whois.queries.length, 0);
  await app.close();
});

test('an IPv6 address is normalised and sent to its registry', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/2001:67c:2e8:22::c100:68b', { json: { objectClassName: 'ip network', handle: '2001:67c:2e8::/48' } });
  const app = await api();
  const res = await call(app, '/api/whois?q=2001:067C:2E8:22:0:0:C100:68B');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().query, '2001:67c:2e8:22::c100:68b');
  assert.equal(res.json().rdap.handle, '2001:67c:2e8::/48');
  await app.close();
});

test('a registry referral is followed when it points at a bootstrap server', async () => {
  fake.on('GET', 'rdap.arin.net', '/registry/ip/8.8.4.4', { status: 302, headers: { location: 'https://rdap.db.ripe.net/ip/8.8.4.4' } });
  fake.on('GET', 'rdap.db.ripe.net', '/ip/8.8.4.4', { json: RIPE_IP });
  const app = await api();
  const res = await call(app, '/api/whois?q=8.8.4.4');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().source, 'rdap');
  assert.equal(res.json().server, 'rdap.db.ripe.net');
  await app.close();
});

test('a referral to a server outside the bootstrap files is not followed; WHOIS answers instead', async () => {
  fake.on('GET', 'rdap.arin.net', '/registry/ip/8.8.8.8', { status: 302, headers: { location: 'https://attacker.example/ip/8.8.8.8' } });
  whois.on('8.8.8.8', 'NetRange:       8.8.8.0 - 8.8.8.255\r\nOrgName:        Google LLC\r\n');
  const app = await api();
  const res = await call(app, '/api/whois?q=8.8.8.8');
  assert.equal(res.statusCode, 200);
  assert.equal(fake.requestsTo('attacker.example').length, 0);
  assert.deepEqual(res.json(), {
    query: '8.8.8.8',
    type: 'ip',
    source: 'whois',
    server: 'whois.arin.net',
    whois: 'NetRange:       8.8.8.0 - 8.8.8.255\r\nOrgName:        Google LLC\r\n',
    truncated: false,
  });
  await app.close();
});

test('an RDAP failure for an IP falls back to the registry WHOIS server', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { status: 503, body: 'maintenance' });
  whois.on('193.0.6.139', RIPE_WHOIS);
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().source, 'whois');
  assert.equal(res.json().server, 'whois.ripe.net');
  assert.equal(res.json().whois, RIPE_WHOIS);
  assert.equal(res.json().rdap, undefined);
  assert.deepEqual(whois.queries, ['193.0.6.139']);
  await app.close();
});

test('an address outside every bootstrap block is asked of the WHOIS server IANA refers to', async () => {
  // WHOIS_OVERRIDE_SERVER sends both the IANA query and the registry query here, so both get this text.
  const text = '% IANA WHOIS server\r\n\r\nrefer:        whois.lacnic.net\r\n\r\ninet6num:     2001:1000:0:0:0:0:0:0/23\r\n';
  whois.on('2001:1000::1', text);
  const app = await api();
  const res = await call(app, '/api/whois?q=2001:1000::1');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { query: '2001:1000::1', type: 'ip', source: 'whois', server: 'whois.lacnic.net', whois: text, truncated: false });
  assert.deepEqual(whois.queries, ['2001:1000::1', '2001:1000::1']);
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('an RDAP answer over the size cap is dropped for WHOIS', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { body: `{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}` });
  whois.on('193.0.6.139', RIPE_WHOIS);
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().source, 'whois');
  await app.close();
});

test('a domain whose TLD has an RDAP server is answered by RDAP', async () => {
  const domain = fixture('rdap.verisign.com', 'domain-example.com.json');
  fake.on('GET', 'rdap.verisign.com', '/com/v1/domain/example.com', { json: domain });
  const app = await api();
  const res = await call(app, '/api/whois?q=Example.COM');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  assert.deepEqual(res.json(), { query: 'example.com', type: 'domain', source: 'rdap', server: 'rdap.verisign.com', rdap: domain });
  await app.close();
});

test('a domain whose RDAP server fails falls back to the WHOIS server IANA names', async () => {
  fake.on('GET', 'rdap.verisign.com', '/com/v1/domain/example.com', { destroy: true });
  whois.on('com', fixture('whois.iana.org', 'com.txt') as string);
  whois.on('example.com', 'Domain Name: EXAMPLE.COM\r\nRegistry Domain ID: 2336799_DOMAIN_COM-VRSN\r\n');
  const app = await api();
  const res = await call(app, '/api/whois?q=example.com');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().source, 'whois');
  assert.equal(res.json().server, 'whois.verisign-grs.com');
  assert.deepEqual(whois.queries, ['com', 'example.com']);
  await app.close();
});

test('a domain without RDAP goes to its TLD WHOIS server; the IANA referral is cached', async () => {
  whois.on('de', fixture('whois.iana.org', 'de.txt') as string);
  const text = fixture('whois.denic.de', 'example.de.txt') as string;
  whois.on('example.de', text);
  whois.on('example2.de', text);
  const app = await api();
  const first = await call(app, '/api/whois?q=example.de');
  assert.equal(first.statusCode, 200);
  assert.deepEqual(first.json(), { query: 'example.de', type: 'domain', source: 'whois', server: 'whois.denic.de', whois: text, truncated: false });
  const second = await call(app, '/api/whois?q=example2.de');
  assert.equal(second.statusCode, 200);
  assert.deepEqual(whois.queries, ['de', 'example.de', 'example2.de']);
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('a TLD with neither RDAP nor WHOIS answers 404, not cacheable', async () => {
  whois.on('zz', fixture('whois.iana.org', 'not-found.txt') as string);
  whois.on('exampletld', fixture('whois.iana.org', 'no-server.txt') as string);
  const app = await api();
  for (const q of ['example.zz', 'nic.exampletld']) {
    const res = await call(app, `/api/whois?q=${q}`);
    assert.equal(res.statusCode, 404, q);
    assert.deepEqual(res.json(), { error: NO_TLD_SERVER });
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  await app.close();
});

test('invalid or missing input answers 400 with the invalid-query string', async () => {
  const app = await api();
  const urls = ['/api/whois', '/api/whois?q=', '/api/whois?q=%20', '/api/whois?q=not_a..domain', '/api/whois?q=localhost', '/api/whois?q=1.2.3', '/api/whois?q=a.com&q=b.com', '/api/whois?q=http://example.com/'];
  await assertGuardErrors(app, urls.map((url) => [url, INVALID_QUERY] as const));
  assert.equal(fake.requests.length + whois.queries.length, 0);
  await app.close();
});

test('reserved address space answers 400 Not a public IP address', async () => {
  const app = await api();
  const ips = ['10.0.0.1', '192.168.1.1', '127.0.0.1', '100.64.0.1', '169.254.1.1', '192.0.2.1', '224.0.0.1', '::1', 'fe80::1', 'fc00::1', '2001:db8::1'];
  await assertGuardErrors(app, ips.map((ip) => [`/api/whois?q=${encodeURIComponent(ip)}`, NOT_PUBLIC] as const));
  assert.equal(fake.requests.length + whois.queries.length, 0);
  await app.close();
});

test('a WHOIS server that floods a megabyte is cut off at the size cap', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { status: 500 });
  whois.on('193.0.6.139', { text: 'inetnum: 193.0.0.0 - 193.0.7.255\r\n', flood: 1024 * 1024 });
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.truncated, true);
  assert.ok(body.whois.startsWith('inetnum: 193.0.0.0'));
  assert.ok(Buffer.byteLength(body.whois) <= WHOIS_MAX_BYTES);
  assert.ok(Buffer.byteLength(body.whois) > WHOIS_MAX_BYTES - 1024);
  await app.close();
});

test('a WHOIS server that never closes is cut off at the upstream timeout, keeping what it sent', async () => {
  whois.on('de', fixture('whois.iana.org', 'de.txt') as string);
  whois.on('slow.de', { text: 'Domain: slow.de\r\nStatus: connect\r\n', hang: true });
  const app = await api(300);
  const res = await call(app, '/api/whois?q=slow.de');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().whois, 'Domain: slow.de\r\nStatus: connect\r\n');
  assert.equal(res.json().truncated, true);
  await app.close();
});

test('RDAP and a silent WHOIS server both failing answer 502, not cacheable', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { status: 500 });
  whois.on('193.0.6.139', { hang: true });
  const app = await api(300);
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 502);
  assert.deepEqual(res.json(), { error: LOOKUP_FAILED });
  assert.equal(res.headers['cache-control'], 'no-store');
  await app.close();
});

test('an unreachable IANA referral server answers 502 for a WHOIS-only TLD', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, WHOIS_OVERRIDE_SERVER: '127.0.0.1:1', UPSTREAM_TIMEOUT_MS: '2000' });
  const res = await call(app, '/api/whois?q=example.de');
  assert.equal(res.statusCode, 502);
  assert.deepEqual(res.json(), { error: LOOKUP_FAILED });
  await app.close();
});

test('the start-up step refreshes the bootstrap tables from IANA', async () => {
  for (const file of ['dns', 'ipv4', 'ipv6']) fake.on('GET', 'data.iana.org', `/rdap/${file}.json`, { json: fixture('data.iana.org', `${file}.json`) });
  fake.on('GET', 'rdap.denic.de', '/domain/example.de', { json: { objectClassName: 'domain', ldhName: 'example.de' } });
  const app = await api();
  await app.lifecycle.boot();
  for (let i = 0; i < 200 && fake.requestsTo('data.iana.org').length < 3; i++) await new Promise((r) => setTimeout(r, 10));
  // The refreshed dns.json lists .de; the shipped copy does not.
  let res = await call(app, '/api/whois?q=example.de');
  for (let i = 0; i < 100 && res.json().source !== 'rdap'; i++) {
    await new Promise((r) => setTimeout(r, 10));
    res = await call(app, '/api/whois?q=example.de');
  }
  assert.equal(res.json().source, 'rdap');
  assert.equal(res.json().server, 'rdap.denic.de');
  await app.close();
});
