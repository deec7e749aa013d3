import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { fakeUpstreamPerFile, fakeWhoisPerFile } from '../support/fake-upstream-per-file.js';
import { assertErrorAnswer, assertGuardErrors, buildTestApi, call } from '../support/app.js';
import {
  INVALID_QUERY,
  LOOKUP_FAILED,
  NOT_FOUND,
  NOT_PUBLIC,
  NO_QUERY,
  noTldServer,
} from '../../routes/whois/index.js';
import { WHOIS_MAX_BYTES } from '../../routes/whois/port43.js';
import { domainText, ipNetworkText } from '../../routes/whois/rdap-text.js';
import { until } from '../support/until.js';

const fake = fakeUpstreamPerFile();
const whois = fakeWhoisPerFile();

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
const IANA_COM = fixture('whois.iana.org', 'com.txt') as string;
const GOOGLE_REGISTRY = fixture('whois.verisign-grs.com', 'google.com.txt') as string;
const GOOGLE_REGISTRAR = fixture('whois.markmonitor.com', 'google.com.txt') as string;
const EXAMPLE_COM_RDAP = fixture('rdap.verisign.com', 'domain-example.com.json') as Record<string, unknown>;

// --- IP addresses: RDAP first, top-level __raw ---

test('an IP is answered from the RDAP server the bootstrap table names: its JSON with a top-level __raw, cacheable for a day', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { json: RIPE_IP });
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  const body = res.json();
  assert.deepEqual(body, { ...RIPE_IP, __raw: ipNetworkText(RIPE_IP) });
  assert.equal(typeof body.__raw, 'string');
  assert.ok(body.__raw.startsWith('NetRange: 193.0.0.0 - 193.0.7.255\nCIDR: 193.0.0.0/21\nNetName: RIPE-NCC\n'));
  const [sent] = fake.requestsTo('rdap.db.ripe.net');
  assert.equal(sent?.headers.accept, 'application/rdap+json');
  assert.equal(whois.queries.length, 0);
  await app.close();
});

test('an IPv6 address is normalised and sent to its registry', async () => {
  const network = {
    objectClassName: 'ip network',
    handle: '2001:67c:2e8::/48',
    startAddress: '2001:67c:2e8::',
    endAddress: '2001:67c:2e8:ffff:ffff:ffff:ffff:ffff',
  };
  fake.on('GET', 'rdap.db.ripe.net', '/ip/2001:67c:2e8:22::c100:68b', { json: network });
  const app = await api();
  const res = await call(app, '/api/whois?q=2001:067C:2E8:22:0:0:C100:68B');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().handle, '2001:67c:2e8::/48');
  assert.equal(
    res.json().__raw,
    'NetRange: 2001:67c:2e8:: - 2001:67c:2e8:ffff:ffff:ffff:ffff:ffff\nHandle: 2001:67c:2e8::/48',
  );
  await app.close();
});

test('a registry referral is followed when it points at a bootstrap server', async () => {
  fake.on('GET', 'rdap.arin.net', '/registry/ip/8.8.4.4', {
    status: 302,
    headers: { location: 'https://rdap.db.ripe.net/ip/8.8.4.4' },
  });
  fake.on('GET', 'rdap.db.ripe.net', '/ip/8.8.4.4', { json: RIPE_IP });
  const app = await api();
  const res = await call(app, '/api/whois?q=8.8.4.4');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().__raw, ipNetworkText(RIPE_IP));
  assert.equal(fake.requestsTo('rdap.db.ripe.net').length, 1);
  await app.close();
});

test('a referral to a server outside the bootstrap files is not followed; WHOIS answers with its text in __raw', async () => {
  fake.on('GET', 'rdap.arin.net', '/registry/ip/8.8.8.8', {
    status: 302,
    headers: { location: 'https://attacker.example/ip/8.8.8.8' },
  });
  const text = 'NetRange:       8.8.8.0 - 8.8.8.255\r\nOrgName:        Google LLC\r\n';
  whois.on('8.8.8.8', text);
  const app = await api();
  const res = await call(app, '/api/whois?q=8.8.8.8');
  assert.equal(res.statusCode, 200);
  assert.equal(fake.requestsTo('attacker.example').length, 0);
  assert.deepEqual(res.json(), { NetRange: '8.8.8.0 - 8.8.8.255', OrgName: 'Google LLC', __raw: text });
  await app.close();
});

