import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detect, readAddress, type Outcome } from '../../web/site/src/lib/echo.js';
import { detectors, familySummary } from '../../web/site/src/features/addresses/detectors.js';

test('each answer form gives its address, and only one of the wanted family', () => {
  const trace = 'fl=12\nh=1.0.0.1\nip=203.0.113.9\nts=1\nloc=NL\n';
  assert.equal(readAddress(trace, 'trace', 'IPv4'), '203.0.113.9');
  assert.equal(readAddress(trace, 'trace', 'IPv6'), null);
  assert.equal(readAddress('{"ip":"2001:db8::1"}', 'json-ip', 'IPv6'), '2001:db8::1');
  assert.equal(readAddress('{"ret":"ok","data":{"ip":"198.51.100.4"}}', 'json-data-ip', null), '198.51.100.4');
  assert.equal(readAddress('{"remote_addr":"198.51.100.5"}', 'json-remote-addr', null), '198.51.100.5');
  assert.equal(readAddress('<html>', 'json-ip', null), null);
  assert.equal(readAddress('{"ip":"not an address"}', 'json-ip', null), null);
});

test('the per-family hostnames of this site are asked only when the operator set them', () => {
  const none = detectors({ ipv4Origin: null, ipv6Origin: null }).map((d) => d.id);
  assert.ok(!none.includes('site-v4') && !none.includes('site-v6'));
  const both = detectors({ ipv4Origin: 'https://v4.example', ipv6Origin: 'https://v6.example' });
  assert.equal(both.find((d) => d.id === 'site-v6')?.urls[0]?.url, 'https://v6.example/api/client-ip');
});

const answer = (status: number, body: string) => new Response(body, { status });

test('a detector falls back to its next address, and says whether it failed, timed out or answered nothing usable', async () => {
  const [cloudflare] = detectors({ ipv4Origin: null, ipv6Origin: null }).filter((d) => d.id === 'cloudflare-v4');
  const asked: string[] = [];
  const fallback: typeof fetch = async (url) => {
    asked.push(String(url));
    return String(url).includes('1.0.0.1') ? answer(500, '') : answer(200, '{"ip":"198.51.100.7"}');
  };
  const signal = new AbortController().signal;
  assert.deepEqual(await detect(cloudflare!, fallback, signal), { state: 'done', ip: '198.51.100.7', family: 'IPv4' });
  assert.equal(asked.length, 2);
  const hanging: typeof fetch = (_url, init) =>
    new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
  assert.deepEqual(await detect(cloudflare!, hanging, signal, 20), { state: 'error', reason: 'timeout' });
  assert.deepEqual(await detect(cloudflare!, async () => answer(200, '{"ip":"2001:db8::1"}'), signal), {
    state: 'error',
    reason: 'unusable',
  });
  assert.deepEqual(await detect(cloudflare!, async () => Promise.reject(new TypeError('refused')), signal), {
    state: 'error',
    reason: 'failed',
  });
});

test('detectors that see another address than this site are marked, per family', () => {
  const done = (ip: string, family: 'IPv4' | 'IPv6' = 'IPv4'): Outcome => ({ state: 'done', ip, family });
  const results = [
    { id: 'site', outcome: done('203.0.113.1') },
    { id: 'ipify-v4', outcome: done('203.0.113.1') },
    { id: 'cloudflare-v4', outcome: done('198.51.100.2') },
    { id: 'ipify-v6', outcome: done('2001:db8::1', 'IPv6') },
    { id: 'china', outcome: { state: 'error', reason: 'timeout' } as Outcome },
  ];
  const v4 = familySummary(results, 'IPv4');
  assert.equal(v4.reference, '203.0.113.1');
  assert.deepEqual([...v4.differing], ['cloudflare-v4']);
  assert.deepEqual(v4.addresses, ['203.0.113.1', '198.51.100.2']);
  const v6 = familySummary(results, 'IPv6');
  assert.equal(v6.reference, '2001:db8::1');
  assert.equal(v6.differing.size, 0);
});
