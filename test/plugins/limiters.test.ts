import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { APP_ROOT } from '../../lib/app-root.js';
import { SLOW_DOWN_MAX_DELAY_MS } from '../../plugins/slow-down.js';
import { isMonitoringPath } from '../../plugins/monitoring-path.js';
import { buildTestApiWith, call, type LogCapture } from '../support/app.js';
import { heldAtLeast, overHttp, slowDownProbe } from '../support/over-http.js';
import { setImmediate } from 'node:timers/promises';

// The telemetry tunnel mounts only with TELEMETRY_DSN_FRONTEND; a stand-in GET
// route shows what both global limiters do on its path.
const routes: FastifyPluginAsync = async (app) => {
  app.get('/monitoring', async (request) => ({ ok: true, slowedDown: request.slowDown !== null }));
  await app.register(slowDownProbe);
};

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const get = (app: FastifyInstance, url: string, ip = '198.51.100.10') =>
  call(app, { method: 'GET', url, headers: from(ip) });

async function until<T>(check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await setImmediate();
  }
}

const entered = (logs: LogCapture) => logs.find('entered the rate-limited state');

test('over SECURITY_RATE_LIMIT: 429 {"message":"Too Many Requests"} and one warning per entry', async () => {
  const { app, logs } = await buildTestApiWith({ SECURITY_RATE_LIMIT: '2' }, routes);
  assert.equal((await get(app, '/api/configs')).statusCode, 200);
  assert.equal((await get(app, '/api/configs')).statusCode, 200);
  for (let i = 0; i < 4; i++) {
    const res = await get(app, '/api/configs');
    assert.equal(res.statusCode, 429);
    assert.deepEqual(res.json(), { message: 'Too Many Requests' });
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.ok(Number(res.headers['retry-after']) > 0);
  }
  assert.equal(entered(logs).length, 1);
  assert.equal(entered(logs)[0]!.level, 40);
  assert.equal(entered(logs)[0]!.ip, '198.51.100.10');
  // Another client has its own budget and its own entry.
  assert.equal((await get(app, '/api/configs', '203.0.113.20')).statusCode, 200);
  assert.equal((await get(app, '/api/configs', '203.0.113.20')).statusCode, 200);
  assert.equal((await get(app, '/api/configs', '203.0.113.20')).statusCode, 429);
  assert.equal((await get(app, '/api/configs', '203.0.113.20')).statusCode, 429);
  assert.equal(entered(logs).length, 2);
  await app.close();
});

test('the limiter counts requests the Referer gate rejects, and 429s are request-logged', async () => {
  const { app, logs } = await buildTestApiWith({ SECURITY_RATE_LIMIT: '1', LOG_HTTP: 'true' }, routes);
  const noReferer = await app.inject({ method: 'GET', url: '/api/configs', headers: from('198.51.100.11') });
  assert.equal(noReferer.statusCode, 403);
  const limited = await get(app, '/api/configs', '198.51.100.11');
  assert.equal(limited.statusCode, 429);
  const line = logs.find('request completed').find((l) => l.statusCode === 429);
  assert.equal(line?.level, 40);
  await app.close();
});

test('SECURITY_RATE_LIMIT=0 disables the limiter', async () => {
  const { app } = await buildTestApiWith({}, routes);
  for (let i = 0; i < 30; i++) assert.equal((await get(app, '/api/configs')).statusCode, 200);
  await app.close();
});

test('the ledger gets one line per entry, relative to the app root, its folder created', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-'));
  const file = join(dir, 'nested', 'deeper', 'blacklist.log');
  const { app, logs } = await buildTestApiWith(
    { SECURITY_RATE_LIMIT: '1', SECURITY_BLACKLIST_LOG_FILE_PATH: relative(APP_ROOT, file) },
    routes,
  );
  await get(app, '/api/configs', '198.51.100.12');
  for (let i = 0; i < 3; i++) assert.equal((await get(app, '/api/configs', '198.51.100.12')).statusCode, 429);
  const text = await until(async () => (existsSync(file) ? readFile(file, 'utf8') : undefined));
  const lines = text.trim().split('\n');
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^\d{4}-\d\d-\d\dT\S+Z 198\.51\.100\.12 GET \/api\/configs$/);
  assert.equal(entered(logs).length, 1, 'the warning is written as well');
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

