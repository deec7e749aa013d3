import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { CLIENT_IP, clientIp } from '../../lib/client-ip.js';
import { UpstreamFailure } from '../../lib/upstream-failure.js';
import { assertErrorAnswer, buildTestApiWith, call } from '../support/app.js';

class Teapot extends Error {
  readonly statusCode = 418;
}

const routes: FastifyPluginAsync = async (app) => {
  app.get(
    '/t/cached',
    { schema: { querystring: Type.Object({ code: Type.Integer() }) }, config: { cacheTtl: 30 * 24 * 60 * 60 } },
    async (request, reply) => reply.code((request.query as { code: number }).code).send({ ok: true }),
  );
  app.get('/t/plain', async () => ({ ok: true }));
  app.get('/t/throw', async () => {
    throw new Error('boom went the upstream');
  });
  app.get('/t/teapot', async () => {
    throw new Teapot('short and stout');
  });
  app.get(
    '/t/upstream',
    { schema: { querystring: Type.Object({ kind: Type.String() }) }, config: { cacheTtl: 60 } },
    async (request) => {
      const { kind } = request.query as { kind: string };
      const failureKind = kind === 'failed' ? 'unusable' : kind === 'unreachable' ? 'unreachable' : 'timeout';
      throw new UpstreamFailure(failureKind, 'test upstream failed', { kind });
    },
  );
  app.post('/t/body', async (request) => ({ size: JSON.stringify(request.body).length }));
  app.get('/t/ip', async (request) => ({ ip: clientIp(request) }));
  // Own-property test before anyone asks for the IP: the slot comes with the request object.
  app.get('/t/ip-slot', async (request) => ({ slot: Object.hasOwn(request, CLIENT_IP) }));
};

const build = (env: Record<string, string> = {}) => buildTestApiWith(env, routes);

test('Cache-Control is no-store by default and public max-age only below 400 on a cacheable route', async () => {
  const { app } = await build();
  assert.equal((await call(app, '/api/t/plain')).headers['cache-control'], 'no-store');
  for (const code of [200, 204, 301, 304, 399]) {
    assert.equal(
      (await call(app, `/api/t/cached?code=${code}`)).headers['cache-control'],
      'public, max-age=2592000',
      String(code),
    );
  }
  for (const code of [400, 404, 429, 500, 503]) {
    assert.equal((await call(app, `/api/t/cached?code=${code}`)).headers['cache-control'], 'no-store', String(code));
  }
  const invalid = await call(app, '/api/t/cached?code=abc');
  assert.equal(invalid.statusCode, 400);
  assert.equal(invalid.headers['cache-control'], 'no-store');
  await app.close();
});

