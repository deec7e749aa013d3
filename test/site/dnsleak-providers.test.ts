import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROVIDERS } from '../../web/site/src/features/dnsleak/providers.js';
import { base36, TAG, type NameSource } from '../../web/site/src/features/dnsleak/random-names.js';

const provider = (id: string) => PROVIDERS.find((p) => p.id === id)!;

function names(random = 0.123456789, now = 1764115200123): NameSource {
  return { now: () => now, random: () => random, bytes: (n) => Uint8Array.from({ length: n }, (_, i) => i * 7) };
}

test('the four providers in the reference order, each asked over HTTPS', () => {
  assert.deepEqual(
    PROVIDERS.map((p) => p.id),
    ['ipapi', 'surfshark', 'ipleak', 'fastly'],
  );
  for (const p of PROVIDERS) assert.match(p.url(names()), /^https:\/\//);
});

test("each provider's name is fresh, carries our tag and never MyIP's author's, and is a valid DNS label", () => {
  const digits = base36(names());
  assert.ok(digits.length > 0 && digits.length <= 9);
  assert.equal(provider('ipapi').url(names()), `https://1764115200123${TAG}${digits}.edns.ip-api.com/json`);
  assert.equal(provider('surfshark').url(names()), `https://nd${digits}.ipv4.surfsharkdns.com/`);
  assert.equal(
    provider('fastly').url(names()),
    `https://1764115200123${TAG}${digits}.u.fastly-analytics.com/debug_resolver`,
  );
  const ipleak = new URL(provider('ipleak').url(names())).hostname;
  assert.match(ipleak, /^[a-z0-9]{40}-1\.ipleak\.net$/);
  for (const p of PROVIDERS) {
    const url = p.url(names(Math.random(), Date.now()));
    assert.doesNotMatch(url, /jason5ng32/);
    const label = new URL(url).hostname.split('.')[0]!;
    assert.ok(label.length <= 63 && /^[a-z0-9-]+$/.test(label), url);
  }
  assert.notEqual(
    provider('ipapi').url(names(0.1)),
    provider('ipapi').url(names(0.2)),
    'another random number, another name',
  );
});

test('each answer is read where its provider puts the resolver', () => {
  assert.equal(
    provider('ipapi').read({ dns: { ip: '193.0.0.10', geo: 'Netherlands - RIPE' }, edns: null }),
    '193.0.0.10',
  );
  assert.equal(
    provider('surfshark').read({ 'x1.ipv4': { Country: 'Germany', IP: '2a01:4f8::53', ISP: 'Hetzner' } }),
    '2a01:4f8::53',
  );
  assert.equal(
    provider('surfshark').read({ a: { note: 'no ip' }, b: { IP: '8.8.8.8' }, c: { IP: '1.1.1.1' } }),
    '8.8.8.8',
    'the first lookup with an address',
  );
  assert.equal(provider('ipleak').read({ ip: { '8.8.8.1': 2, '193.0.0.10': 5, '1.1.1.1': '3' } }), '193.0.0.10');
  assert.equal(provider('fastly').read({ dns_resolver_info: { ip: '1.1.1.1', as_name: 'Cloudflare' } }), '1.1.1.1');
});

test('an answer without a valid address names no resolver, whatever its shape', () => {
  const hostile = [
    null,
    'text',
    42,
    [],
    {},
    { dns: null },
    { dns: { ip: '999.1.1.1' } },
    { dns: { ip: '<img src=x>' } },
    { dns: { ip: ['8.8.8.8'] } },
    { ip: { 'not-an-ip': 9 } },
    { ip: [] },
    { dns_resolver_info: { ip: 8 } },
    { a: 'IP', b: { IP: '' } },
  ];
  for (const body of hostile) {
    for (const p of PROVIDERS) assert.equal(p.read(body), null, `${p.id}: ${JSON.stringify(body)}`);
  }
});