test('an RDAP failure for an IP falls back to the registry WHOIS server: fields and __raw at the top level', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { status: 503, body: 'maintenance' });
  whois.on('193.0.6.139', RIPE_WHOIS);
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.__raw, RIPE_WHOIS);
  assert.equal(body.inetnum, '193.0.0.0 - 193.0.7.255');
  assert.deepEqual(body.descr, ['RIPE Network Coordination Centre', 'Amsterdam, Netherlands']);
  assert.equal(body.objectClassName, undefined);
  assert.deepEqual(whois.queries, ['193.0.6.139']);
  await app.close();
});

test('an RDAP network object without any network field counts as no answer: WHOIS is asked', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { json: { objectClassName: 'ip network' } });
  whois.on('193.0.6.139', RIPE_WHOIS);
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().__raw, RIPE_WHOIS);
  await app.close();
});

test('an address outside every bootstrap block is asked of the WHOIS server IANA refers to', async () => {
  // WHOIS_OVERRIDE_SERVER sends both the IANA query and the registry query here, so both get this text.
  const text =
    '% IANA WHOIS server\r\n\r\nrefer:        whois.lacnic.net\r\n\r\ninet6num:     2001:1000:0:0:0:0:0:0/23\r\n';
  whois.on('2001:1000::1', text);
  const app = await api();
  const res = await call(app, '/api/whois?q=2001:1000::1');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { refer: 'whois.lacnic.net', inet6num: '2001:1000:0:0:0:0:0:0/23', __raw: text });
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
  assert.equal(res.json().__raw, RIPE_WHOIS);
  await app.close();
});

test('an address the registry does not hold, with no WHOIS text either, answers 404 (no registry data)', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { status: 404, json: { errorCode: 404, title: 'Not Found' } });
  whois.on('193.0.6.139', '\r\n');
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assertErrorAnswer(res, 404, NOT_FOUND);
  await app.close();
});

// --- Domains: registry WHOIS, then the registrar's, RDAP when WHOIS gave no text ---

test('a domain is answered by its registry over port 43 and then by the registrar it names, one key per server', async () => {
  whois.on('com', IANA_COM);
  whois.on('domain google.com', GOOGLE_REGISTRY);
  whois.on('google.com', GOOGLE_REGISTRAR);
  const app = await api();
  const res = await call(app, '/api/whois?q=Google.COM');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=86400');
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['whois.verisign-grs.com', 'whois.markmonitor.com']);
  assert.equal(body['whois.verisign-grs.com'].__raw, GOOGLE_REGISTRY);
  assert.equal(body['whois.verisign-grs.com']['Registrar WHOIS Server'], 'whois.markmonitor.com');
  assert.deepEqual(body['whois.verisign-grs.com']['Name Server'], [
    'NS1.GOOGLE.COM',
    'NS2.GOOGLE.COM',
    'NS3.GOOGLE.COM',
    'NS4.GOOGLE.COM',
  ]);
  assert.equal(body['whois.markmonitor.com'].__raw, GOOGLE_REGISTRAR);
  assert.equal(body['whois.markmonitor.com']['Registrant Organization'], 'Google LLC');
  // IANA for the TLD, Verisign with its "domain" keyword, the registrar with the bare name; no RDAP.
  assert.deepEqual(whois.queries, ['com', 'domain google.com', 'google.com']);
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('a registrar that does not answer leaves the registry key alone', async () => {
  whois.on('com', IANA_COM);
  whois.on('domain google.com', GOOGLE_REGISTRY);
  whois.on('google.com', { hang: true });
  const app = await api(1000);
  const res = await call(app, '/api/whois?q=google.com');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(Object.keys(res.json()), ['whois.verisign-grs.com']);
  await app.close();
});

test('a registrar line that is not a port-43 host name, or names the registry itself, is not followed', async () => {
  for (const line of [
    'Registrar WHOIS Server: https://whois.example-registrar.com/lookup',
    'Registrar WHOIS Server: whois.verisign-grs.com',
    'Registrar WHOIS Server: localhost',
  ]) {
    whois.reset();
    whois.on('com', IANA_COM);
    whois.on('domain example.com', `   Domain Name: EXAMPLE.COM\r\n   ${line}\r\n`);
    // A fresh app for each line: the same question's answer would be the one kept.
    const app = await api();
    const res = await call(app, '/api/whois?q=example.com');
    assert.equal(res.statusCode, 200, line);
    assert.deepEqual(Object.keys(res.json()), ['whois.verisign-grs.com'], line);
    assert.deepEqual(
      whois.queries.filter((q) => q !== 'com'),
      ['domain example.com'],
      line,
    );
    await app.close();
  }
});

test('a domain without RDAP goes to its TLD WHOIS server; the IANA referral is cached', async () => {
  whois.on('de', fixture('whois.iana.org', 'de.txt') as string);
  const text = fixture('whois.denic.de', 'example.de.txt') as string;
  whois.on('example.de', text);
  whois.on('example2.de', text);
  const app = await api();
  const first = await call(app, '/api/whois?q=example.de');
  assert.equal(first.statusCode, 200);
  assert.deepEqual(first.json(), {
    'whois.denic.de': {
      Domain: 'example.de',
      Nserver: ['a.iana-servers.net', 'b.iana-servers.net'],
      Status: 'connect',
      Changed: '2018-03-12T21:44:25+01:00',
      __raw: text,
    },
  });
  const second = await call(app, '/api/whois?q=example2.de');
  assert.equal(second.statusCode, 200);
  assert.deepEqual(whois.queries, ['de', 'example.de', 'example2.de']);
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('a registry WHOIS server that is down sends the domain to RDAP: the RDAP server as the key, __raw built from the JSON', async () => {
  fake.on('GET', 'rdap.verisign.com', '/com/v1/domain/example.com', { json: EXAMPLE_COM_RDAP });
  whois.on('com', IANA_COM);
  whois.on('domain example.com', { hang: true });
  const app = await api(1000);
  const res = await call(app, '/api/whois?q=example.com');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    'rdap.verisign.com': { ...EXAMPLE_COM_RDAP, __raw: domainText(EXAMPLE_COM_RDAP, 'example.com') },
  });
  const raw: string = res.json()['rdap.verisign.com'].__raw;
  assert.ok(raw.startsWith('Domain Name: EXAMPLE.COM\nRegistry Domain ID: 2336799_DOMAIN_COM-VRSN\n'));
  await app.close();
});

test('a TLD whose registry runs RDAP only (IANA names no WHOIS server) is answered by RDAP', async () => {
  const domain = { objectClassName: 'domain', ldhName: 'example.app', handle: '2A4E5B6C7-APP' };
  fake.on('GET', 'pubapi.registry.google', '/rdap/domain/example.app', { json: domain });
  whois.on('app', fixture('whois.iana.org', 'no-server.txt') as string);
  const app = await api();
  const res = await call(app, '/api/whois?q=example.app');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    'pubapi.registry.google': { ...domain, __raw: 'Domain Name: example.app\nRegistry Domain ID: 2A4E5B6C7-APP' },
  });
  assert.deepEqual(whois.queries, ['app']);
  await app.close();
});

