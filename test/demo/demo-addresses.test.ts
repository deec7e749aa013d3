import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';
import { call } from '../support/app.js';
import { bootOnAllFakes, type AllFakes } from '../support/fakes.js';
import { DEMO_ADDRESSES, type DemoAddress } from '../support/fake-routes/demo-addresses.js';

// What a newcomer sees in `npm run demo` for the addresses its banner names:
// every source agrees with the local database, WHOIS finds the address's own
// network at the registry the bootstrap names; and for any other address no
// fake invents data.

const SOURCES = ['geo-keyed-a', 'geo-free-a', 'geo-free-b', 'geo-keyed-b', 'geo-keyed-c', 'geo-private'];

// Each address's network as its registry records it, and that registry's RDAP server and path.
const REGISTRY: Record<DemoAddress, { host: string; path: string; name: string; handle: string; port43: string }> = {
  '8.8.8.8': {
    host: 'rdap.arin.net',
    path: '/registry/ip/8.8.8.8',
    name: 'GOGL',
    handle: 'NET-8-8-8-0-2',
    port43: 'whois.arin.net',
  },
  '1.1.1.1': {
    host: 'rdap.apnic.net',
    path: '/ip/1.1.1.1',
    name: 'APNIC-LABS',
    handle: '1.1.1.0 - 1.1.1.255',
    port43: 'whois.apnic.net',
  },
  '2a01:4f8:c0c:1234::1': {
    host: 'rdap.db.ripe.net',
    path: '/ip/2a01:4f8:c0c:1234::1',
    name: 'DE-HETZNER-20061204',
    handle: '2a01:4f8::/32',
    port43: 'whois.ripe.net',
  },
  '193.0.6.139': {
    host: 'rdap.db.ripe.net',
    path: '/ip/193.0.6.139',
    name: 'RIPE-NCC',
    handle: '193.0.0.0 - 193.0.7.255',
    port43: 'whois.ripe.net',
  },
};

let app: FastifyInstance;
let fakes: AllFakes;
let close: () => Promise<void>;
before(async () => {
  ({ app, fakes, close } = await bootOnAllFakes());
});
after(() => close());

const requestsTo = (host: string, path: string) => fakes.http.requestsTo(host, path).length;

async function get(url: string): Promise<Record<string, unknown>> {
  const res = await call(app, url);
  assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`);
  return res.json();
}

for (const address of DEMO_ADDRESSES) {
  test(`${address}: every geolocation source places it in the local database's country and network`, async () => {
    const local = await get(`/api/geo-local?ip=${address}`);
    assert.match(String(local.country_code), /^[A-Z]{2}$/, 'the local database holds the address');
    for (const source of SOURCES) {
      const record = await get(`/api/${source}?ip=${address}`);
      assert.equal(record.country_code, local.country_code, `${source} country`);
      if (local.asn !== null) assert.equal(record.asn, local.asn, `${source} network`);
    }
  });

  test(`${address}: WHOIS answers with its own network's record from the registry the bootstrap names`, async () => {
    const { host, path, name, handle, port43 } = REGISTRY[address];
    const before = requestsTo(host, path);
    const record = await get(`/api/whois?q=${address}`);
    assert.equal(requestsTo(host, path), before + 1, `asked ${host}${path}`);
    assert.equal(record.objectClassName, 'ip network');
    assert.equal(record.name, name);
    assert.equal(record.handle, handle);
    assert.equal(record.port43, port43);
    const [cidr] = record.cidr0_cidrs as Array<{ v4prefix?: string; v6prefix?: string; length: number }>;
    const network = ipaddr.parseCIDR(`${cidr!.v4prefix ?? cidr!.v6prefix}/${cidr!.length}`);
    assert.ok(ipaddr.parse(address).match(network), `${address} inside ${handle}`);
    assert.match(String(record.__raw), new RegExp(`^NetName: ${name}$`, 'm'));
    assert.doesNotMatch(String(record.__raw), /No match/);
  });
}

// Neighbours of demo addresses, in registries' space the bootstrap names, that no fake holds.
for (const address of ['8.8.4.4', '1.0.0.1', '2a00:1450:4001::1']) {
  test(`${address}, outside the demo set: every source answers without data, WHOIS finds no network`, async () => {
    const none = { country_code: null, city: null, latitude: null, asn: null, org: null };
    for (const source of ['geo-local', ...SOURCES]) {
      const record = await get(`/api/${source}?ip=${address}`);
      const shown = { country_code: record.country_code, city: record.city, latitude: record.latitude };
      assert.deepEqual({ ...shown, asn: record.asn, org: record.org }, none, source);
    }
    const res = await call(app, `/api/whois?q=${address}`);
    assert.ok([200, 404].includes(res.statusCode), `${res.statusCode} ${res.body.slice(0, 200)}`);
    const body = res.json();
    assert.equal(body.objectClassName, undefined, 'no RDAP network object');
    if (res.statusCode === 200) assert.match(body.__raw, /^No match for /);
  });
}
