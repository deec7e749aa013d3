import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { guarded, type Guard } from '../../schemas/guarded.js';
import {
  asnGuard,
  countryGuard,
  domainGuard,
  prefixGuard,
  publicIpGuard,
  recordTypeGuard,
  reportIdGuard,
} from '../../schemas/guards.js';
import { buildTestApiWith, call } from '../support/app.js';

// No capability route used the guards when these tests were written, so a
// test-only plugin declares one route per guard, exactly as capabilities do.
const slugGuard: Guard = {
  missing: 'No slug provided',
  invalid: 'Invalid slug',
  check: (value) => (value === 'github' ? value : { error: 'Invalid slug' }),
};

const echo = async (request: { query: unknown; params: unknown }) => ({ query: request.query, params: request.params });
const guardRoutes: FastifyPluginAsync = async (app) => {
  const q = (name: string, guard: Guard) => ({ schema: { querystring: Type.Object({ [name]: guarded(guard) }) } });
  app.get('/t/ip', q('ip', publicIpGuard), echo);
  app.get('/t/domain', q('domain', domainGuard), echo);
  app.get('/t/hostname', q('hostname', domainGuard), echo);
  app.get('/t/prefix', q('prefix', prefixGuard), echo);
  app.get('/t/asn', q('asn', asnGuard), echo);
  app.get('/t/country', q('country', countryGuard), echo);
  app.get('/t/type', q('type', recordTypeGuard), echo);
  app.get('/t/slug', q('id', slugGuard), echo);
  app.get('/t/report/:id', { schema: { params: Type.Object({ id: guarded(reportIdGuard) }) } }, echo);
  app.get(
    '/t/dns',
    { schema: { querystring: Type.Object({ hostname: guarded(domainGuard), type: guarded(recordTypeGuard) }) } },
    echo,
  );
};

let app: FastifyInstance;
before(async () => {
  ({ app } = await buildTestApiWith({}, guardRoutes));
});
after(() => app.close());

async function rejects(url: string, error: string) {
  const res = await call(app, url);
  assert.equal(res.statusCode, 400, `${url} -> ${res.body}`);
  assert.deepEqual(res.json(), { error }, url);
}

async function passes(url: string, part: 'query' | 'params', name: string, expected: string) {
  const res = await call(app, url);
  assert.equal(res.statusCode, 200, `${url} -> ${res.body}`);
  assert.equal(res.json()[part][name], expected, url);
}

const q = (path: string, name: string, value: string) => `/api/t/${path}?${name}=${encodeURIComponent(value)}`;

test('public-IP: missing, empty and repeated parameters', async () => {
  await rejects('/api/t/ip', 'No IP address provided');
  await rejects('/api/t/ip?ip=', 'No IP address provided');
  await rejects('/api/t/ip?ip=8.8.8.8&ip=1.1.1.1', 'Invalid IP address');
});

test('public-IP: malformed addresses are invalid', async () => {
  for (const bad of [
    'abc',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.4/24',
    'fe80::1%eth0',
    '2001:db8:::1',
    ' 8.8.8.8x',
  ]) {
    await rejects(q('ip', 'ip', bad), 'Invalid IP address');
  }
});

test('public-IP: every reserved range is refused', async () => {
  const reserved = [
    '10.1.2.3',
    '172.16.5.4',
    '192.168.1.1', // private
    '127.0.0.1',
    '::1', // loopback
    '100.64.0.1', // carrier-grade NAT
    '169.254.10.10',
    'fe80::1', // link-local
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '2001:db8::1', // documentation
    '224.0.0.1',
    'ff02::1', // multicast
    '198.18.0.1',
    '2001:2::1', // benchmarking
    '240.0.0.1',
    '255.255.255.255',
    '0.0.0.0',
    '::', // 240/4, broadcast, unspecified
    '::ffff:8.8.8.8',
    '::ffff:10.0.0.1',
    '::8.8.8.8', // IPv4-mapped and -compatible
    '2002:808:808::1', // 6to4
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    'fc00::1',
    'fd12:3456:789a::1', // unique local
  ];
  for (const ip of reserved) await rejects(q('ip', 'ip', ip), 'Not a public IP address');
});

test('public-IP: public v4 and v6 addresses reach the handler', async () => {
  for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888']) {
    await passes(q('ip', 'ip', ip), 'query', 'ip', ip);
  }
});

test('domain: lower-cased in place; underscore may start a label but not the top one', async () => {
  await passes(q('domain', 'domain', 'Example.COM'), 'query', 'domain', 'example.com');
  await passes(q('domain', 'domain', '_dmarc.example.com'), 'query', 'domain', '_dmarc.example.com');
  await passes(q('domain', 'domain', '_sip._tcp.Example.org'), 'query', 'domain', '_sip._tcp.example.org');
  await passes(q('domain', 'domain', 'bücher.example'), 'query', 'domain', 'xn--bcher-kva.example');
  await rejects(q('domain', 'domain', 'example._com'), 'Invalid domain');
  await rejects(q('domain', 'domain', '_example'), 'Invalid domain');
});

