import { test, after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { buildTestApi } from '../support/app.js';
import { overHttp } from '../support/over-http.js';
import { RedisServer } from '../support/redis-server.js';
import { reportOfSize } from '../support/report-of-size.js';
import { MAX_REPORT_BYTES } from '../../routes/report/index.js';

// The finding's Redis: a small memory cap and an evicting policy, as managed offerings set them.
const EVICTING = ['--maxmemory', '24mb', '--maxmemory-policy', 'allkeys-lru'];
const KEEPING = ['--maxmemory', '24mb', '--maxmemory-policy', 'noeviction'];
const NO_CONFIG = ['--rename-command', 'CONFIG', ''];
// The finding's flood: 8 IPv6 /64s, each under both its limits (30 requests in 20 minutes, 20 reports an hour).
const FLOODERS = Array.from({ length: 8 }, (_, i) => `2001:db8:${i + 1}:1::1`);
const REPORTS_EACH = 18;
const LIMITED = '198.51.100.7';
const LIMIT = 30;
const OFFLINE = { UPSTREAM_OVERRIDE_ORIGIN: 'http://127.0.0.1:9', LOG_LEVEL: 'info' };
const BIG_REPORT = JSON.stringify({ report: reportOfSize(MAX_REPORT_BYTES), ttlDays: 7 });

const servers: RedisServer[] = [];
async function redisServer(settings: string[]): Promise<RedisServer> {
  const server = await RedisServer.start(settings);
  servers.push(server);
  return server;
}
after(async () => {
  for (const server of servers) await server.stop();
});

/** The app on REPORT_STORE=redis (unless `settings` say otherwise), listening on loopback, closed after the test. */
async function apiServer(t: TestContext, settings: Record<string, string>) {
  const api = await buildTestApi({
    ...OFFLINE,
    REPORT_STORE: 'redis',
    SECURITY_RATE_LIMIT: String(LIMIT),
    ...settings,
  });
  t.after(() => api.app.close());
  return { ...api, fetch: await overHttp(api.app) };
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await check()); waited += 50) {
    if (waited > 30_000) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Api = Awaited<ReturnType<typeof apiServer>>;

const configs = async ({ fetch }: Api, ip: string) =>
  (await fetch('/api/configs', { headers: { 'x-forwarded-for': ip } })).statusCode;

/** /readyz's `redis`: each Redis by what it holds. */
const redisReady = async ({ fetch }: Api): Promise<Record<string, { ready: boolean; evictionPolicy: string | null }>> =>
  JSON.parse((await fetch('/readyz')).body).redis;

/** Takes LIMITED over the global limit, once every link is up: its 31st request is refused. */
async function limitClient(api: Api): Promise<void> {
  await until('every link up', async () => Object.values(await redisReady(api)).every((link) => link.ready));
  for (let i = 0; i < LIMIT; i++) assert.equal(await configs(api, LIMITED), 200);
  assert.equal(await configs(api, LIMITED), 429);
}

/** The flood: every flooder's reports at the size cap; the ids stored, and each status with its count. */
async function flood({
  fetch,
}: Api): Promise<{ stored: string[]; statuses: Record<number, number>; bodies: string[] }> {
  const stored: string[] = [];
  const statuses: Record<number, number> = {};
  const bodies = new Set<string>();
  for (const ip of FLOODERS) {
    for (let i = 0; i < REPORTS_EACH; i++) {
      const res = await fetch('/api/report', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: BIG_REPORT,
      });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      if (res.statusCode === 201) stored.push(JSON.parse(res.body).id);
      else bodies.add(res.body);
    }
  }
  return { stored, statuses, bodies: [...bodies] };
}

/** How many of `ids` are no longer there (each asked by a client of its own, so no limit answers instead). */
async function lost({ fetch }: Api, ids: string[]): Promise<number> {
  let missing = 0;
  for (const [i, id] of ids.entries()) {
    const res = await fetch(`/api/report/${id}`, { headers: { 'x-forwarded-for': `198.18.0.${i + 1}` } });
    if (res.statusCode === 404) missing++;
    else assert.equal(res.statusCode, 200, res.body);
  }
  return missing;
}

