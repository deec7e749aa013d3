import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { request } from 'undici';
import { buildWeb, isApiPath } from '../../web/app.js';
import { assertErrorAnswer, buildTestApiWith, REFERER } from '../support/app.js';

const BINARY = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256));

const echoRoutes: FastifyPluginAsync = async (app) => {
  const echo = async (request: { method: string; url: string; headers: unknown; body: unknown }) => ({
    method: request.method,
    url: request.url,
    headers: request.headers,
    body: request.body ?? null,
  });
  app.route({ method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], url: '/t/echo/*', handler: echo });
  app.get('/t/status/:code', async (request, reply) =>
    reply.code(Number((request.params as { code: string }).code)).send({ code: true }),
  );
  app.get('/t/binary', async (_request, reply) =>
    reply.type('image/jpeg').header('cache-control', 'public, max-age=31536000').send(BINARY),
  );
};

let api: FastifyInstance;
let web: FastifyInstance;
let dir: string;
let frontOrigin: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'frontend-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>SPA</title><div id="app"></div>');
  const built = await buildTestApiWith({}, echoRoutes);
  api = built.app;
  web = await buildWeb({ shared: built.shared, frontendDir: dir, api });
  await web.listen({ port: 0, host: '127.0.0.1' });
  frontOrigin = `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`;
});

after(async () => {
  await web.close();
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

// The /api hand-over lives in the front listener's HTTP server, so these go over real sockets.
async function front(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const res = await request(`${frontOrigin}${path}`, {
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers,
    body: options.body,
  });
  const raw = Buffer.from(await res.body.arrayBuffer());
  return { statusCode: res.statusCode, headers: res.headers, raw, json: () => JSON.parse(raw.toString('utf8')) };
}

test('/api is forwarded with method, path, query, headers and body', async () => {
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const) {
    const withBody = method !== 'GET' && method !== 'DELETE';
    const res = await front('/api/t/echo/a/b?x=1&y=two%20words', {
      method,
      headers: {
        ...REFERER,
        'accept-language': 'fr',
        'x-custom': 'kept',
        ...(withBody ? { 'content-type': 'application/json' } : {}),
      },
      body: withBody ? JSON.stringify({ hello: method }) : undefined,
    });
    assert.equal(res.statusCode, 200, method);
    const echoed = res.json();
    assert.equal(echoed.method, method);
    assert.equal(echoed.url, '/api/t/echo/a/b?x=1&y=two%20words');
    assert.equal(echoed.headers['accept-language'], 'fr');
    assert.equal(echoed.headers['x-custom'], 'kept');
    assert.equal(echoed.headers.referer, REFERER.referer);
    assert.deepEqual(echoed.body, withBody ? { hello: method } : null);
  }
});

test('X-Forwarded-For: the reverse proxy’s value is kept, else the socket peer is named', async () => {
  const kept = await front('/api/t/echo/x', { headers: { ...REFERER, 'x-forwarded-for': '203.0.113.9' } });
  assert.equal(kept.json().headers['x-forwarded-for'], '203.0.113.9');
  const added = await front('/api/t/echo/x', { headers: REFERER });
  assert.equal(added.json().headers['x-forwarded-for'], '127.0.0.1');
});

test('the API status, headers and error bodies come back unchanged', async () => {
  for (const code of [201, 400, 404, 429, 500, 503]) {
    const res = await front(`/api/t/status/${code}`, { headers: REFERER });
    assert.equal(res.statusCode, code);
    assert.equal(res.headers['cache-control'], 'no-store');
  }
  const gate = await front('/api/configs');
  assertErrorAnswer(gate, 403, 'What are you doing?');
  const missing = await front('/api/nothing-here', { headers: REFERER });
  assertErrorAnswer(missing, 404, 'Not Found');
});

test('a binary answer streams through byte for byte', async () => {
  const res = await front('/api/t/binary', { headers: REFERER });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'image/jpeg');
  assert.equal(res.headers['cache-control'], 'public, max-age=31536000');
  assert.ok(res.raw.equals(BINARY));
});

test('a JSON body over 500 KB sent through the front listener gets the API’s 413', async () => {
  const res = await front('/api/t/echo/big', {
    method: 'POST',
    headers: { ...REFERER, 'content-type': 'application/json' },
    body: JSON.stringify({ pad: 'x'.repeat(501 * 1024) }),
  });
  assert.equal(res.statusCode, 413);
});

test('isApiPath: /api and below, nothing else', () => {
  for (const url of ['/api', '/api/', '/api/configs?x=1', '/api?x=1']) assert.equal(isApiPath(url), true, url);
  for (const url of ['/', '/apis', '/api-docs', '/x/api/configs']) assert.equal(isApiPath(url), false, url);
});