test('a domain the RDAP registry does not hold, when WHOIS gave no text, answers 404 (no registry data)', async () => {
  fake.on('GET', 'rdap.verisign.com', '/com/v1/domain/unregistered-name.com', { status: 404 });
  whois.on('com', IANA_COM);
  whois.on('domain unregistered-name.com', '');
  const app = await api();
  const res = await call(app, '/api/whois?q=unregistered-name.com');
  assertErrorAnswer(res, 404, NOT_FOUND);
  await app.close();
});

test('a registry\'s own "no match" text is its answer, as a user of whois(1) would see it', async () => {
  whois.on('com', IANA_COM);
  const app = await api();
  const res = await call(app, '/api/whois?q=unregistered-name.com');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), {
    'whois.verisign-grs.com': { __raw: 'No match for "DOMAIN UNREGISTERED-NAME.COM".\r\n' },
  });
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('a TLD with neither RDAP nor WHOIS answers 404 naming it, not cacheable', async () => {
  whois.on('zw', fixture('whois.iana.org', 'no-server.txt') as string);
  const app = await api();
  // .zz and .exampletld are not in the root zone: no query; .zw is, and IANA names no WHOIS server for it here.
  for (const [q, tld] of [
    ['example.zz', 'zz'],
    ['nic.exampletld', 'exampletld'],
    ['example.zw', 'zw'],
  ] as const) {
    const res = await call(app, `/api/whois?q=${q}`);
    assertErrorAnswer(res, 404, noTldServer(tld), q);
  }
  assert.deepEqual(whois.queries, ['zw']);
  await app.close();
});

// --- Input, limits and failures ---

test('a missing or empty query answers 400 No address provided; anything else that is neither an IP nor a domain, 400 Invalid IP or address', async () => {
  const app = await api();
  await assertGuardErrors(app, [
    ['/api/whois', NO_QUERY],
    ['/api/whois?q=', NO_QUERY],
    ['/api/whois?q=%20', NO_QUERY],
    ['/api/whois?q=a.com&q=b.com', NO_QUERY],
    ['/api/whois?q=not_a..domain', INVALID_QUERY],
    ['/api/whois?q=localhost', INVALID_QUERY],
    ['/api/whois?q=1.2.3', INVALID_QUERY],
    ['/api/whois?q=http://example.com/', INVALID_QUERY],
  ]);
  assert.equal(fake.requests.length + whois.queries.length, 0);
  await app.close();
});

