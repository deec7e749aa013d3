import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { buildWeb } from '../../web/app.js';
import { DATASETS } from '../../operations/readiness.js';
import { buildTestApi } from '../support/app.js';
import { serviceStatusPrimed, startAllFakes } from '../support/fakes.js';
import { closedUpstreams, startServer, stopServer } from '../support/real-server.js';

const origin = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}

/** What the public front listener's /readyz may say: the verdict, and nothing of the datasets. */
function assertVerdictOnly(ready: Awaited<ReturnType<typeof get>>, status: number, verdict: string): void {
  assert.equal(ready.status, status, ready.text);
  assert.equal(ready.headers['cache-control'], 'no-store');
  assert.deepEqual(ready.json(), { status: verdict });
  for (const name of DATASETS) assert.doesNotMatch(ready.text, new RegExp(name, 'i'), name);
  assert.doesNotMatch(ready.text, /updatedAt|ageSeconds|loaded|stale|missing|\d{4}-\d{2}-\d{2}/);
}

test('a fresh process offline: /healthz and /readyz on both listeners, 200, no-store, no Referer needed, no limiter', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'health-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  // A limit of one request per client: anything the limiter counted would be refused by the second call.
  const server = await startServer({
    ...(await closedUpstreams()),
    DATA_DIR: dataDir,
    SECURITY_RATE_LIMIT: '1',
    SECURITY_DELAY_AFTER: '1',
  });
  t.after(() => stopServer(server));

  for (const base of [server.apiUrl, server.frontUrl]) {
    for (let i = 0; i < 3; i++) {
      const alive = await get(`${base}/healthz`);
      assert.equal(alive.status, 200, base);
      assert.deepEqual(alive.json(), { status: 'ok' });
      assert.equal(alive.headers['cache-control'], 'no-store');

      const ready = await get(`${base}/readyz`);
      if (base === server.frontUrl) {
        assertVerdictOnly(ready, 200, 'ready');
        continue;
      }
      assert.equal(ready.status, 200, `${base}: ${ready.text}`);
      assert.equal(ready.headers['cache-control'], 'no-store');
      const report = ready.json() as {
        ready: boolean;
        listeners: unknown;
        datasets: Record<string, { state: string; updatedAt: string | null; ageSeconds: number | null }>;
      };
      assert.equal(report.ready, true);
      assert.deepEqual(report.listeners, { api: true, front: true });
      assert.deepEqual(Object.keys(report.datasets), [...DATASETS], 'every dataset, by name');
      // Offline and fresh: nothing downloaded, nothing reached; WHOIS runs on the shipped bootstrap tables.
      for (const name of ['geoCity', 'geoAsn', 'asRelationships', 'asOrganisations', 'serviceStatus']) {
        assert.deepEqual(report.datasets[name], { state: 'missing', updatedAt: null, ageSeconds: null }, name);
      }
      const rdap = report.datasets.rdapBootstrap!;
      assert.equal(rdap.state, 'stale');
      assert.equal(rdap.updatedAt, '2026-11-01T00:00:01.000Z', 'the shipped copy, by its publication date');
      assert.equal(typeof rdap.ageSeconds, 'number');
      assert.deepEqual(
        { ...report.datasets.tldList!, ageSeconds: typeof report.datasets.tldList!.ageSeconds },
        { state: 'stale', updatedAt: '2026-01-19T00:00:00.000Z', ageSeconds: 'number' },
        'the shipped root-zone list, by its version date',
      );
    }
  }
  const head = await request(`${server.frontUrl}/healthz`, { method: 'HEAD' });
  await head.body.dump();
  assert.equal(head.statusCode, 200);

  // The limiter is on for /api all the same.
  const referer = { referer: 'http://localhost/' };
  assert.equal((await get(`${server.apiUrl}/api/configs`, referer)).status, 200);
  assert.equal((await get(`${server.apiUrl}/api/configs`, referer)).status, 429);
});

test('/readyz answers 503 until both listeners listen, then 200; the API listener shows the datasets, the front listener only the verdict', async (t) => {
  const started = Date.now();
  const fakes = await startAllFakes();
  t.after(() => fakes.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'ready-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const { app: api, shared } = await buildTestApi({ ...fakes.env, DATA_DIR: dataDir });
  t.after(() => api.close());
  await api.lifecycle.boot();
  await serviceStatusPrimed(api);
  await api.listen({ port: 0, host: '127.0.0.1' });

  const early = await get(`${origin(api)}/readyz`);
  assert.equal(early.status, 503);
  assert.equal(early.headers['cache-control'], 'no-store');
  assert.deepEqual(early.json().listeners, { api: false, front: false });
  assert.equal(early.json().ready, false);
  assert.equal((await get(`${origin(api)}/healthz`)).status, 200, 'alive all the same');

  api.readiness.listening('api');
  assert.equal((await get(`${origin(api)}/readyz`)).status, 503, 'the front listener is not up yet');

  const web = await buildWeb({ shared, frontendDir: '', api });
  t.after(() => web.close());
  await web.listen({ port: 0, host: '127.0.0.1' });
  assertVerdictOnly(await get(`${origin(web)}/readyz`), 503, 'not ready');
  api.readiness.listening('front');
  assertVerdictOnly(await get(`${origin(web)}/readyz`), 200, 'ready');
  const ready = await get(`${origin(api)}/readyz`);
  assert.equal(ready.status, 200);
  const datasets = ready.json().datasets as Record<
    string,
    { state: string; updatedAt: string | null; ageSeconds: number | null }
  >;
  // Downloaded from the fakes at boot: each dated by what it is (build, snapshot, fetch).
  assert.equal(datasets.geoCity!.state, 'loaded');
  assert.equal(datasets.geoCity!.updatedAt, new Date(1_790_000_000 * 1000).toISOString(), 'the database build date');
  assert.ok(datasets.geoCity!.ageSeconds! > 0);
  assert.equal(datasets.geoAsn!.state, 'loaded');
  assert.equal(datasets.asRelationships!.state, 'loaded');
  assert.match(
    String(datasets.asRelationships!.updatedAt),
    /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/,
    'the snapshot date from its name',
  );
  assert.equal(datasets.asOrganisations!.state, 'loaded');
  assert.equal(datasets.serviceStatus!.state, 'loaded');
  const fetched = Date.parse(String(datasets.serviceStatus!.updatedAt));
  assert.ok(fetched >= started && fetched <= Date.now(), 'fetched at boot');
});
