import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { assertErrorAnswer, buildTestApi, call, type TestApi } from '../support/app.js';
import { RedisServer } from '../support/redis-server.js';
import { spawnServer } from '../support/real-server.js';
import { ConfigError, loadConfig } from '../../fastify.config.js';
import { EXAMPLE_REPORT } from '../../routes/report/examples.js';

const DAY_S = 24 * 60 * 60;

let redis: RedisServer;
let client: Redis;

before(async () => {
  redis = await RedisServer.start();
  client = new Redis(redis.url);
});
after(async () => {
  client.disconnect();
  await redis.stop();
});

/** The app on REPORT_STORE=redis, once its link to Redis is up (it connects in the background). */
async function redisApp(): Promise<TestApi> {
  const built = await buildTestApi({ REPORT_STORE: 'redis', REDIS_URL: redis.url });
  await until(async () => (await call(built.app, '/api/configs')).json().reportSharing === true);
  return built;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await check()); waited += 50) {
    if (waited > 30_000) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const post = (api: TestApi, ttlDays: number) =>
  call(api.app, { method: 'POST', url: '/api/report', payload: { report: EXAMPLE_REPORT, ttlDays } });

test('redis store: a report round-trips; the key holds {expiresAt, report} and expires after ttlDays × 86400 s', async () => {
  const api = await redisApp();
  const res = await post(api, 3);
  assert.equal(res.statusCode, 201);
  const { id, expiresAt } = res.json();
  const key = `netdiag:report:${id}`;
  assert.equal(await client.get(key), JSON.stringify({ expiresAt, report: EXAMPLE_REPORT }));
  const ttl = await client.ttl(key);
  assert.ok(ttl > 3 * DAY_S - 60 && ttl <= 3 * DAY_S, `TTL ${ttl}`);

  const read = await call(api.app, `/api/report/${id}`);
  assert.equal(read.statusCode, 200);
  assert.equal(read.headers['cache-control'], 'no-store');
  assert.deepEqual(read.json(), { expiresAt, report: EXAMPLE_REPORT });
  await api.app.close();
});

test('redis store: a key Redis has dropped, or one past its stored expiry, is 404 Report not found or expired', async () => {
  const api = await redisApp();
  const { id } = (await post(api, 1)).json();
  await client.del(`netdiag:report:${id}`);
  assertErrorAnswer(await call(api.app, `/api/report/${id}`), 404, 'Report not found or expired');

  const past = new Date(Date.now() - 1000).toISOString();
  await client.set(
    'netdiag:report:pastReport00000000000A',
    JSON.stringify({ expiresAt: past, report: EXAMPLE_REPORT }),
  );
  assertErrorAnswer(await call(api.app, '/api/report/pastReport00000000000A'), 404, 'Report not found or expired');
  await api.app.close();
});

test('redis store: while Redis is down sharing reads as off and the report routes are 500, and both come back with it', async () => {
  const api = await redisApp();
  await redis.stop();
  try {
    await until(async () => (await call(api.app, '/api/configs')).json().reportSharing === false);
    assert.deepEqual((await api.app.inject('/readyz')).json().reportStore, { kind: 'redis', ready: false });
    assertErrorAnswer(await post(api, 1), 500, 'Report store unavailable');
    assertErrorAnswer(await call(api.app, '/api/report/demoReport0123456789AB'), 500, 'Report store unavailable');
  } finally {
    await redis.start();
  }
  await until(async () => (await call(api.app, '/api/configs')).json().reportSharing === true);
  assert.deepEqual((await api.app.inject('/readyz')).json().reportStore, { kind: 'redis', ready: true });
  assert.equal((await post(api, 1)).statusCode, 201);
  await api.app.close();
});

test('REPORT_STORE=redis without REDIS_URL or REPORT_REDIS_URL: the settings are refused, and the service does not start, saying why', async () => {
  assert.throws(
    () => loadConfig({ REPORT_STORE: 'redis' }),
    (err: Error) => err instanceof ConfigError && /REPORT_STORE=redis needs REDIS_URL/.test(err.message),
  );
  assert.throws(() => loadConfig({ REPORT_STORE: 'sqlite' }), /Invalid setting REPORT_STORE="sqlite"/);
  assert.equal(loadConfig({}).REPORT_STORE, 'kv');

  const server = await spawnServer({ REPORT_STORE: 'redis' });
  const [code] = await server.exit;
  assert.equal(code, 1);
  assert.match(
    server.stderr(),
    /REPORT_STORE=redis needs REDIS_URL or REPORT_REDIS_URL: set one, or choose REPORT_STORE=kv or local/,
  );
});
