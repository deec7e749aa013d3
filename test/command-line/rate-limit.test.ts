import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REFERER } from '../support/app.js';
import { INDEX_HTML, startFront } from './front.js';

const CURL = { 'user-agent': 'curl/8.5.0', accept: '*/*' };
const NAVIGATION = { 'user-agent': 'Mozilla/5.0 Firefox/133.0', accept: 'text/html,*/*;q=0.8' };
const LIMIT = 4;

test("the global rate limit counts the face's requests with /api's, per client, and answers 429 in plain text", async () => {
  const front = await startFront({ SECURITY_RATE_LIMIT: String(LIMIT) });
  try {
    const client = { ...CURL, 'x-forwarded-for': '198.51.100.7' };
    // Two on the face and one on /api: one budget of LIMIT for this client.
    assert.equal((await front.get('/ip', client)).status, 200);
    assert.equal((await front.get('/json?ip=8.8.8.8', client)).status, 200);
    assert.equal((await front.get('/api/configs', { ...REFERER, 'x-forwarded-for': '198.51.100.7' })).status, 200);
    // A browser's page is the site's, which the limiter does not count.
    for (let i = 0; i < LIMIT; i++) {
      assert.equal((await front.get('/ip', { ...NAVIGATION, 'x-forwarded-for': '198.51.100.7' })).text, INDEX_HTML);
    }
    assert.equal((await front.get('/country?ip=8.8.8.8', client)).text, 'United States\n', 'the last one allowed');

    const limited = await front.get('/country?ip=8.8.8.8', client);
    assert.equal(limited.status, 429);
    assert.equal(limited.text, 'Too Many Requests\n');
    assert.equal(limited.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(limited.headers['cache-control'], 'no-store');
    assert.ok(Number(limited.headers['retry-after']) > 0, 'says when to retry, as /api does');

    const asJson = await front.get('/', { accept: 'application/json', 'x-forwarded-for': '198.51.100.7' });
    assert.equal(asJson.status, 429);
    assert.deepEqual(JSON.parse(asJson.text), { message: 'Too Many Requests' }, "the spec's 429 body for JSON");
    const api = await front.get('/api/configs', { ...REFERER, 'x-forwarded-for': '198.51.100.7' });
    assert.equal(api.status, 429, '/api is over the same limit');

    // Another client, and an IPv6 client, each have a budget of their own.
    assert.equal((await front.get('/ip', { ...CURL, 'x-forwarded-for': '198.51.100.8' })).text, '198.51.100.8\n');
    assert.equal((await front.get('/ip', { ...CURL, 'x-forwarded-for': '2001:db8:1:2::5' })).status, 200);
  } finally {
    await front.close();
  }
});

test('IPv6 clients are counted by their /64, as on /api', async () => {
  const front = await startFront({ SECURITY_RATE_LIMIT: '2' });
  try {
    const from = (ip: string) => ({ ...CURL, 'x-forwarded-for': ip });
    assert.equal((await front.get('/ip', from('2001:db8:1:2::1'))).status, 200);
    assert.equal((await front.get('/ip', from('2001:db8:1:2::2'))).status, 200);
    const third = await front.get('/ip', from('2001:db8:1:2:ffff::3'));
    assert.equal(third.status, 429, 'the same /64');
    assert.equal(third.text, 'Too Many Requests\n');
  } finally {
    await front.close();
  }
});
