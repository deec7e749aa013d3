import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertGuardErrors, call } from '../support/app.js';
import { demoAppPerFile } from '../support/fake-upstream-per-file.js';

// The frontend contract (section 3) on the demo's fakes: what the site's DNS
// resolver table reads, row by row.

const demo = demoAppPerFile();

const PROVIDERS = [
  'Google',
  'Google',
  'Cloudflare',
  'Cloudflare',
  'OpenDNS',
  'Quad9',
  'ControlD',
  'AdGuard',
  'AdGuard',
  'AliDNS',
  'AliDNS',
  'DNSPod',
  '114DNS',
  'DNS4EU',
];
const TYPES = ['udp', 'doh', 'udp', 'doh', 'udp', 'udp', 'udp', 'udp', 'doh', 'udp', 'doh', 'udp', 'udp', 'udp'];
const COUNTRIES = ['US', 'US', 'US', 'US', 'US', 'CH', 'CA', 'CY', 'CY', 'CN', 'CN', 'CN', 'CN', 'EU'];

test('REQUIRED fields of every row: provider, type udp|doh, a two-letter country string, result; example.com resolves on all fourteen', async () => {
  const res = await call(demo.app, '/api/dnsresolver?hostname=example.com&type=A');
  assert.equal(res.statusCode, 200);
  const body = res.json() as { hostname: unknown; results: Array<Record<string, unknown>> };
  assert.equal(body.hostname, 'example.com');
  assert.ok(Array.isArray(body.results));
  assert.deepEqual(
    body.results.map((r) => r.provider),
    PROVIDERS,
  );
  assert.deepEqual(
    body.results.map((r) => r.type),
    TYPES,
  );
  assert.deepEqual(
    body.results.map((r) => r.country),
    COUNTRIES,
  );
  for (const row of body.results) {
    assert.equal(typeof row.provider, 'string');
    assert.equal(typeof row.id, 'string');
    assert.equal(typeof row.country, 'string');
    assert.match(row.country as string, /^[A-Z]{2}$/);
    assert.deepEqual(row.result, ['93.184.215.14'], `${row.provider} ${row.type}`);
  }
  assert.deepEqual(
    body.results.filter((r) => r.provider === '114DNS'),
    [{ id: '114dns', provider: '114DNS', country: 'CN', type: 'udp', result: ['93.184.215.14'], status: 'records' }],
  );
});

test("MX on the fakes (example.com's null MX): one string over plain DNS, an array over DoH", async () => {
  const mx = await call(demo.app, '/api/dnsresolver?hostname=example.com&type=MX');
  assert.equal(mx.statusCode, 200);
  for (const row of mx.json().results as Array<{ type: string; result: unknown }>) {
    assert.deepEqual(row.result, row.type === 'udp' ? '0 .' : ['0 .']);
  }
});

test('a type without records: "N/A" over plain DNS, ["N/A"] over DoH; still 200', async () => {
  const cname = await call(demo.app, '/api/dnsresolver?hostname=example.com&type=CNAME');
  assert.equal(cname.statusCode, 200);
  for (const row of cname.json().results as Array<{ type: string; result: unknown }>) {
    assert.deepEqual(row.result, row.type === 'udp' ? 'N/A' : ['N/A']);
  }
});

test('the error bodies: 400 with the guard strings for a missing or invalid hostname or type', async () => {
  await assertGuardErrors(demo.app, [
    ['/api/dnsresolver?type=A', 'No domain provided'],
    ['/api/dnsresolver?hostname=localhost&type=A', 'Invalid domain'],
    ['/api/dnsresolver?hostname=example.com', 'No record type provided'],
    ['/api/dnsresolver?hostname=example.com&type=HINFO', 'Invalid record type'],
  ]);
});