/** Waits for the one start-up line that contains `text`, and gives it. */
async function logged(api: Api, text: string): Promise<Record<string, unknown>> {
  await until(`the line: ${text}`, () => api.logs.find(text).length > 0);
  const lines = api.logs.find(text);
  assert.equal(lines.length, 1, api.logs.text);
  return lines[0]!;
}

async function evictedKeys(server: RedisServer): Promise<number> {
  const client = new Redis(server.url);
  const stats = await client.info('stats');
  client.disconnect();
  return Number(/evicted_keys:(\d+)/.exec(stats)![1]);
}

/** The figures the finding gave, for bench/results: what the flood cost. */
async function figures(t: TestContext, api: Api, counters: RedisServer, result: Awaited<ReturnType<typeof flood>>) {
  const lostReports = await lost(api, result.stored);
  const limitedStatus = await configs(api, LIMITED);
  const evicted = await evictedKeys(counters);
  t.diagnostic(
    `keys evicted from the counters' Redis ${evicted}; reports lost ${lostReports} of ${result.stored.length} ` +
      `stored (${JSON.stringify(result.statuses)}); limited client's next status ${limitedStatus}`,
  );
  return { lostReports, limitedStatus, evicted };
}

test('one evicting Redis for both: the start-up line says a report flood loosens limits and loses reports, and it does', async (t) => {
  const shared = await redisServer(EVICTING);
  const api = await apiServer(t, { REDIS_URL: shared.url });
  await limitClient(api);
  const line = await logged(api, 'Redis holds both rate-limit counters and shared reports and evicts keys when full');
  assert.equal(line.level, 40);
  assert.match(
    line.msg as string,
    /\(maxmemory-policy allkeys-lru, maxmemory 24 MB\): a report flood resets clients' counts early, so their limits loosen, and deletes reports before they expire; give reports a Redis of their own with maxmemory-policy noeviction \(REPORT_REDIS_URL\)$/,
  );
  const { lostReports, evicted } = await figures(t, api, shared, await flood(api));
  assert.ok(evicted > 0 && lostReports > 0, 'the cost the line names');
});

test('REPORT_REDIS_URL on a second, noeviction Redis: the flood evicts no counter (the limited client stays 429), loses no report, and is told 507 once the store is full', async (t) => {
  const counters = await redisServer(EVICTING);
  const reports = await redisServer(KEEPING);
  const api = await apiServer(t, { REDIS_URL: counters.url, REPORT_REDIS_URL: reports.url });
  await limitClient(api);
  await logged(
    api,
    "Redis evicts keys when full (maxmemory-policy allkeys-lru, maxmemory 24 MB): a full Redis resets clients' rate-limit counts early, so their limits loosen; size its maxmemory for the counters (REDIS_URL)",
  );
  await logged(
    api,
    'Redis for shared reports keeps every report when full (maxmemory-policy noeviction, maxmemory 24 MB): POST /api/report answers 507 until reports expire or maxmemory is raised (REPORT_REDIS_URL)',
  );

  const result = await flood(api);
  const { lostReports, limitedStatus, evicted } = await figures(t, api, counters, result);
  assert.equal(evicted, 0);
  assert.equal(limitedStatus, 429);
  assert.equal(lostReports, 0);
  assert.ok(result.stored.length > 0, JSON.stringify(result.statuses));
  // A write that outlasts the 250 ms command timeout on a busy machine is the store's 500; nothing else is.
  assert.ok(result.bodies.includes('{"error":"Report store is full"}'), JSON.stringify(result.bodies));
  for (const body of result.bodies) {
    assert.ok(['{"error":"Report store is full"}', '{"error":"Report store unavailable"}'].includes(body), body);
  }
  assert.equal(await evictedKeys(reports), 0);
  const full = api.logs.find('the Redis for shared reports is full');
  assert.equal(full.length, 1, 'one warning, its repeats summed up later');
  assert.match(full[0]!.msg as string, /raise its maxmemory \(REPORT_REDIS_URL, docs\/scale-out\.md\)$/);

  assert.deepEqual(await redisReady(api), {
    limits: { ready: true, evictionPolicy: 'allkeys-lru' },
    reports: { ready: true, evictionPolicy: 'noeviction' },
  });
  // The reports' Redis alone goes away: /readyz tells them apart, and the limits stay shared.
  await reports.stop();
  await until('reports down', async () => (await redisReady(api)).reports!.ready === false);
  assert.equal((await redisReady(api)).limits!.ready, true);
  await logged(
    api,
    'Redis for shared reports is unreachable: report sharing is off until it is back (REPORT_REDIS_URL)',
  );
});