test('domain: malformed names and length limits', async () => {
  const bad = [
    'example',
    'exa mple.com',
    '-example.com',
    'example-.com',
    'example..com',
    '.example.com',
    'ex!ample.com',
    '1.2.3.4',
    'a_b.example.com',
    `${'a'.repeat(64)}.com`,
    `${'abcdefghi.'.repeat(26)}com`,
  ];
  for (const domain of bad) await rejects(q('domain', 'domain', domain), 'Invalid domain');
  await rejects('/api/t/domain', 'No domain provided');
  await rejects('/api/t/domain?domain=', 'No domain provided');
  await rejects('/api/t/domain?domain=a.com&domain=b.com', 'Invalid domain');
});

test('domain: the factory applies to any parameter name and still speaks of a domain', async () => {
  await passes(q('hostname', 'hostname', 'WWW.Example.com'), 'query', 'hostname', 'www.example.com');
  await rejects('/api/t/hostname', 'No domain provided');
  await rejects(q('hostname', 'hostname', 'nope'), 'Invalid domain');
});

test('prefix: well-formed CIDR of any length', async () => {
  for (const ok of ['1.1.1.0/24', '0.0.0.0/0', '8.8.8.8/32', '2001:db8::/32', '::/0', '2606:4700::/128']) {
    await passes(q('prefix', 'prefix', ok), 'query', 'prefix', ok);
  }
  for (const bad of [
    '1.1.1.0',
    '1.1.1.0/33',
    '::/129',
    'abc/24',
    '1.1.1.0/24/1',
    '1.1.1.0/-1',
    '1.1.1.0/',
    '/24',
    '1.1.1/24',
  ]) {
    await rejects(q('prefix', 'prefix', bad), 'Invalid prefix');
  }
  await rejects('/api/t/prefix', 'No prefix provided');
  await rejects('/api/t/prefix?prefix=', 'No prefix provided');
  await rejects('/api/t/prefix?prefix=1.1.1.0/24&prefix=1.1.1.0/24', 'Invalid prefix');
});

test('asn: optional AS prefix in any case, stripped; 32-bit bound', async () => {
  await passes(q('asn', 'asn', 'AS13335'), 'query', 'asn', '13335');
  await passes(q('asn', 'asn', 'as13335'), 'query', 'asn', '13335');
  await passes(q('asn', 'asn', 'As15169'), 'query', 'asn', '15169');
  await passes(q('asn', 'asn', '4294967295'), 'query', 'asn', '4294967295');
  for (const bad of ['4294967296', 'AS', 'AS 13335', '-1', '1.5', 'ASN13335', '13335x', '0x10']) {
    await rejects(q('asn', 'asn', bad), 'Invalid ASN');
  }
  await rejects('/api/t/asn', 'No ASN provided');
  await rejects('/api/t/asn?asn=', 'No ASN provided');
  await rejects('/api/t/asn?asn=1&asn=2', 'Invalid ASN');
});

test('country: two ASCII letters, upper-cased in place', async () => {
  await passes(q('country', 'country', 'de'), 'query', 'country', 'DE');
  await passes(q('country', 'country', 'Us'), 'query', 'country', 'US');
  for (const bad of ['USA', 'U', 'u1', 'üs', '12']) await rejects(q('country', 'country', bad), 'Invalid country');
  await rejects('/api/t/country', 'No country provided');
  await rejects('/api/t/country?country=us&country=de', 'Invalid country');
});

test('record type: case-insensitive member of the set, upper-cased in place', async () => {
  await passes(q('type', 'type', 'aaaa'), 'query', 'type', 'AAAA');
  await passes(q('type', 'type', 'Mx'), 'query', 'type', 'MX');
  await passes(q('type', 'type', 'TXT'), 'query', 'type', 'TXT');
  for (const bad of ['XYZ', 'A1', 'A A']) await rejects(q('type', 'type', bad), 'Invalid record type');
  await rejects('/api/t/type', 'No record type provided');
  await rejects('/api/t/type?type=', 'No record type provided');
  await rejects('/api/t/type?type=A&type=MX', 'Invalid record type');
});

test('report id: exactly 22 base64url characters', async () => {
  const id = 'AbCdEfGhIjKlMnOpQr-_09';
  await passes(`/api/t/report/${id}`, 'params', 'id', id);
  for (const bad of [id.slice(1), `${id}x`, 'AbCdEfGhIjKlMnOpQr+/09', 'AbCdEfGhIjKlMnOpQr.=09']) {
    await rejects(`/api/t/report/${encodeURIComponent(bad)}`, 'Invalid report id');
  }
});

test('a capability guard of its own answers its own strings', async () => {
  await passes('/api/t/slug?id=github', 'query', 'id', 'github');
  await rejects('/api/t/slug', 'No slug provided');
  await rejects('/api/t/slug?id=nope', 'Invalid slug');
});

test('several guards on one route run in declaration order', async () => {
  await rejects('/api/t/dns?type=A', 'No domain provided');
  await rejects('/api/t/dns?hostname=example.com&type=bogus', 'Invalid record type');
  const res = await call(app, '/api/t/dns?hostname=Example.com&type=a');
  assert.deepEqual(res.json().query, { hostname: 'example.com', type: 'A' });
});

test('guards run after the Referer gate', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/t/ip?ip=bogus' });
  assert.equal(res.statusCode, 403);
});
