import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from '../support/fake-upstream.js';
import { FakeWhois } from '../support/fake-whois.js';
import { WhoisError, domainQuery, queryWhois, referralServer, registrarServer } from '../../routes/whois/port43.js';

let whois: FakeWhois;
before(async () => {
  whois = await FakeWhois.start();
});
after(() => whois.close());

test('referralServer reads the whois: line of an IANA answer, else refer:, else nothing', () => {
  assert.equal(referralServer(fixture('whois.iana.org', 'com.txt') as string), 'whois.verisign-grs.com');
  assert.equal(referralServer('refer:        whois.arin.net\n\ninetnum: 8.0.0.0 - 8.255.255.255\n'), 'whois.arin.net');
  assert.equal(referralServer(fixture('whois.iana.org', 'no-server.txt') as string), undefined);
  assert.equal(referralServer(fixture('whois.iana.org', 'not-found.txt') as string), undefined);
});

test('registrarServer reads the registrar line of a registry answer, bare or whois://, lower-cased; never a web URL', () => {
  assert.equal(registrarServer(fixture('whois.verisign-grs.com', 'google.com.txt') as string), 'whois.markmonitor.com');
  assert.equal(
    registrarServer('Domain Name: X.ORG\r\nRegistrar WHOIS Server: WHOIS.Example-Registrar.COM\r\n'),
    'whois.example-registrar.com',
  );
  assert.equal(registrarServer('   Whois Server: whois://whois.registrar.example:43/\n'), 'whois.registrar.example');
  assert.equal(registrarServer('Registrar WHOIS Server: https://rdap.registrar.example/whois\n'), undefined);
  assert.equal(registrarServer('Registrar WHOIS Server:\n'), undefined);
  assert.equal(registrarServer(fixture('whois.denic.de', 'example.de.txt') as string), undefined);
});

test('domainQuery asks Verisign for the domain record alone and every other server for the bare name', () => {
  assert.equal(domainQuery('whois.verisign-grs.com', 'example.com'), 'domain example.com');
  assert.equal(domainQuery('whois.denic.de', 'example.de'), 'example.de');
});

test('a query line is sent with CRLF and the whole answer read until the server closes', async () => {
  whois.on('example.de', 'Domain: example.de\r\nStatus: connect\r\n');
  const answer = await queryWhois('whois.denic.de', 'example.de', { timeoutMs: 2000, override: whois.address });
  assert.deepEqual(answer, {
    server: 'whois.denic.de',
    text: 'Domain: example.de\r\nStatus: connect\r\n',
    truncated: false,
  });
  assert.equal(whois.queries.at(-1), 'example.de');
});

test('an answer larger than the cap is cut at the cap', async () => {
  whois.on('big', { flood: 100_000 });
  const answer = await queryWhois('whois.example', 'big', {
    timeoutMs: 2000,
    override: whois.address,
    maxBytes: 10_000,
  });
  assert.equal(answer.truncated, true);
  assert.equal(Buffer.byteLength(answer.text), 10_000);
});

test('a server that sends nothing before the deadline is an error', async () => {
  whois.on('silent', { hang: true });
  await assert.rejects(
    queryWhois('whois.example', 'silent', { timeoutMs: 100, override: whois.address }),
    (err: unknown) => {
      assert.ok(err instanceof WhoisError);
      assert.equal(err.message, 'WHOIS server timed out');
      return true;
    },
  );
});

test('a refused connection is an error', async () => {
  await assert.rejects(queryWhois('whois.example', 'x', { timeoutMs: 1000, override: '127.0.0.1:1' }), WhoisError);
});