test('REPORT_REDIS_URL naming a database of the same server: the reports are kept in that database, apart from the counters', async (t) => {
  const server = await redisServer([]);
  const api = await apiServer(t, { REDIS_URL: server.url, REPORT_REDIS_URL: `${server.url}/3` });
  await limitClient(api);
  const res = await api.fetch('/api/report', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BIG_REPORT,
  });
  assert.equal(res.statusCode, 201);
  const key = `netdiag:report:${JSON.parse(res.body).id}`;
  const [db0, db3] = [new Redis(server.url), new Redis(`${server.url}/3`)];
  assert.equal(await db0.exists(key), 0);
  assert.equal(await db3.exists(key), 1);
  assert.ok((await db0.keys('netdiag:limit:*')).length > 0);
  assert.deepEqual(await db3.keys('netdiag:limit:*'), []);
  db0.disconnect();
  db3.disconnect();
  assert.deepEqual(Object.keys(await redisReady(api)), ['limits', 'reports']);
});

test('a Redis that refuses CONFIG (as managed ones may): the start-up line says the policy could not be read and what to check', async (t) => {
  const counters = await redisServer(NO_CONFIG);
  const reports = await redisServer(NO_CONFIG);
  const api = await apiServer(t, { REDIS_URL: counters.url, REPORT_REDIS_URL: reports.url });
  await until('both lines', () => api.logs.find('could not be read').length === 2);
  const [limits, kept] = ['rate limits', 'shared reports'].map(
    (what) => api.logs.find(`the eviction policy of the Redis for ${what} could not be read (CONFIG GET refused)`)[0],
  );
  assert.ok(limits && kept, api.logs.text);
  assert.match(
    limits.msg as string,
    /check its maxmemory-policy with its provider: an evicting policy resets rate-limit counts early when it is full \(REDIS_URL, docs\/scale-out\.md\)$/,
  );
  assert.match(
    kept.msg as string,
    /it must be noeviction, or a full Redis deletes shared reports before they expire \(REPORT_REDIS_URL, docs\/scale-out\.md\)$/,
  );
  assert.match(kept.reason as string, /unknown command/);
  // Reports are stored all the same.
  await limitClient(api);
  assert.deepEqual((await redisReady(api)).reports, { ready: true, evictionPolicy: null });
});

test('the counters in a full noeviction Redis: the limiters keep serving, counting in the process, say why once, and share again once it has room', async (t) => {
  const counters = await redisServer(['--maxmemory', '8mb', '--maxmemory-policy', 'noeviction']);
  const filler = new Redis(counters.url);
  const api = await apiServer(t, { REDIS_URL: counters.url, REPORT_STORE: 'kv', SECURITY_RATE_LIMIT: '3' });
  await until('link up', async () => (await redisReady(api)).limits!.ready);
  // Its data now over maxmemory, Redis refuses every write, the counters' scripts included.
  await filler.set('filler', 'x'.repeat(1024 * 1024));
  await filler.config('SET', 'maxmemory', '1mb');
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push(await configs(api, LIMITED));
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  const full = api.logs.find('Redis is full (used memory over maxmemory, nothing evicted)');
  assert.equal(full.length, 1);
  assert.equal(
    full[0]!.msg,
    'Redis is full (used memory over maxmemory, nothing evicted): rate limits count in this process only until it has room; raise its maxmemory (REDIS_URL, docs/scale-out.md)',
  );

  await filler.config('SET', 'maxmemory', '8mb');
  filler.disconnect();
  assert.equal(await configs(api, '198.51.100.8'), 200);
  await logged(api, 'Redis has room again: rate limits are shared across instances again');
});
