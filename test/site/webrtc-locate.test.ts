import assert from 'node:assert/strict';
import test from 'node:test';
import { locate } from '../../web/site/src/features/webrtc/locate.js';

/** Answers every fetch with `status` and `body`, and keeps the URLs asked. */
function fakeFetch(t: test.TestContext, status: number, body: unknown): string[] {
  const asked: string[] = [];
  t.mock.method(globalThis, 'fetch', async (url: string) => {
    asked.push(url);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return asked;
}

test('an address is located through /api/geo-local in the page language: its country code and network', async (t) => {
  const asked = fakeFetch(t, 200, { ip: '193.0.0.1', country: 'nl', org: 'RIPE NCC', asn: 'AS3333' });
  assert.deepEqual(await locate('193.0.0.1', 'zh-CN'), {
    status: 'done',
    place: { countryCode: 'NL', org: 'RIPE NCC' },
  });
  assert.deepEqual(asked, ['/api/geo-local?ip=193.0.0.1&lang=zh-CN']);
});

test('a country that is no code and a missing network are left empty', async (t) => {
  fakeFetch(t, 200, { country: 'Netherlands', org: null });
  assert.deepEqual(await locate('193.0.0.1', 'en'), { status: 'done', place: { countryCode: '', org: '' } });
});

test('a private or reserved address is not asked: the API would refuse it', async (t) => {
  const asked = fakeFetch(t, 400, { error: 'Not a public IP address' });
  assert.deepEqual(await locate('100.64.1.2', 'en'), { status: 'reserved' });
  assert.deepEqual(await locate('fd00::1', 'en'), { status: 'reserved' });
  assert.deepEqual(asked, []);
});

test('a refusal, a failing database or an answer carrying an error is "could not be located"', async (t) => {
  for (const [status, body] of [
    [400, { error: 'Invalid IP address' }],
    [503, { error: 'Database not loaded' }],
    [200, { country: null, error: 'lookup failed' }],
  ] as const) {
    t.mock.restoreAll();
    fakeFetch(t, status, body);
    assert.deepEqual(await locate('8.8.8.8', 'en'), { status: 'failed' }, `${status}`);
  }
});
