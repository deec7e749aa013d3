import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { startFront } from '../command-line/front.js';
import { RedisServer } from '../support/redis-server.js';
import { until } from '../support/until.js';
import { Receiver } from './receiver.js';
import { api, walkThrough } from './watch-flow.js';

// The receiver listens on loopback, which only the operator's setting lets a webhook reach.
const ALLOW_LOOPBACK = { WATCH_WEBHOOK_ALLOW_PRIVATE: 'true' };

let receiver: Receiver;
before(async () => {
  receiver = await Receiver.start();
});
after(async () => {
  await receiver.close();
});

test('local store: created, hit twice from one address and once from another, the change sent to the webhook, deleted, refused after', async () => {
  receiver.received.length = 0;
  const front = await startFront({ REPORT_STORE: 'local', ...ALLOW_LOOPBACK });
  try {
    await walkThrough(front, receiver);
  } finally {
    await front.close();
  }
});

test('redis store: the same walk, and after the delete Redis holds no key of the watch', async () => {
  receiver.received.length = 0;
  const redis = await RedisServer.start();
  const client = new Redis(redis.url);
  const front = await startFront({ REPORT_STORE: 'redis', REDIS_URL: redis.url, ...ALLOW_LOOPBACK });
  try {
    await until(async () => (await api(front, 'GET', '/api/configs')).json?.reportSharing === true, 30_000, 'Redis');
    const created = await api(front, 'POST', '/api/watch');
    assert.equal(created.status, 201);
    const keys = await client.keys('netdiag:report:watch.*');
    assert.equal(keys.length, 1, 'one key per watch, named by the digest of its token');
    assert.ok(!keys[0]!.includes(created.json!.token as string), 'the token itself is not stored');
    const ttl = await client.ttl(keys[0]!);
    assert.ok(ttl > 29 * 24 * 60 * 60 && ttl <= 30 * 24 * 60 * 60, `expires after WATCH_TTL_DAYS (30): ${ttl} s`);
    assert.equal((await api(front, 'DELETE', `/api/watch/${created.json!.token as string}`)).status, 204);
    assert.deepEqual(await client.keys('netdiag:report:watch.*'), []);

    await walkThrough(front, receiver);
    assert.deepEqual(await client.keys('netdiag:report:watch*'), [], 'delete everything leaves nothing');
  } finally {
    await front.close();
    client.disconnect();
    await redis.stop();
  }
});
