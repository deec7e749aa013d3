import type { ServerResponse } from 'node:http';
import type { FakeUpstream, Recorded } from '../fake-upstream.js';

export const DOH_ENDPOINTS: ReadonlyArray<[host: string, path: string]> = [
  ['dns.google', '/resolve'],
  ['cloudflare-dns.com', '/dns-query'],
  ['dns.adguard-dns.com', '/resolve'],
  ['dns.alidns.com', '/resolve'],
];

const SAMPLE: Record<string, { type: number; data: string }> = {
  A: { type: 1, data: '93.184.215.14' },
  AAAA: { type: 28, data: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' },
  MX: { type: 15, data: '0 .' },
  TXT: { type: 16, data: '"v=spf1 -all"' },
  NS: { type: 2, data: 'a.iana-servers.net.' },
};

/** A DoH JSON answer (RFC 8484 JSON flavour, as dns.google serves it) for any name: one sample record per common type. */
export function dohAnswer(delayMs = 0) {
  return async (req: Recorded, res: ServerResponse) => {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const name = req.query.get('name') ?? '';
    const type = (req.query.get('type') ?? 'A').toUpperCase();
    const sample = SAMPLE[type];
    const body = {
      Status: 0,
      TC: false,
      RD: true,
      RA: true,
      AD: false,
      CD: false,
      Question: [{ name: `${name}.`, type: sample?.type ?? 1 }],
      ...(sample && { Answer: [{ name: `${name}.`, type: sample.type, TTL: 300, data: sample.data }] }),
    };
    res.writeHead(200, { 'content-type': 'application/dns-json' }).end(JSON.stringify(body));
  };
}

/** Every DoH resolver of routes/dnsresolver/resolvers.json answers at once. */
export function registerDnsResolver(fake: FakeUpstream): void {
  for (const [host, path] of DOH_ENDPOINTS) fake.on('GET', host, path, dohAnswer());
}
