import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { RedisServer } from '../support/redis-server.js';
import { startFront, type FrontServer } from '../support/front-server.js';
import { until } from '../support/until.js';

const LIMIT = 3;
const CLIENT = '203.0.113.9';
const REFUSED = 'Too many speed test requests from your address; try again later';

let redis: RedisServer;
before(async () => {
  redis = await RedisServer.start();
});
after(async () => {
  await redis.stop();
});

/** A download of nothing from /speed/down on `front`, as the page asks for it from CLIENT; its status and body. */
async function speedDown(front: FrontServer): Promise<{ status: number; body: string }> {
  const res = await request(`${front.origin}/speed/down?bytes=0`, {
    headers: { referer: 'http://localhost/speed', 'x-forwarded-for': CLIENT },
  });
  return { status: res.statusCode, body: await res.body.text() };
}

/** Waits until the instance's Redis link is usable, so its counts go to Redis rather than to memory. */
const untilRedisReady = (front: FrontServer) =>
  until(async () => front.api.readiness.report().redis?.limits?.ready === true, 30_000, 'the Redis link to be usable');

test('with REDIS_URL the speed limiter counts in Redis, one count for every instance', async () => {
  const env = { REDIS_URL: redis.url, SPEEDTEST_RATE_LIMIT: String(LIMIT) };
  const a = await startFront(env);
  const b = await startFront(env);
  const client = new Redis(redis.url);
  try {
    await untilRedisReady(a);
    await untilRedisReady(b);
    for (let n = 1; n <= LIMIT; n++) assert.equal((await speedDown(a)).status, 200, `request ${n} on instance A`);
    const keys = await client.keys('netdiag:limit:speed:*');
    assert.equal(keys.length, 1, 'one counter for the client, in Redis');
    assert.equal(await client.get(keys[0]!), String(LIMIT));
    assert.deepEqual(await speedDown(b), { status: 429, body: JSON.stringify({ error: REFUSED }) }, 'instance B');
  } finally {
    client.disconnect();
    await a.close();
    await b.close();
  }
});
