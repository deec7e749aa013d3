import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../../../lib/app-root.js';
import { fixture, type FakeUpstream } from '../fake-upstream.js';
import type { FakeWhois } from '../fake-whois.js';
import { demoAddress, type DemoAddress } from './demo-addresses.js';

const RDAP_JSON = { 'content-type': 'application/rdap+json' };

// Each registry's RDAP server with the demo addresses the bootstrap files send
// it: 8.0.0.0/8 is ARIN's, 1.0.0.0/8 APNIC's, 193.0.0.0/8 and 2a00::/12 RIPE NCC's.
const REGISTRIES: Array<{ host: string; base: string; records: Partial<Record<DemoAddress, string>> }> = [
  { host: 'rdap.arin.net', base: '/registry/ip/', records: { '8.8.8.8': 'ip-8.8.8.8.json' } },
  { host: 'rdap.apnic.net', base: '/ip/', records: { '1.1.1.1': 'ip-1.1.1.1.json' } },
  {
    host: 'rdap.db.ripe.net',
    base: '/ip/',
    records: { '193.0.6.139': 'ip-193.0.6.139.json', '2a01:4f8:c0c:1234::1': 'ip-2a01-4f8-c0c-1234--1.json' },
  },
];

/**
 * Each registry's RDAP answer for an address: the record of a demo address's
 * network, and for any other address the registry's own 404 (the WHOIS route
 * then asks the registry's port-43 server, which has no match either).
 */
function registerRdapNetworks(fake: FakeUpstream): void {
  for (const { host, base, records } of REGISTRIES) {
    fake.on('GET', host, new RegExp(`^${base}[^/]+$`), (req, res) => {
      const known = demoAddress(decodeURIComponent(req.path.slice(base.length)));
      const file = known && records[known];
      res.writeHead(file ? 200 : 404, RDAP_JSON).end(JSON.stringify(fixture(host, file ?? 'not-found.json')));
    });
  }
}

/** RDAP answers for the WHOIS tool: the IANA bootstrap files and TLD list, each registry's networks and a .com domain. */
export function registerWhois(fake: FakeUpstream): void {
  for (const file of ['dns', 'ipv4', 'ipv6']) {
    fake.on('GET', 'data.iana.org', `/rdap/${file}.json`, { json: fixture('data.iana.org', `${file}.json`) });
  }
  // IANA's TLD list as shipped, so the demo's refresh succeeds.
  fake.on('GET', 'data.iana.org', '/TLD/tlds-alpha-by-domain.txt', {
    body: readFileSync(join(APP_ROOT, 'datasets', 'tlds', 'tlds-alpha-by-domain.txt'), 'utf8'),
    headers: { 'content-type': 'text/plain' },
  });
  registerRdapNetworks(fake);
  fake.on('GET', 'rdap.verisign.com', /^\/com\/v1\/domain\//, {
    json: fixture('rdap.verisign.com', 'domain-example.com.json'),
    headers: RDAP_JSON,
  });
}

/**
 * Port-43 answers for a whois of example.com, as the real chain gives them:
 * IANA names Verisign for .com, Verisign's record names whois.iana.org as the
 * registrar's server (example.com is IANA's), and IANA answers a name under
 * .com with the .com record. One server gets every query, so the replies are
 * told apart by the query line: "com", "domain example.com", "example.com".
 */
export function registerWhoisReplies(whois: FakeWhois): void {
  const com = fixture('whois.iana.org', 'com.txt') as string;
  whois.on('com', com);
  whois.on('domain example.com', fixture('whois.verisign-grs.com', 'example.com.txt') as string);
  whois.on('example.com', com);
}