test('a JSON body up to 500 KB is parsed; a larger one gets 413', async () => {
  const { app } = await build();
  const body = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - 10) });
  const small = await call(app, {
    method: 'POST',
    url: '/api/t/body',
    payload: body(499 * 1024),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(small.statusCode, 200);
  const large = await call(app, {
    method: 'POST',
    url: '/api/t/body',
    payload: body(501 * 1024),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(large.statusCode, 413);
  assert.equal(large.headers['cache-control'], 'no-store');
  await app.close();
});

test('an unknown /api route is a 404 JSON body', async () => {
  const { app } = await build();
  const res = await call(app, '/api/no-such-route?x=1');
  assert.equal(res.statusCode, 404);
  assert.match(String(res.headers['content-type']), /application\/json/);
  assert.deepEqual(res.json(), { error: 'Not Found' });
  await app.close();
});

test('an unexpected error (a bug) is a fixed 500 {"error": "Internal server error"}, its text and stack only in the log', async () => {
  const { app, logs } = await build();
  const res = await call(app, '/api/t/throw');
  assertErrorAnswer(res, 500, 'Internal server error');
  assert.ok(!res.body.includes('boom'), 'not its own text');
  assert.ok(!res.body.includes('at '), 'no stack frames');
  const [logged, ...more] = logs.find('request failed');
  assert.equal(more.length, 0, 'logged once');
  assert.equal(logged!.level, 50);
  assert.equal((logged!.err as { message: string }).message, 'boom went the upstream');
  assert.match((logged!.err as { stack: string }).stack, /\n\s+at /);
  await app.close();
});

test('a status error keeps its status and message; a bad JSON body is a 400 {error}', async () => {
  const { app } = await build();
  const teapot = await call(app, '/api/t/teapot');
  assertErrorAnswer(teapot, 418, 'short and stout');
  const badJson = await call(app, {
    method: 'POST',
    url: '/api/t/body',
    payload: '{"a":',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(badJson.statusCode, 400);
  assert.deepEqual(Object.keys(badJson.json()), ['error']);
  await app.close();
});

test('a thrown upstream failure is answered with its status and the spec string, logged once, the repeats of its kind at debug', async () => {
  const { app, logs } = await build();
  for (const [kind, status, error] of [
    ['failed', 502, 'Upstream error'],
    ['unreachable', 502, 'Upstream fetch failed'],
    ['timeout', 504, 'Upstream timeout'],
  ] as const) {
    const res = await call(app, `/api/t/upstream?kind=${kind}`);
    assertErrorAnswer(res, status, error, kind);
  }
  // Same route, message and (causeless) reason: one kind, its first failure a warning (plugins/failure-log.ts).
  const lines = logs.lines.filter((l) => l.msg === 'test upstream failed');
  assert.deepEqual(
    lines.map((l) => [l.level, l.kind]),
    [
      [40, 'failed'],
      [20, 'unreachable'],
      [20, 'timeout'],
    ],
  );
  assert.equal(logs.find('request failed').length, 0);
  await app.close();
});

test('client IP: cf-connecting-ip, then the first x-forwarded-for entry, then cf-connecting-ipv6, then the socket', async () => {
  const { app } = await build();
  const ip = async (headers: Record<string, string>) =>
    (await call(app, { method: 'GET', url: '/api/t/ip', headers })).json().ip;
  const all = {
    'cf-connecting-ip': '198.51.100.1',
    'x-forwarded-for': '203.0.113.2, 10.0.0.1',
    'cf-connecting-ipv6': '2001:db8::3',
  };
  assert.equal(await ip(all), '198.51.100.1');
  assert.equal(
    await ip({ 'x-forwarded-for': all['x-forwarded-for'], 'cf-connecting-ipv6': all['cf-connecting-ipv6'] }),
    '203.0.113.2',
  );
  assert.equal(await ip({ 'cf-connecting-ipv6': all['cf-connecting-ipv6'] }), '2001:db8::3');
  assert.equal(await ip({ 'x-forwarded-for': '', 'cf-connecting-ip': ' ' }), '127.0.0.1');
  assert.equal(await ip({}), '127.0.0.1');
  await app.close();
});

test('client IP: a source that is not one address is skipped, and IPv6 has one spelling', async () => {
  const { app } = await build();
  const ip = async (headers: Record<string, string>) =>
    (await call(app, { method: 'GET', url: '/api/t/ip', headers })).json().ip;
  assert.equal(await ip({ 'cf-connecting-ip': 'not-an-ip', 'x-forwarded-for': '203.0.113.2' }), '203.0.113.2');
  assert.equal(
    await ip({
      'cf-connecting-ip': '1.2.3.4 GET /forged',
      'x-forwarded-for': 'x'.repeat(16_384),
      'cf-connecting-ipv6': '2001:DB8:0:0::3',
    }),
    '2001:db8::3',
  );
  assert.equal(await ip({ 'cf-connecting-ip': '203.0.113.999', 'x-forwarded-for': '01.2.3.4, 10.0.0.1' }), '127.0.0.1');
  assert.equal(await ip({ 'cf-connecting-ipv6': 'fe80::1%eth0' }), '127.0.0.1', 'a zone index names no client');
  assert.equal(await ip({ 'x-forwarded-for': '::ffff:198.51.100.7' }), '198.51.100.7');
  await app.close();
});

test('a request works out its client IP once, however many hooks ask', async () => {
  let reads = 0;
  const headers = {};
  Object.defineProperty(headers, 'x-forwarded-for', {
    get: () => {
      reads++;
      return '203.0.113.9, 10.0.0.1';
    },
    enumerable: true,
  });
  const request = { headers, socket: { remoteAddress: '127.0.0.1' } } as unknown as FastifyRequest;
  // The rate limiter, the slow-down (twice) and a route.
  for (let i = 0; i < 4; i++) assert.equal(clientIp(request), '203.0.113.9');
  assert.equal(reads, 1);
  // Every /api request object is built with the slot, rather than growing it on the hot path.
  const { app } = await build();
  assert.deepEqual((await call(app, '/api/t/ip-slot')).json(), { slot: true });
  await app.close();
});

test('request logging: info for success, warn for 4xx (thrown ones too), error for 5xx; method, URL, status, time', async () => {
  const { app, logs } = await build({ LOG_HTTP: 'true' });
  await call(app, '/api/t/plain?x=1');
  await call(app, '/api/no-such-route');
  await call(app, '/api/t/throw');
  await call(app, '/api/t/teapot');
  const lines = logs.find('request completed');
  assert.equal(lines.length, 4);
  const [ok, missing, thrown, teapot] = lines;
  assert.deepEqual([ok!.level, missing!.level, thrown!.level, teapot!.level], [30, 40, 50, 40]);
  assert.equal(ok!.method, 'GET');
  assert.equal(ok!.url, '/api/t/plain?x=1');
  assert.equal(ok!.statusCode, 200);
  assert.equal(typeof ok!.responseTime, 'number');
  assert.equal(missing!.statusCode, 404);
  assert.equal(typeof ok!.time, 'number');
  await app.close();
});

test('request logging is off without LOG_HTTP', async () => {
  const { app, logs } = await build();
  await call(app, '/api/t/plain');
  await call(app, '/api/t/throw');
  assert.equal(logs.find('request completed').length, 0);
  await app.close();
});

test('Authorization and Cookie values never reach a log line', async () => {
  const { app, logs } = await build({ LOG_HTTP: 'true' });
  await call(app, {
    method: 'GET',
    url: '/api/t/throw',
    headers: { authorization: 'Bearer sekrit-token-123', cookie: 'session=sekrit-cookie-456' },
  });
  app.log.info(
    { headers: { authorization: 'Bearer sekrit-token-123', cookie: 'session=sekrit-cookie-456' } },
    'a line with headers',
  );
  app.log.info({ req: { headers: { authorization: 'Bearer sekrit-token-123' } } }, 'a line with a request');
  assert.ok(logs.lines.length >= 3);
  assert.ok(!logs.text.includes('sekrit'), logs.text);
  assert.equal((logs.find('a line with headers')[0]!.headers as Record<string, string>).authorization, '[redacted]');
  await app.close();
});
