import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/app.js';
import { demoAppPerFile } from '../support/fake-upstream-per-file.js';
import { registerWhoisReplies } from '../support/fake-routes/whois.js';
import { INVALID_QUERY, LOOKUP_FAILED, NOT_PUBLIC, NO_QUERY, noTldServer } from '../../routes/whois/index.js';

// The frontend contract (section 2) on the demo's fakes: what the site's
// WHOIS panel reads, and the error statuses it tells apart.
const SITE_HOST_KEY = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i;

const demo = demoAppPerFile();

test('domain: REQUIRED host keys the site accepts, each with a non-empty string __raw (registry, then registrar)', async () => {
  const res = await call(demo.app, '/api/whois?q=example.com');
  assert.equal(res.statusCode, 200);
  const body = res.json() as Record<string, { __raw: unknown }>;
  assert.deepEqual(Object.keys(body), ['whois.verisign-grs.com', 'whois.iana.org']);
  for (const [host, record] of Object.entries(body)) {
    assert.match(host, SITE_HOST_KEY);
    assert.equal(typeof record.__raw, 'string', host);
    assert.notEqual(record.__raw, '', host);
  }
  assert.ok(
    (body['whois.verisign-grs.com']!.__raw as string).startsWith(
      '   Domain Name: EXAMPLE.COM\n   Registry Domain ID: 2336799_DOMAIN_COM-VRSN\n',
    ),
  );
  assert.match(body['whois.iana.org']!.__raw as string, /\ndomain: {7}COM\n/);
});

test('domain answered by RDAP: the RDAP host as the key and __raw written from the JSON', async () => {
  // A name of its own: the first test's example.com answer is kept by the shared app.
  demo.fakes.whois.on('domain www.example.com', '');
  try {
    const res = await call(demo.app, '/api/whois?q=www.example.com');
    assert.equal(res.statusCode, 200);
    const body = res.json() as Record<string, { __raw: string; ldhName: string }>;
    assert.deepEqual(Object.keys(body), ['rdap.verisign.com']);
    assert.equal(body['rdap.verisign.com']!.ldhName, 'EXAMPLE.COM');
    assert.equal(
      body['rdap.verisign.com']!.__raw,
      [
        'Domain Name: EXAMPLE.COM',
        'Registry Domain ID: 2336799_DOMAIN_COM-VRSN',
        'Created: 1995-08-14T04:00:00Z',
        'Updated: 2025-08-14T07:01:39Z',
        'Expires: 2026-08-13T04:00:00Z',
        'RDAP Last Refresh: 2026-11-22T23:10:51Z',
        'Status:',
        '  client delete prohibited',
        '  client transfer prohibited',
        '  client update prohibited',
        '',
        'Registrar:',
        '  Handle: 376',
        '  Name: RESERVED-Internet Assigned Numbers Authority',
        '',
        'Name Servers:',
        '  A.IANA-SERVERS.NET',
        '  B.IANA-SERVERS.NET',
        '',
        'DNSSEC: signed',
      ].join('\n'),
    );
  } finally {
    demo.fakes.whois.reset();
    registerWhoisReplies(demo.fakes.whois);
  }
});

test('IP: REQUIRED top-level __raw, a non-empty string, next to the RDAP network object', async () => {
  const res = await call(demo.app, '/api/whois?q=193.0.6.139');
  assert.equal(res.statusCode, 200);
  const body = res.json() as { __raw: unknown; objectClassName: string };
  assert.equal(typeof body.__raw, 'string');
  assert.ok(
    (body.__raw as string).startsWith(
      'NetRange: 193.0.0.0 - 193.0.7.255\nCIDR: 193.0.0.0/21\nNetName: RIPE-NCC\nHandle: 193.0.0.0 - 193.0.7.255\n',
    ),
  );
  assert.equal(body.objectClassName, 'ip network');
});

test('each error body the contract names: 400s for bad input and reserved space, 404 for a TLD without registry data, 5xx for failures', async () => {
  const cases: Array<[string, number, string]> = [
    ['/api/whois', 400, NO_QUERY],
    ['/api/whois?q=not_a..domain', 400, INVALID_QUERY],
    ['/api/whois?q=192.168.1.1', 400, NOT_PUBLIC],
    ['/api/whois?q=example.zz', 404, noTldServer('zz')],
  ];
  for (const [url, status, error] of cases) {
    const res = await call(demo.app, url);
    assert.equal(res.statusCode, status, url);
    assert.deepEqual(res.json(), { error }, url);
  }
  // ARIN's RDAP server failing and its WHOIS server sending only a blank line.
  demo.fakes.http.on('GET', 'rdap.arin.net', '/registry/ip/8.8.8.8', { status: 500 });
  demo.fakes.whois.on('8.8.8.8', '\r\n');
  const failed = await call(demo.app, '/api/whois?q=8.8.8.8');
  assert.ok(failed.statusCode >= 500, String(failed.statusCode));
  assert.deepEqual(failed.json(), { error: LOOKUP_FAILED });
});
