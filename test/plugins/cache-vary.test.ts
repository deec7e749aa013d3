import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { request } from 'undici';
import { buildTestApiWith, REFERER } from '../support/app.js';
import { bootOnAllFakes } from '../support/fakes.js';
import { exampleRequests } from '../support/example-requests.js';

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The names a Vary header lists, lower-cased. */
const varyNames = (vary: unknown) =>
  String(vary ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);

test('every cacheable answer of the example requests (the map included) varies on Referer, over a socket', async () => {
  const { app, close } = await bootOnAllFakes();
  try {
    const origin = await listen(app);
    const cacheable: string[] = [];
    const missing: string[] = [];
    for (const example of exampleRequests()) {
      const payload = example.payload;
      const body = payload === undefined || typeof payload === 'string' ? payload : JSON.stringify(payload);
      const headers = {
        ...REFERER,
        ...(typeof payload === 'object' ? { 'content-type': 'application/json' } : {}),
        ...example.headers,
      };
      const res = await request(`${origin}${example.url}`, { method: example.method ?? 'GET', headers, body });
      await res.body.dump();
      if (!String(res.headers['cache-control']).startsWith('public')) continue;
      const path = example.url.split('?')[0]!;
      cacheable.push(path);
      if (!varyNames(res.headers.vary).includes('referer')) missing.push(`${path}: Vary ${res.headers.vary}`);
    }
    assert.deepEqual(missing, []);
    // The sweep is only worth its name if it met the gated, cacheable routes the finding names.
    for (const path of ['/api/map', '/api/whois', '/api/geo-local', '/api/configs', '/api/asn-connectivity']) {
      assert.ok(cacheable.includes(path), `${path} answered cacheable (${cacheable.join(' ')})`);
    }
  } finally {
    await close();
  }
});

const routes: FastifyPluginAsync = async (app) => {
  app.get('/t/vary-own', { config: { cacheTtl: 60 } }, async (_request, reply) =>
    reply.header('vary', 'Accept-Encoding').send({ ok: true }),
  );
  app.get('/t/vary-both', { config: { cacheTtl: 60 } }, async (_request, reply) =>
    reply.header('vary', 'referer, Accept-Encoding').send({ ok: true }),
  );
  app.get('/t/own-cache', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=60').send({ ok: true }),
  );
  app.get('/t/failing', { config: { cacheTtl: 60 } }, async (_request, reply) => reply.code(502).send({ error: 'x' }));
};

test("Referer joins a route's own Vary once; a route setting its own public Cache-Control varies too; a no-store error need not", async () => {
  const { app } = await buildTestApiWith({}, routes);
  try {
    const origin = await listen(app);
    const get = async (path: string, headers: Record<string, string> = REFERER) => {
      const res = await request(`${origin}${path}`, { headers });
      await res.body.dump();
      return res;
    };
    assert.equal((await get('/api/t/vary-own')).headers.vary, 'Accept-Encoding, Referer');
    assert.equal((await get('/api/t/vary-both')).headers.vary, 'referer, Accept-Encoding');
    const own = await get('/api/t/own-cache');
    assert.equal(own.headers['cache-control'], 'public, max-age=60');
    assert.equal(own.headers.vary, 'Referer');
    // No cache keeps these, so whom they were for does not matter to one.
    for (const [path, headers] of [
      ['/api/t/failing', REFERER],
      ['/api/t/vary-own', { referer: 'https://elsewhere.example/' }],
      ['/api/t/vary-own', {}],
    ] as const) {
      const res = await get(path, headers);
      assert.ok(res.statusCode >= 400, path);
      assert.equal(res.headers['cache-control'], 'no-store', path);
    }
  } finally {
    await app.close();
  }
});