test('a ledger write failure is logged and the request is still answered', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-'));
  const blocker = join(dir, 'a-file');
  await writeFile(blocker, 'not a folder');
  const { app, logs } = await buildTestApiWith(
    { SECURITY_RATE_LIMIT: '1', SECURITY_BLACKLIST_LOG_FILE_PATH: join(blocker, 'ledger.log') },
    routes,
  );
  await get(app, '/api/configs');
  const res = await get(app, '/api/configs');
  assert.equal(res.statusCode, 429);
  assert.deepEqual(res.json(), { message: 'Too Many Requests' });
  const failure = await until(() => logs.find('could not write the rate-limit ledger')[0]);
  assert.equal(failure.level, 50);
  assert.equal((await get(app, '/api/configs')).statusCode, 429);
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

test('/api/monitoring skips both global limiters', async () => {
  const { app } = await buildTestApiWith({ SECURITY_RATE_LIMIT: '1', SECURITY_DELAY_AFTER: '1' }, routes);
  const fetch = await overHttp(app);
  for (let i = 0; i < 6; i++) {
    const res = await fetch('/api/monitoring', { headers: from('198.51.100.10') });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(JSON.parse(res.body), { ok: true, slowedDown: false }, 'never counted by the slow-down');
  }
  assert.equal((await fetch('/api/configs', { headers: from('198.51.100.10') })).statusCode, 200);
  assert.equal((await fetch('/api/configs', { headers: from('198.51.100.10') })).statusCode, 429);
  assert.equal((await fetch('/api/monitoring', { headers: from('198.51.100.10') })).statusCode, 200);
  await app.close();
});

test('slow-down: after SECURITY_DELAY_AFTER requests each one waits hits × 400 ms and is never rejected', async () => {
  const { app } = await buildTestApiWith({ SECURITY_DELAY_AFTER: '2' }, routes);
  const fetch = await overHttp(app);
  for (const due of [0, 0, 400, 800]) {
    const res = await fetch('/api/t/slow-down', { headers: from('198.51.100.10') });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(JSON.parse(res.body), { delay: due, counted: true });
    assert.ok(heldAtLeast(res.ms, due), `${res.ms} ms, due ${due}`);
  }
  const whole = await fetch('/api/configs', { headers: from('198.51.100.10') });
  assert.equal(JSON.parse(whole.body).map, false, 'a slowed-down answer is the whole answer');
  assert.ok(heldAtLeast(whole.ms, 1200));
  assert.equal(
    JSON.parse((await fetch('/api/t/slow-down', { headers: from('203.0.113.30') })).body).delay,
    0,
    'counted per client IP',
  );
  await app.close();
});

test('slow-down: the delay stops growing at the documented maximum', async () => {
  assert.equal(SLOW_DOWN_MAX_DELAY_MS, 10 * 1000);
  const { app } = await buildTestApiWith({ SECURITY_DELAY_AFTER: '1' }, routes);
  const fetch = await overHttp(app);
  // All at once, so the test waits for the longest delay only.
  const answers = await Promise.all(
    Array.from({ length: 28 }, () => fetch('/api/t/slow-down', { headers: from('198.51.100.10') })),
  );
  assert.ok(answers.every((res) => res.statusCode === 200));
  const delays = answers.map((res) => (JSON.parse(res.body) as { delay: number }).delay).sort((x, y) => x - y);
  assert.deepEqual(
    delays,
    delays.map((_, i) => Math.min(i * 400, SLOW_DOWN_MAX_DELAY_MS)),
  );
  assert.deepEqual(delays.slice(-4), [9600, 10000, 10000, 10000]);
  for (const res of answers) {
    const { delay } = JSON.parse(res.body) as { delay: number };
    assert.ok(heldAtLeast(res.ms, delay), `${res.ms} ms, due ${delay}`);
  }
  await app.close();
});

test('no limiter tells the client its quota: no x-ratelimit-* or x-slow-down-* header below the limits', async () => {
  const { app } = await buildTestApiWith({ SECURITY_RATE_LIMIT: '5', SECURITY_DELAY_AFTER: '3' }, routes);
  for (let i = 0; i < 3; i++) {
    const res = await get(app, '/api/configs');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      Object.keys(res.headers).filter((h) => /^x-(ratelimit|slow-down)-/.test(h)),
      [],
    );
  }
  await app.close();
});

test('the limiters exempt exactly /api/monitoring, with or without a trailing slash or query', () => {
  const exempt = (url: string) => isMonitoringPath({ url } as FastifyRequest);
  for (const url of ['/api/monitoring', '/api/monitoring/', '/api/monitoring?x=1', '/api/monitoring/?x=1']) {
    assert.equal(exempt(url), true, url);
  }
  for (const url of [
    '/api/monitoringx',
    '/api/monitoring/x',
    '/api/monitoring//',
    '/api/configs',
    '/api/configs?u=/api/monitoring',
  ]) {
    assert.equal(exempt(url), false, url);
  }
});
