import { test, after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { FakeWhois } from '../support/fake-whois.js';
import { HostRefused, publicAddress, refusedWithoutLookup, type Lookup } from '../../routes/whois/public-host.js';
import { WhoisError, queryWhois } from '../../routes/whois/port43.js';

let whois: FakeWhois;
before(async () => {
  whois = await FakeWhois.start();
});
after(() => whois.close());
beforeEach(() => whois.reset());

/** A resolver that answers from a table and records every name it was asked. */
function resolver(table: Record<string, string[]>): Lookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: isIP(address) }));
  };
  return Object.assign(lookup, { asked });
}

const refusal = (host: string) => (err: unknown) => err instanceof HostRefused && err.host === host;

test('special-use names, single labels and IP literals outside public space are refused without a lookup', () => {
  const refused = [
    'metadata.google.internal',
    'internal',
    'foo.localhost',
    'localhost',
    'FOO.LOCALHOST.',
    'printer.local',
    'nas.home.arpa',
    'intranet',
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    '[::1]',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
  ];
  for (const host of refused) assert.ok(refusedWithoutLookup(host), host);
  for (const host of [
    'whois.verisign-grs.com',
    'whois.nic.local-registry.example',
    'internal.example.com',
    '8.8.8.8',
    '2001:4860:4860::8888',
  ]) {
    assert.equal(refusedWithoutLookup(host), undefined, host);
  }
});

test('a name resolving to any loopback, private, link-local, CGNAT or mapped address is refused', async () => {
  const inward: Record<string, string[]> = {
    'loopback.example': ['127.0.0.1'],
    'private.example': ['10.0.0.7'],
    'metadata.example': ['169.254.169.254'],
    'cgnat.example': ['100.64.1.1'],
    'v6-loopback.example': ['::1'],
    'v6-link-local.example': ['fe80::1'],
    'v6-unique-local.example': ['fd12:3456::1'],
    'mapped.example': ['::ffff:192.168.1.1'],
    'mixed.example': ['193.0.6.139', '192.168.0.1'],
    'unspecified.example': ['0.0.0.0'],
  };
  const lookup = resolver(inward);
  for (const host of Object.keys(inward)) await assert.rejects(publicAddress(host, lookup), refusal(host), host);
  assert.deepEqual(lookup.asked, Object.keys(inward));
});

test('a name resolving only to public addresses gives the first of them; a public IP literal needs no lookup', async () => {
  const lookup = resolver({
    'whois.ripe.net': ['193.0.6.135', '2001:67c:2e8:22::c100:687'],
    'whois.example.com': ['2001:67c:2e8:22::c100:687'],
  });
  assert.equal(await publicAddress('whois.ripe.net', lookup), '193.0.6.135');
  assert.equal(await publicAddress('whois.example.com', lookup), '2001:67c:2e8:22::c100:687');
  assert.equal(await publicAddress('193.0.6.135', lookup), '193.0.6.135');
  assert.deepEqual(lookup.asked, ['whois.ripe.net', 'whois.example.com']);
});

test('names refused by their form never reach the resolver; a name that does not resolve is an error', async () => {
  const lookup = resolver({ 'metadata.google.internal': ['203.0.113.9'] });
  for (const host of ['metadata.google.internal', 'foo.localhost', 'intranet', '127.0.0.1']) {
    await assert.rejects(publicAddress(host, lookup), refusal(host));
  }
  assert.deepEqual(lookup.asked, []);
  await assert.rejects(publicAddress('nowhere.example', lookup), /ENOTFOUND/);
});

test('the checked answer is the address returned: a resolver that changes its answer later is asked once', async () => {
  let calls = 0;
  const rebinding: Lookup = async () =>
    calls++ === 0 ? [{ address: '193.0.6.135', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
  assert.equal(await publicAddress('whois.rebind.example', rebinding), '193.0.6.135');
  assert.equal(calls, 1);
});

test('queryWhois without the override resolves the server and refuses an inward answer before connecting', async () => {
  const lookup = resolver({ 'whois.rebind.example': ['127.0.0.1'] });
  await assert.rejects(
    queryWhois('whois.rebind.example', 'example.com', { timeoutMs: 2000, lookup }),
    refusal('whois.rebind.example'),
  );
  assert.deepEqual(lookup.asked, ['whois.rebind.example']);
  await assert.rejects(
    queryWhois('metadata.google.internal', 'example.com', { timeoutMs: 2000, lookup }),
    refusal('metadata.google.internal'),
  );
  assert.deepEqual(lookup.asked, ['whois.rebind.example']);
});

test('a name lookup that never answers ends at the query deadline', async () => {
  const stuck: Lookup = () => new Promise(() => {});
  await assert.rejects(
    queryWhois('whois.slow-dns.example', 'example.com', { timeoutMs: 100, lookup: stuck }),
    (err: unknown) => {
      assert.ok(err instanceof WhoisError);
      assert.equal(err.message, 'WHOIS server name did not resolve in time');
      return true;
    },
  );
});

test('with the override (the operator chose the address) names are not resolved, but special-use names are still refused before connecting', async () => {
  const lookup = resolver({});
  whois.on('example.com', 'Domain Name: EXAMPLE.COM\r\n');
  const answer = await queryWhois('whois.verisign-grs.com', 'example.com', {
    timeoutMs: 2000,
    override: whois.address,
    lookup,
  });
  assert.equal(answer.text, 'Domain Name: EXAMPLE.COM\r\n');
  assert.deepEqual(lookup.asked, []);
  for (const host of ['metadata.google.internal', 'foo.localhost', 'intranet', '10.0.0.1']) {
    await assert.rejects(
      queryWhois(host, 'example.com', { timeoutMs: 2000, override: whois.address, lookup }),
      refusal(host),
    );
  }
  assert.equal(whois.connections, 1);
});
