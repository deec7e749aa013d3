import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyPluginAsync, HTTPMethods } from 'fastify';
import { buildApi } from '../../app.js';
import { composeShared } from '../../composition.js';
import capabilities from '../../routes/index.js';
import { loadConfig } from '../../fastify.config.js';
import { createLogger } from '../../lib/logger.js';
import { call, LogCapture } from '../support/app.js';
import { startAllFakes } from '../support/fakes.js';
import { exampleRequests } from '../support/example-requests.js';

const routeKey = (method: HTTPMethods | HTTPMethods[], url: string) => `${[method].flat().join(',')} ${url}`;

test('every route under /api has an example request in its routes/<cap>/examples.ts', async () => {
  const registered = new Set<string>();
  const withGet = new Set<string>();
  const answered = new Set<string>();
  // Beside the capabilities, in their parent context: sees every route they
  // register and, on each request, the route that matched it.
  const recording: FastifyPluginAsync = async (api) => {
    api.addHook('onRoute', (route) => {
      registered.add(routeKey(route.method, route.url!));
      if ([route.method].flat().includes('GET')) withGet.add(route.url!);
    });
    api.addHook('onRequest', async (request) => {
      answered.add(routeKey(request.routeOptions.method, request.routeOptions.url!));
    });
    await api.register(capabilities);
  };
  const fakes = await startAllFakes();
  const config = loadConfig({ ...fakes.env, DATA_DIR: '/nonexistent-test-data', LOAD_SHEDDING: 'false' });
  const shared = await composeShared({ config, logger: createLogger(config, new LogCapture(), []) });
  const app = await buildApi({ shared, routes: recording });
  try {
    await app.ready();
    for (const request of exampleRequests()) await call(app, request);
    // Fastify answers HEAD from a GET route by itself; the GET's example covers it.
    const needed = [...registered].filter(
      (key) => !(key.startsWith('HEAD ') && withGet.has(key.slice('HEAD '.length))),
    );
    assert.ok(needed.length > 20, `the routes were seen: ${needed.length}`);
    assert.deepEqual(
      needed.filter((key) => !answered.has(key)),
      [],
    );
  } finally {
    await app.close();
    await shared.close();
    await fakes.close();
  }
});
