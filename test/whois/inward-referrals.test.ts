import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { fakeUpstreamPerFile, fakeWhoisPerFile } from '../support/fake-upstream-per-file.js';
import { assertErrorAnswer, buildTestApi, call } from '../support/app.js';
import { LOOKUP_FAILED } from '../../routes/whois/index.js';
import { setTimeout as delay } from 'node:timers/promises';

// Finding 5 of the hardening issue, end to end: a referral naming a host no
// public server can have is refused before any connection. Every port-43
// query lands on one loopback fake (WHOIS_OVERRIDE_SERVER), so a connection
// for the refused host would show in its connection count; RDAP requests
// land on FakeUpstream, which records the host each was meant for.

const fake = fakeUpstreamPerFile();
const whois = fakeWhoisPerFile();

async function api(t: TestContext) {
  const { app, logs } = await buildTestApi({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    WHOIS_OVERRIDE_SERVER: whois.address,
    UPSTREAM_TIMEOUT_MS: '2000',
  });
  // Closed even when an assertion fails, so no scheduler keeps the test process alive.
  t.after(() => app.close());
  return { app, logs };
}

const INWARD = ['metadata.google.internal', 'foo.localhost', 'whois.nic.local', 'registry.home.arpa'];
const SECRET = 'instance-identity: secret-token\r\n';
const IANA_COM = fixture('whois.iana.org', 'com.txt') as string;

test("IANA naming an internal host as a TLD's registry: an error answer, and no connection to it", async (t) => {
  for (const host of INWARD) {
    // A fresh app each time: IANA's answer for .de is cached.
    const { app, logs } = await api(t);
    whois.reset();
    whois.on('de', (fixture('whois.iana.org', 'de.txt') as string).replaceAll('whois.denic.de', host));
    whois.on('example.de', SECRET);
    const res = await call(app, '/api/whois?q=example.de');
    assertErrorAnswer(res, 502, LOOKUP_FAILED, host);
    assert.deepEqual(whois.queries, ['de'], host);
    assert.equal(whois.connections, 1, host);
    const [logged] = logs.find('registry WHOIS lookup failed');
    assert.equal((logged?.err as { message: string }).message, `Refused ${host}: a special-use name`);
  }
});

test('a registry naming an internal host as the registrar server: the registry answer alone, and no connection to it', async (t) => {
  for (const host of INWARD) {
    const { app } = await api(t);
    whois.reset();
    whois.on('com', IANA_COM);
    whois.on('domain example.com', `   Domain Name: EXAMPLE.COM\r\n   Registrar WHOIS Server: ${host}\r\n`);
    whois.on('example.com', SECRET);
    const res = await call(app, '/api/whois?q=example.com');
    assert.equal(res.statusCode, 200, host);
    assert.deepEqual(Object.keys(res.json()), ['whois.verisign-grs.com'], host);
    assert.doesNotMatch(res.body, /secret-token/);
    assert.deepEqual(whois.queries, ['com', 'domain example.com'], host);
    assert.equal(whois.connections, 2, host);
  }
});

test('IANA referring an address to an internal host: an error answer, and no connection to it', async (t) => {
  // 2001:1000::/23 lies outside every block of the shipped bootstrap, so IANA is asked.
  whois.on('2001:1000::1', 'refer:        whois.lacnic.internal\r\n\r\ninet6num:     2001:1000:0:0:0:0:0:0/23\r\n');
  const { app } = await api(t);
  const res = await call(app, '/api/whois?q=2001:1000::1');
  assertErrorAnswer(res, 502, LOOKUP_FAILED);
  assert.deepEqual(whois.queries, ['2001:1000::1']);
  assert.equal(whois.connections, 1);
});

test('an RDAP base URL that points inward is never fetched, even when the bootstrap file lists it', async (t) => {
  const dns = {
    services: [
      [['de'], ['https://rdap.internal/']],
      [['fr'], ['https://127.0.0.1/rdap/']],
      [['nl'], ['https://[::1]/']],
    ],
  };
  fake.on('GET', 'data.iana.org', '/rdap/dns.json', { json: dns });
  for (const host of ['rdap.internal', '127.0.0.1', '[::1]']) {
    fake.on('GET', host, /.*/, { json: { objectClassName: 'domain', ldhName: 'leaked' } });
  }
  for (const tld of ['de', 'fr', 'nl']) whois.on(tld, fixture('whois.iana.org', 'no-server.txt') as string);
  const { app, logs } = await api(t);
  await app.lifecycle.boot();
  for (let i = 0; i < 300 && !logs.find('RDAP bootstrap refreshed').some((l) => l.file === 'dns'); i++) await delay(10);
  assert.ok(logs.find('RDAP bootstrap refreshed').some((l) => l.file === 'dns'));
  for (const name of ['example.de', 'example.fr', 'example.nl']) {
    const res = await call(app, `/api/whois?q=${name}`);
    assertErrorAnswer(res, 502, LOOKUP_FAILED, name);
  }
  for (const host of ['rdap.internal', '127.0.0.1', '[::1]']) assert.equal(fake.requestsTo(host).length, 0, host);
});
