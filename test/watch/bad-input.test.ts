import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import webPush from 'web-push';
import { startFront, type Front } from '../command-line/front.js';
import { FakeDns } from '../support/fake-dns.js';
import { until } from '../support/until.js';
import { Receiver } from './receiver.js';
import { api, curlWatch } from './watch-flow.js';

const MALFORMED = ['short', 'a'.repeat(44), `${'a'.repeat(42)}.`, `${'a'.repeat(42)}%20`];
const UNKNOWN = 'A'.repeat(43);
const PRIVATE = 'Webhook URL points at a private address';
const NOT_HTTP = 'Webhook URL must be an http or https URL';

let dns: FakeDns;
let front: Front;
let receiver: Receiver;

before(async () => {
  dns = await FakeDns.start();
  const a = (address: string) => ({ answers: [{ type: 'A' as const, name: 'x', ttl: 60, data: address }] });
  dns.on('public.example', 'A', a('8.8.8.8'));
  dns.on('inward.example', 'A', a('192.168.1.5'));
  dns.on('metadata.example', 'A', a('169.254.169.254'));
  dns.on('mixed.example', 'A', {
    answers: [
      { type: 'A', name: 'mixed.example', ttl: 60, data: '8.8.8.8' },
      { type: 'A', name: 'mixed.example', ttl: 60, data: '127.0.0.1' },
    ],
  });
  receiver = await Receiver.start();
  front = await startFront({ REPORT_STORE: 'local', DNS_OVERRIDE_SERVER: dns.address, WATCH_MAX_PER_CLIENT: '3' });
});
after(async () => {
  await front.close();
  await receiver.close();
  await dns.close();
});

test('a malformed token is 400 Invalid watch token on every route and on the curl line', async () => {
  for (const token of MALFORMED) {
    const path = `/api/watch/${token}`;
    for (const [method, url, body] of [
      ['GET', path],
      ['DELETE', path],
      ['PUT', `${path}/webhook`, { url: 'https://public.example/' }],
      ['PUT', `${path}/push`, { subscription: null }],
      ['POST', `${path}/webhook/test`],
    ] as const) {
      assert.deepEqual(
        await api(front, method, url, body),
        { status: 400, json: { error: 'Invalid watch token' } },
        `${method} ${url}`,
      );
    }
    const line = await curlWatch(front, token, '8.8.8.8');
    assert.deepEqual([line.status, line.text], [400, 'Invalid watch token\n'], token);
  }
});

test('an unknown token is 404 Watch not found or expired, and nothing is stored under it', async () => {
  const path = `/api/watch/${UNKNOWN}`;
  const notFound = { status: 404, json: { error: 'Watch not found or expired' } };
  assert.deepEqual(await api(front, 'PUT', `${path}/webhook`, { url: 'https://public.example/' }), notFound);
  assert.deepEqual(await api(front, 'PUT', `${path}/push`, { subscription: null }), notFound);
  assert.deepEqual(await api(front, 'POST', `${path}/webhook/test`), notFound);
  assert.deepEqual(await api(front, 'DELETE', path), notFound);
  const line = await curlWatch(front, UNKNOWN, '8.8.8.8');
  assert.deepEqual([line.status, line.text], [404, 'Watch not found or expired\n']);
  assert.deepEqual(await api(front, 'GET', path), notFound, 'the curl line did not create it');
});

test('a webhook URL too long, not http(s), or reaching a private, loopback or link-local address is 400, and not stored', async () => {
  const created = await api(front, 'POST', '/api/watch');
  const token = created.json!.token as string;
  const refused: Array<[unknown, string]> = [
    [`https://public.example/${'a'.repeat(2048)}`, 'Webhook URL is longer than 2048 characters'],
    ['ftp://public.example/hook', NOT_HTTP],
    ['javascript:alert(1)', NOT_HTTP],
    ['file:///etc/passwd', NOT_HTTP],
    ['not a url', NOT_HTTP],
    ['http://127.0.0.1:9/', PRIVATE],
    ['http://[::1]/', PRIVATE],
    ['http://[::ffff:127.0.0.1]/', PRIVATE],
    ['http://10.1.2.3/', PRIVATE],
    ['http://169.254.169.254/latest/meta-data/', PRIVATE],
    ['http://[fe80::1]/', PRIVATE],
    ['http://localhost:8080/', PRIVATE],
    ['http://inward.example/hook', PRIVATE],
    ['http://metadata.example/hook', PRIVATE],
    ['http://mixed.example/hook', PRIVATE],
    ['http://nowhere.example/hook', 'Webhook URL host does not resolve'],
    [receiver.url(), PRIVATE],
  ];
  for (const [url, error] of refused) {
    const res = await api(front, 'PUT', `/api/watch/${token}/webhook`, { url });
    assert.deepEqual(res, { status: 400, json: { error } }, String(url).slice(0, 80));
  }
  for (const body of [{ url: 5 }, {}, { url: ['https://public.example/'] }]) {
    const res = await api(front, 'PUT', `/api/watch/${token}/webhook`, body);
    assert.equal(res.status, 400, JSON.stringify(body));
  }
  assert.equal((await api(front, 'GET', `/api/watch/${token}`)).json!.webhook, null, 'nothing was stored');

  // A public one is taken; the loopback receiver behind a refused URL never heard of any of it.
  const taken = await api(front, 'PUT', `/api/watch/${token}/webhook`, { url: 'https://public.example/hook' });
  assert.deepEqual(taken, { status: 200, json: { webhook: 'https://public.example/hook' } });
  assert.equal(receiver.received.length, 0);
});

