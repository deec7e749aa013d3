import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ROOT } from '../../../lib/app-root.js';
import { fixture, type FakeUpstream } from '../fake-upstream.js';
import type { FakeWhois } from '../fake-whois.js';

/** RDAP answers for the WHOIS tool: the IANA bootstrap files and TLD list, a RIPE address and a .com domain. */
export function registerWhois(fake: FakeUpstream): void {
  for (const file of ['dns', 'ipv4', 'ipv6']) {
    fake.on('GET', 'data.iana.org', `/rdap/${file}.json`, { json: fixture('data.iana.org', `${file}.json`) });
  }
  // IANA's TLD list as shipped, so the demo's refresh succeeds.
  fake.on('GET', 'data.iana.org', '/TLD/tlds-alpha-by-domain.txt', {
    body: readFileSync(join(APP_ROOT, 'datasets', 'tlds', 'tlds-alpha-by-domain.txt'), 'utf8'),
    headers: { 'content-type': 'text/plain' },
  });
  fake.on('GET', 'rdap.db.ripe.net', /^\/ip\//, {
    json: fixture('rdap.db.ripe.net', 'ip-193.0.6.139.json'),
    headers: { 'content-type': 'application/rdap+json' },
  });
  fake.on('GET', 'rdap.verisign.com', /^\/com\/v1\/domain\//, {
    json: fixture('rdap.verisign.com', 'domain-example.com.json'),
    headers: { 'content-type': 'application/rdap+json' },
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
