import { fixture, type FakeUpstream } from '../fake-upstream.js';

/** RDAP answers for the WHOIS tool: the IANA bootstrap files, a RIPE address and a .com domain. */
export function registerWhois(fake: FakeUpstream): void {
  for (const file of ['dns', 'ipv4', 'ipv6']) {
    fake.on('GET', 'data.iana.org', `/rdap/${file}.json`, { json: fixture('data.iana.org', `${file}.json`) });
  }
  fake.on('GET', 'rdap.db.ripe.net', /^\/ip\//, {
    json: fixture('rdap.db.ripe.net', 'ip-193.0.6.139.json'),
    headers: { 'content-type': 'application/rdap+json' },
  });
  fake.on('GET', 'rdap.verisign.com', /^\/com\/v1\/domain\//, {
    json: fixture('rdap.verisign.com', 'domain-example.com.json'),
    headers: { 'content-type': 'application/rdap+json' },
  });
}