test('web push is off without its settings: a subscription is 503 naming the settings, and not stored', async () => {
  const token = (await api(front, 'POST', '/api/watch')).json!.token as string;
  const subscription = { endpoint: 'https://push.example/send/1', keys: { p256dh: 'BEl6', auth: 'aGk' } };
  const res = await api(front, 'PUT', `/api/watch/${token}/push`, { subscription });
  assert.equal(res.status, 503);
  assert.match(res.json!.error as string, /WEB_PUSH_VAPID_PUBLIC_KEY, WEB_PUSH_VAPID_PRIVATE_KEY and WEB_PUSH_SUBJECT/);
  const read = await api(front, 'GET', `/api/watch/${token}`);
  assert.deepEqual(read.json!.webPush, { available: false, publicKey: null, subscribed: false });
});

test('a flood of watches from one client: past WATCH_MAX_PER_CLIENT a day it is 429, and no token is given', async () => {
  // Two were created above; the third is the last this client may make today.
  assert.equal((await api(front, 'POST', '/api/watch')).status, 201);
  const refused = await api(front, 'POST', '/api/watch');
  assert.deepEqual(refused, { status: 429, json: { message: 'Too Many Requests' } });
});

test('web push on: a private or plain-http push endpoint is refused, and a change reaches a (loopback, allowed) push service encrypted, with VAPID', async () => {
  const keys = webPush.generateVAPIDKeys();
  const vapid = {
    WEB_PUSH_VAPID_PUBLIC_KEY: keys.publicKey,
    WEB_PUSH_VAPID_PRIVATE_KEY: keys.privateKey,
    WEB_PUSH_SUBJECT: 'mailto:operator@example.com',
  };
  // A browser's subscription keys: a P-256 public key and 16 random bytes.
  const { createECDH, randomBytes } = await import('node:crypto');
  const browser = createECDH('prime256v1');
  browser.generateKeys();
  const subscriptionKeys = {
    p256dh: browser.getPublicKey().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };

  const closed = await startFront({ REPORT_STORE: 'local', DNS_OVERRIDE_SERVER: dns.address, ...vapid });
  try {
    const token = (await api(closed, 'POST', '/api/watch')).json!.token as string;
    for (const [endpoint, error] of [
      ['https://inward.example/push', 'Push subscription endpoint points at a private address'],
      ['http://public.example/push', 'Push subscription endpoint must be an https URL'],
    ] as const) {
      const res = await api(closed, 'PUT', `/api/watch/${token}/push`, {
        subscription: { endpoint, keys: subscriptionKeys },
      });
      assert.deepEqual(res, { status: 400, json: { error } });
    }
    const read = await api(closed, 'GET', `/api/watch/${token}`);
    assert.deepEqual(read.json!.webPush, { available: true, publicKey: keys.publicKey, subscribed: false });
  } finally {
    await closed.close();
  }

  // The push service is on loopback over plain HTTP here, which only the operator's setting lets through.
  const open = await startFront({ REPORT_STORE: 'local', WATCH_WEBHOOK_ALLOW_PRIVATE: 'true', ...vapid });
  const pushService = await Receiver.start();
  try {
    const token = (await api(open, 'POST', '/api/watch')).json!.token as string;
    const endpoint = pushService.url('/push/1');
    const subscribed = await api(open, 'PUT', `/api/watch/${token}/push`, {
      subscription: { endpoint, keys: subscriptionKeys },
    });
    assert.deepEqual(subscribed, { status: 200, json: { subscribed: true } });
    assert.equal((await curlWatch(open, token, '8.8.8.8')).status, 200);
    assert.equal((await curlWatch(open, token, '1.1.1.1')).text, '1.1.1.1 changed\n');
    await until(async () => pushService.received.length === 1, 30_000, 'the push message');
    const { headers, body } = pushService.received[0]!;
    assert.equal(headers['content-encoding'], 'aes128gcm');
    assert.match(String(headers.authorization), new RegExp(`^vapid t=[\\w.-]+, k=${keys.publicKey}$`));
    assert.ok(body.length > 0 && !body.includes('1.1.1.1'), 'the notice travels encrypted for the browser alone');
  } finally {
    await pushService.close();
    await open.close();
  }
});
