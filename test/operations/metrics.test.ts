import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { FakeUpstream } from '../support/fake-upstream.js';
import { closedUpstreams, startServer, stopServer, type Running } from '../support/real-server.js';

const REFERER = { referer: 'http://localhost/' };

let fake: FakeUpstream;
before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** The value of one sample line (`name{labels} value`), or undefined when the exposition has none. */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of exposition.split('\n')) {
    const match = /^([a-z_:]+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

async function withServer(env: Record<string, string>, run: (server: Running) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'metrics-'));
  const server = await startServer({ DATA_DIR: dataDir, ...env });
  try {
    await run(server);
  } finally {
    await stopServer(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

test('METRICS=true: Prometheus text on the API listener, without Referer or limiter; requests, upstream calls, limiter entries, datasets, process', async () => {
  fake.on('GET', 'api.github.com', '/repos/o/r', { json: { stargazers_count: 7 } });
  await withServer(
    {
      METRICS: 'true',
      UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
      REPO_STARS_REPOSITORY: 'o/r',
      SECURITY_RATE_LIMIT: '4',
      SECURITY_DELAY_AFTER: '2',
    },
    async ({ apiUrl, frontUrl }) => {
      assert.equal((await get(`${apiUrl}/api/repo-stars`, REFERER)).status, 200);
      assert.equal((await get(`${frontUrl}/api/configs`, REFERER)).status, 200);
      assert.equal((await get(`${apiUrl}/api/geo-local?ip=8.8.8.8`, REFERER)).status, 503);
      assert.equal((await get(`${apiUrl}/api/configs`, REFERER)).status, 200);
      // The fifth request from this client in the window: refused, and the client enters the limited state once.
      assert.equal((await get(`${apiUrl}/api/configs`, REFERER)).status, 429);
      assert.equal((await get(`${apiUrl}/api/configs`, REFERER)).status, 429);

      const scraped = await get(`${apiUrl}/metrics`);
      assert.equal(scraped.status, 200);
      assert.match(String(scraped.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      assert.equal(scraped.headers['cache-control'], 'no-store');
      const text = scraped.text;

      const requests = (labels: Record<string, string>) =>
        sample(text, 'netdiag_http_request_duration_seconds_count', labels);
      assert.equal(
        requests({ listener: 'api', route: '/api/configs', method: 'GET', status: '200' }),
        2,
        'through the front listener too',
      );
      assert.equal(requests({ listener: 'api', route: '/api/configs', method: 'GET', status: '429' }), 2);
      assert.equal(requests({ listener: 'api', route: '/api/geo-local', method: 'GET', status: '503' }), 1);
      assert.ok(
        requests({ listener: 'front', route: '/healthz', method: 'GET', status: '200' })! >= 1,
        "the front listener's own routes, by listener",
      );
      assert.ok(
        sample(text, 'netdiag_http_request_duration_seconds_bucket', { route: '/api/repo-stars', le: '+Inf' }) === 1,
        'a latency histogram',
      );
      assert.doesNotMatch(text, /8\.8\.8\.8/, 'route patterns, never raw URLs');

      assert.equal(
        sample(text, 'netdiag_upstream_request_duration_seconds_count', { provider: 'api.github.com', outcome: '2xx' }),
        1,
        'the real host, not the override',
      );
      assert.equal(sample(text, 'netdiag_limiter_entries_total', { limiter: 'rate' }), 1);
      assert.equal(sample(text, 'netdiag_limiter_entries_total', { limiter: 'slow-down' }), 1);

      assert.equal(sample(text, 'netdiag_dataset_loaded', { dataset: 'geoCity' }), 0);
      assert.equal(sample(text, 'netdiag_dataset_loaded', { dataset: 'rdapBootstrap' }), 1);
      assert.ok(sample(text, 'netdiag_dataset_age_seconds', { dataset: 'rdapBootstrap' })! > 0);
      assert.equal(
        sample(text, 'netdiag_dataset_age_seconds', { dataset: 'geoCity' }),
        undefined,
        'no age without data',
      );

      for (const name of [
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_heap_size_used_bytes',
        'process_cpu_seconds_total',
      ]) {
        assert.match(text, new RegExp(`^${name} `, 'm'), name);
      }

      // The front listener never serves them.
      const front = await get(`${frontUrl}/metrics`);
      assert.equal(front.status, 404);
      assert.doesNotMatch(front.text, /netdiag_/);
    },
  );
});

test('METRICS=true: the private API and the telemetry ingest are labelled by a fixed provider name, never by their hosts', async () => {
  const privateHost = 'private-api-of-the-operator.internal.example';
  const ingestHost = 'telemetry-ingest-of-the-operator.internal.example';
  const dsn = `https://0123456789abcdef@${ingestHost}/42`;
  fake.on('GET', privateHost, '/v1/getuserinfo', { json: { id: 'u1' } });
  fake.on('POST', ingestHost, '/api/42/envelope/', { json: { id: 'e1' } });
  await withServer(
    {
      METRICS: 'true',
      UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
      PRIVATE_API_KEY: 'private-key',
      PRIVATE_API_ENDPOINT: `https://${privateHost}/v1`,
      TELEMETRY_DSN_FRONTEND: dsn,
    },
    async ({ apiUrl }) => {
      assert.equal((await get(`${apiUrl}/api/getuserinfo`, REFERER)).status, 200);
      const envelope = `${JSON.stringify({ dsn })}\n${JSON.stringify({ type: 'event' })}\n{"level":"error"}\n`;
      const relayed = await request(`${apiUrl}/api/monitoring`, {
        method: 'POST',
        headers: { ...REFERER, 'content-type': 'text/plain;charset=UTF-8' },
        body: envelope,
      });
      await relayed.body.dump();
      assert.equal(relayed.statusCode, 200);
      assert.equal(fake.requestsTo(privateHost).length, 1, 'the private API was called');
      assert.equal(fake.requestsTo(ingestHost).length, 1, 'the envelope was relayed');

      const { text } = await get(`${apiUrl}/metrics`);
      const upstream = (provider: string) =>
        sample(text, 'netdiag_upstream_request_duration_seconds_count', { provider, outcome: '2xx' });
      assert.equal(upstream('private-api'), 1);
      assert.equal(upstream('telemetry'), 1);
      assert.doesNotMatch(text, /private-api-of-the-operator|telemetry-ingest-of-the-operator|internal\.example/);
    },
  );
});

test('METRICS off (the default): /metrics is an unknown path on the API listener and 404 on the front listener', async () => {
  await withServer(await closedUpstreams(), async ({ apiUrl, frontUrl }) => {
    for (const headers of [{}, REFERER]) {
      const metrics = await get(`${apiUrl}/metrics`, headers);
      const unknown = await get(`${apiUrl}/no-such-path`, headers);
      assert.deepEqual([metrics.status, metrics.text], [unknown.status, unknown.text]);
    }
    assert.equal((await get(`${apiUrl}/metrics`, REFERER)).status, 404);
    const front = await get(`${frontUrl}/metrics`);
    assert.equal(front.status, 404);
    assert.equal(front.headers['cache-control'], 'no-store');
  });
});
