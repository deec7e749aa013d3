import type { ServerResponse } from 'node:http';
import type { Answer } from 'dns-packet';
import type { FakeUpstream, Recorded } from '../fake-upstream.js';
import type { FakeDns } from '../fake-dns.js';
import { loadResolvers } from '../../../routes/dnsresolver/resolvers.js';

/** Host and path of every DoH endpoint of routes/dnsresolver/resolvers.json, as the fake upstream receives them. */
export const DOH_ENDPOINTS: ReadonlyArray<[host: string, path: string]> = loadResolvers().flatMap((r) => {
  if (!r.doh) return [];
  const url = new URL(r.doh);
  return [[url.hostname, url.pathname] as [string, string]];
});

/** example.com as the public DNS answers it, for each type the site offers but CNAME (it has none). */
export const EXAMPLE_COM: Record<string, Answer[]> = {
  A: [{ type: 'A', name: 'example.com', ttl: 300, data: '93.184.215.14' }],
  AAAA: [{ type: 'AAAA', name: 'example.com', ttl: 300, data: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' }],
  MX: [{ type: 'MX', name: 'example.com', ttl: 86400, data: { preference: 0, exchange: '' } }],
  NS: [
    { type: 'NS', name: 'example.com', ttl: 86400, data: 'a.iana-servers.net' },
    { type: 'NS', name: 'example.com', ttl: 86400, data: 'b.iana-servers.net' },
  ],
  TXT: [
    { type: 'TXT', name: 'example.com', ttl: 86400, data: 'v=spf1 -all' },
    { type: 'TXT', name: 'example.com', ttl: 86400, data: '_k2n1y4vw3qtb4skdx9e7dxt97qrmmq9' },
  ],
};

/** The same records in DoH JSON form: type number and presentation-format `data`. */
const DOH_SAMPLE: Record<string, Array<{ type: number; data: string }>> = {
  A: [{ type: 1, data: '93.184.215.14' }],
  AAAA: [{ type: 28, data: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' }],
  MX: [{ type: 15, data: '0 .' }],
  NS: [
    { type: 2, data: 'a.iana-servers.net.' },
    { type: 2, data: 'b.iana-servers.net.' },
  ],
  TXT: [
    { type: 16, data: '"v=spf1 -all"' },
    { type: 16, data: '"_k2n1y4vw3qtb4skdx9e7dxt97qrmmq9"' },
  ],
};

const TYPE_NUMBERS: Record<string, number> = { A: 1, NS: 2, CNAME: 5, MX: 15, TXT: 16, AAAA: 28 };

/**
 * A DoH JSON answer (the JSON API dns.google and its peers serve) with the
 * example.com records above for any name asked; a type without records gets
 * an answer without an Answer section, as NODATA does.
 */
export function dohAnswer(delayMs = 0) {
  return async (req: Recorded, res: ServerResponse) => {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const name = req.query.get('name') ?? '';
    const type = (req.query.get('type') ?? 'A').toUpperCase();
    const records = DOH_SAMPLE[type];
    const body = {
      Status: 0,
      TC: false,
      RD: true,
      RA: true,
      AD: false,
      CD: false,
      Question: [{ name: `${name}.`, type: TYPE_NUMBERS[type] ?? 1 }],
      ...(records && { Answer: records.map((r) => ({ name: `${name}.`, type: r.type, TTL: 300, data: r.data })) }),
    };
    res.writeHead(200, { 'content-type': 'application/dns-json' }).end(JSON.stringify(body));
  };
}

/** Every DoH resolver of routes/dnsresolver/resolvers.json answers at once. */
export function registerDnsResolver(fake: FakeUpstream): void {
  for (const [host, path] of DOH_ENDPOINTS) fake.on('GET', host, path, dohAnswer());
}

/** The plain-DNS side of the demo: example.com's records on the loopback server every resolver is sent to. */
export function registerExampleCom(dns: FakeDns): void {
  for (const [type, answers] of Object.entries(EXAMPLE_COM)) dns.on('example.com', type, { answers });
}
