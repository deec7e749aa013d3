import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadResolvers } from '../../routes/dnsresolver/resolvers.js';

test("the data file holds the site's ten providers in its order, four with DoH: fourteen rows", () => {
  const resolvers = loadResolvers();
  assert.deepEqual(
    resolvers.map((r) => [r.id, r.provider, r.country, r.udp]),
    [
      ['google', 'Google', 'US', '8.8.8.8'],
      ['cloudflare', 'Cloudflare', 'US', '1.1.1.1'],
      ['opendns', 'OpenDNS', 'US', '208.67.222.222'],
      ['quad9', 'Quad9', 'CH', '9.9.9.9'],
      ['controld', 'ControlD', 'CA', '76.76.2.0'],
      ['adguard', 'AdGuard', 'CY', '94.140.14.14'],
      ['alidns', 'AliDNS', 'CN', '223.5.5.5'],
      ['dnspod', 'DNSPod', 'CN', '119.29.29.29'],
      ['114dns', '114DNS', 'CN', '114.114.114.114'],
      ['dns4eu', 'DNS4EU', 'EU', '86.54.11.1'],
    ],
  );
  assert.deepEqual(
    resolvers.filter((r) => r.doh).map((r) => [r.id, r.doh]),
    [
      ['google', 'https://dns.google/resolve'],
      ['cloudflare', 'https://cloudflare-dns.com/dns-query?ct=application/dns-json'],
      ['adguard', 'https://dns.adguard.com/resolve'],
      ['alidns', 'https://dns.alidns.com/resolve'],
    ],
  );
});

test('a data file with a bad entry is refused at load', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'resolvers-'));
  try {
    const bad = [
      [{ id: 'x', provider: 'X', country: 'United States', udp: '1.2.3.4' }],
      [{ id: 'x', provider: 'X', country: 'US' }],
      [{ id: 'x', provider: 'X', country: 'US', doh: 'http://insecure.example/resolve' }],
      [{ id: 'X Y', provider: 'X', country: 'US', udp: '1.2.3.4' }],
      [],
    ];
    for (const list of bad) {
      const file = join(dir, 'resolvers.json');
      await writeFile(file, JSON.stringify(list));
      assert.throws(() => loadResolvers(file), /not a list of resolvers/, JSON.stringify(list));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
