import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { request } from 'undici';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { OpenAPIV3_1 as OpenApi31 } from 'openapi-types';
import { buildApi } from '../../app.js';
import { composeShared, type Shared } from '../../composition.js';
import { buildWeb } from '../../web/app.js';
import { loadConfig } from '../../fastify.config.js';
import { createLogger } from '../../lib/logger.js';
import { PRODUCT_VERSION } from '../../lib/app-root.js';
import { LogCapture } from '../support/app.js';

type Document = OpenApi31.Document;
type Operation = OpenApi31.OperationObject;

// Every route each app registers, seen by an onRoute hook put on the instance
// the moment Fastify creates it (its initialization channel), so nothing
// registered later, by any plugin, escapes.
const registered = new Map<FastifyInstance, string[]>();
const recordRoutes = (message: unknown) => {
  const { fastify } = message as { fastify: FastifyInstance };
  const routes: string[] = [];
  registered.set(fastify, routes);
  fastify.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push(`${method} ${route.url}`);
  });
};

let shared: Shared;
let api: FastifyInstance;
let web: FastifyInstance;
let dir: string;
const origins: Record<'api' | 'front', string> = { api: '', front: '' };

before(async () => {
  subscribe('fastify.initialization', recordRoutes);
  dir = await mkdtemp(join(tmpdir(), 'openapi-site-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>site</title>');
  // METRICS=true: the API listener's /metrics is registered only then.
  const config = loadConfig({ DATA_DIR: '/nonexistent-test-data', LOAD_SHEDDING: 'false', METRICS: 'true' });
  const logger = createLogger(config, new LogCapture(), []);
  shared = await composeShared({ config, logger });
  api = await buildApi({ shared });
  await api.ready();
  web = await buildWeb({ shared, frontendDir: dir, api });
  unsubscribe('fastify.initialization', recordRoutes);
  for (const [name, app] of [
    ['api', api],
    ['front', web],
  ] as const) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    origins[name] = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }
});

after(async () => {
  await web?.close();
  await api?.close();
  await shared?.close();
  await rm(dir, { recursive: true, force: true });
});

async function documentOf(listener: 'api' | 'front') {
  const res = await request(`${origins[listener]}/openapi.json`);
  const raw = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, raw, document: JSON.parse(raw.toString('utf8')) as Document };
}

/**
 * The routes a document must list: every method and URL pattern the app
 * registered, but for Fastify's HEAD twin of each GET (the document names
 * the GET), QUERY (only OpenAPI 3.2 can name it: the 405 routes answering
 * every method register it) and, on the front listener, the site's own
 * files and pages (GET/HEAD /*) and the 404 it answers for /metrics.
 */
function expectedRoutes(app: FastifyInstance, excluded: readonly string[] = []): string[] {
  const routes = registered.get(app) ?? [];
  const keys = new Set(routes);
  return routes.filter(
    (key) =>
      !(key.startsWith('HEAD ') && keys.has(`GET ${key.slice('HEAD '.length)}`)) &&
      !key.startsWith('QUERY ') &&
      !excluded.includes(key),
  );
}

function documentedRoutes(document: Document): Set<string> {
  const routes = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const pattern = path.replace(/\{(\w+)\}/g, ':$1');
    for (const method of Object.keys(item ?? {})) routes.add(`${method.toUpperCase()} ${pattern}`);
  }
  return routes;
}

function operations(document: Document): Array<[string, Operation]> {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.values(item ?? {}).map((operation) => [path, operation as Operation] as [string, Operation]),
  );
}

test('both documents validate as OpenAPI 3.1, versioned as package.json', async () => {
  for (const listener of ['api', 'front'] as const) {
    const { status, headers, document } = await documentOf(listener);
    assert.equal(status, 200);
    assert.match(String(headers['content-type']), /^application\/json/);
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(validator.version, '3.1');
    assert.deepEqual(result.errors ?? [], [], `${listener}: ${JSON.stringify(result.errors)}`);
    assert.equal(result.valid, true);
    assert.equal(document.info.version, PRODUCT_VERSION);
  }
});

test("the API listener's document lists every route it registers", async () => {
  const { document } = await documentOf('api');
  const expected = expectedRoutes(api);
  assert.ok(expected.length > 30, `routes were recorded: ${expected.length}`);
  for (const route of ['GET /healthz', 'GET /readyz', 'GET /metrics', 'GET /openapi.json', 'GET /api/report/:id']) {
    assert.ok(expected.includes(route), route);
  }
  const listed = documentedRoutes(document);
  assert.deepEqual(
    expected.filter((route) => !listed.has(route)),
    [],
  );
});