test('reserved address space answers 400 Not a public IP address', async () => {
  const app = await api();
  const ips = [
    '10.0.0.1',
    '192.168.1.1',
    '127.0.0.1',
    '100.64.0.1',
    '169.254.1.1',
    '192.0.2.1',
    '224.0.0.1',
    '::1',
    'fe80::1',
    'fc00::1',
    '2001:db8::1',
  ];
  await assertGuardErrors(
    app,
    ips.map((ip) => [`/api/whois?q=${encodeURIComponent(ip)}`, NOT_PUBLIC] as const),
  );
  assert.equal(fake.requests.length + whois.queries.length, 0);
  await app.close();
});

test('a WHOIS server that floods a megabyte is cut off at the size cap', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { status: 500 });
  whois.on('193.0.6.139', { text: 'inetnum: 193.0.0.0 - 193.0.7.255\r\n', flood: 1024 * 1024 });
  const app = await api();
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  const raw = res.json().__raw as string;
  assert.ok(raw.startsWith('inetnum: 193.0.0.0'));
  assert.ok(Buffer.byteLength(raw) <= WHOIS_MAX_BYTES);
  assert.ok(Buffer.byteLength(raw) > WHOIS_MAX_BYTES - 1024);
  await app.close();
});

test('a WHOIS server that never closes is cut off at the upstream timeout, keeping what it sent', async () => {
  whois.on('de', fixture('whois.iana.org', 'de.txt') as string);
  whois.on('slow.de', { text: 'Domain: slow.de\r\nStatus: connect\r\n', hang: true });
  const app = await api(1000);
  const res = await call(app, '/api/whois?q=slow.de');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json()['whois.denic.de'].__raw, 'Domain: slow.de\r\nStatus: connect\r\n');
  await app.close();
});

test('RDAP and a silent WHOIS server both failing answer 502, not cacheable', async () => {
  fake.on('GET', 'rdap.db.ripe.net', '/ip/193.0.6.139', { status: 500 });
  whois.on('193.0.6.139', { hang: true });
  const app = await api(1000);
  const res = await call(app, '/api/whois?q=193.0.6.139');
  assertErrorAnswer(res, 502, LOOKUP_FAILED);
  await app.close();
});

test('a domain whose WHOIS gave nothing and whose RDAP server fails answers 502', async () => {
  fake.on('GET', 'rdap.verisign.com', '/com/v1/domain/example.com', { destroy: true });
  whois.on('com', IANA_COM);
  whois.on('domain example.com', '');
  const app = await api();
  const res = await call(app, '/api/whois?q=example.com');
  assertErrorAnswer(res, 502, LOOKUP_FAILED);
  await app.close();
});

test('an unreachable IANA referral server answers 502 for a WHOIS-only TLD', async () => {
  const { app } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    WHOIS_OVERRIDE_SERVER: '127.0.0.1:1',
    UPSTREAM_TIMEOUT_MS: '2000',
  });
  const res = await call(app, '/api/whois?q=example.de');
  assertErrorAnswer(res, 502, LOOKUP_FAILED);
  await app.close();
});

test('the start-up step refreshes the bootstrap tables from IANA', async () => {
  for (const file of ['dns', 'ipv4', 'ipv6']) {
    fake.on('GET', 'data.iana.org', `/rdap/${file}.json`, { json: fixture('data.iana.org', `${file}.json`) });
  }
  fake.on('GET', 'rdap.denic.de', '/domain/example.de', { json: { objectClassName: 'domain', ldhName: 'example.de' } });
  // IANA names no WHOIS server for .de here, so only RDAP can answer.
  const app = await api();
  const bootstrapDate = async () =>
    ((await app.inject({ url: '/readyz' })).json() as { datasets: { rdapBootstrap: { updatedAt: string | null } } })
      .datasets.rdapBootstrap.updatedAt;
  const shipped = await bootstrapDate();
  await app.lifecycle.boot();
  // Asked before the tables are replaced, WHOIS would answer (and remember) the shipped copy's 404.
  await until(async () => (await bootstrapDate()) !== shipped, 60_000, 'the refreshed bootstrap tables');
  // The refreshed dns.json lists .de; the shipped copy does not.
  const res = await call(app, '/api/whois?q=example.de');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(Object.keys(res.json()), ['rdap.denic.de']);
  await app.close();
});