test("the front listener's document lists its own routes and every /api route it hands over", async () => {
  const { document } = await documentOf('front');
  const own = expectedRoutes(web, ['GET /*', 'HEAD /*', 'GET /metrics']);
  const handedOver = expectedRoutes(api).filter((route) => route.split(' ')[1]!.startsWith('/api/'));
  assert.ok(own.includes('GET /openapi.json') && own.includes('GET /readyz'));
  const listed = documentedRoutes(document);
  assert.deepEqual(
    [...own, ...handedOver].filter((route) => !listed.has(route)),
    [],
  );
  assert.ok(!listed.has('GET /metrics'), 'the front listener answers /metrics with a 404');
  assert.ok(!listed.has('GET /*'), 'the site fallback is not an interface');
});

test('the command-line face is marked stable and /api as the site’s own, subject to change', async () => {
  const { document } = await documentOf('front');
  const tags = new Map(
    (document.tags ?? []).map((tag) => [tag.name, tag as OpenApi31.TagObject & Record<string, string>]),
  );
  assert.equal(tags.get('command-line')?.['x-stability'], 'stable');
  assert.equal(tags.get('site-api')?.['x-stability'], 'subject to change');
  assert.match(tags.get('site-api')?.description ?? '', /subject to change/);
  assert.match(document.info.description ?? '', /command-line face .* stable/);
  for (const [path, operation] of operations(document)) {
    if (path.startsWith('/api/')) assert.deepEqual(operation.tags, ['site-api'], path);
  }
  assert.deepEqual(document.paths?.['/healthz']?.get?.tags, ['operations']);
});

test('every operation on the API listener says in a summary what it answers', async () => {
  const { document } = await documentOf('api');
  const unsummarised = operations(document).filter(([, operation]) => !operation.summary);
  assert.deepEqual(
    unsummarised.map(([path]) => path),
    [],
  );
});

test('an /api route lists its parameters, its own answers and the chain’s (Referer gate, limiter)', async () => {
  const { document } = await documentOf('front');
  const geo = document.paths?.['/api/geo-local']?.get;
  const ip = geo?.parameters?.find((p) => 'name' in p && p.name === 'ip') as OpenApi31.ParameterObject;
  assert.equal(ip.in, 'query');
  assert.equal(ip.required, true);
  assert.match(ip.description ?? '', /Missing: 400 \{"error": "No IP address provided"\}/);
  // From routes/geo/examples.ts, the request the site's page sends.
  assert.equal(ip.example, '8.8.8.8');
  const whois = document.paths?.['/api/whois']?.get;
  assert.ok(whois);
  // Each answer described: by its schema's description, else its status's reason phrase.
  assert.deepEqual(
    ['200', '4XX', '5XX'].map(
      (status) => (whois.responses[status] as OpenApi31.ResponseObject | undefined)?.description,
    ),
    ['OK', 'Client error', 'Server error'],
  );
  assert.doesNotMatch(JSON.stringify(document), /Default Response/);
  const gate = whois.responses['403'] as OpenApi31.ResponseObject;
  assert.match(JSON.stringify(gate.content), /What are you doing\?/);
  assert.match(JSON.stringify(whois.responses['429']), /Too Many Requests/);
  const report = document.paths?.['/api/report']?.post;
  const body = (report?.requestBody as OpenApi31.RequestBodyObject | undefined)?.content['application/json'];
  assert.ok(body?.schema, 'the report body is documented');
  assert.equal((body?.example as { ttlDays?: number } | undefined)?.ttlDays, 1, 'with the example the site posts');
  assert.ok(document.paths?.['/api/report/{id}']?.get?.parameters?.some((p) => 'in' in p && p.in === 'path'));
  assert.equal(document.paths?.['/api/monitoring']?.post?.responses['429'], undefined, 'the tunnel skips the limiter');
});

test('the document is the same bytes on every request, cacheable for five minutes', async () => {
  const first = await documentOf('front');
  const second = await documentOf('front');
  assert.ok(first.raw.equals(second.raw));
  assert.equal(first.headers['cache-control'], 'public, max-age=300');
  assert.equal(first.headers['x-content-type-options'], 'nosniff', "the front listener's headers apply");
});
