import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { fixture } from '../support/fake-upstream.js';
import { LogCapture, buildTestApi, call } from '../support/app.js';
import { registerStatusPages } from '../support/fake-routes/platform.js';
import { createLogger } from '../../lib/logger.js';
import { Upstream } from '../../lib/upstream.js';
import { PROVIDERS, type Provider } from '../../routes/status/providers.js';
import { Detail, Overview, POLL_INTERVAL_MS, StatusPoller } from '../../routes/status/poller.js';
import { getGuard } from '../../schemas/guards.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';

const fake = fakeUpstreamPerFile();

const TEST_PROVIDERS: Provider[] = [
  { slug: 'alpha', name: 'Alpha', url: 'https://status.alpha.test', format: 'statuspage' },
  { slug: 'beta', name: 'Beta', url: 'https://status.beta.test', format: 'statuspage' },
  { slug: 'gamma', name: 'Gamma', url: 'https://status.gamma.test', format: 'statuspage' },
];

function servePages(host: string): void {
  fake.on('GET', host, '/api/v2/summary.json', { json: fixture('www.githubstatus.com', 'summary.json') });
  fake.on('GET', host, '/api/v2/incidents.json', { json: fixture('www.githubstatus.com', 'incidents.json') });
}

function poller(options: { now?: () => number; timeoutMs?: number; logs?: LogCapture } = {}) {
  const logs = options.logs ?? new LogCapture();
  const logger = createLogger({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }, logs);
  const upstream = new Upstream({ timeoutMs: options.timeoutMs ?? 8000, siteUrl: '', overrideOrigin: fake.origin });
  return new StatusPoller({ upstream, providers: TEST_PROVIDERS, logger, now: options.now });
}

test('the routes answer from the primed snapshot and never call a status page', async () => {
  registerStatusPages(fake);
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  await app.lifecycle.boot();
  const fetched = fake.requests.length;
  assert.equal(fake.requestsTo('www.githubstatus.com', '/api/v2/summary.json').length, 1);

  const res = await call(app, '/api/service-status');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const overview = res.json();
  assert.ok(Value.Check(Overview, overview));
  assert.deepEqual(overview.providers.map((p: { id: string }) => p.id), PROVIDERS.map((p) => p.slug));
  for (const light of overview.providers) {
    assert.equal(light.indicator, 'minor');
    assert.equal(light.stale, false);
    for (const value of Object.values(light)) assert.ok(!Array.isArray(value));
  }

  const detail = await call(app, '/api/service-status/detail?id=github');
  assert.equal(detail.statusCode, 200);
  assert.equal(detail.headers['cache-control'], 'public, max-age=300');
  const body = detail.json();
  assert.ok(Value.Check(Detail, body));
  assert.equal(body.name, 'GitHub');
  // Group rows are folded into their members' `group`.
  assert.deepEqual(body.components.map((c: { name: string }) => c.name), ['Git Operations', 'API Requests', 'Actions', 'Pages']);
  assert.deepEqual(body.components[2], { name: 'Actions', status: 'degraded_performance', group: null });
  assert.deepEqual(body.components[3], { name: 'Pages', status: 'operational', group: 'Hosting' });
  // The open incident from the summary, then the resolved one from incidents.json, each once.
  assert.deepEqual(
    body.incidents.map((i: { name: string; status: string }) => [i.name, i.status]),
    [
      ['Disruption with some GitHub services', 'investigating'],
      ['Incident with Pull Requests', 'resolved'],
    ],
  );
  assert.equal(body.incidents[1].resolvedAt, '2026-11-19T15:20:45.896Z');
  assert.equal(body.incidents[1].url, 'https://stspg.io/q8v4n2m7d0tz');

  assert.equal(fake.requests.length, fetched);
  await app.close();
});

test('the provider-id guard reads the provider list', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const missing = await call(app, '/api/service-status/detail');
  assert.equal(missing.statusCode, 400);
  assert.deepEqual(missing.json(), { error: 'No provider id provided' });
  assert.equal(missing.headers['cache-control'], 'no-store');
  const empty = await call(app, '/api/service-status/detail?id=');
  assert.deepEqual(empty.json(), { error: 'No provider id provided' });
  for (const id of ['nope', 'GitHub', 'github%20', '..%2Fgithub']) {
    const res = await call(app, `/api/service-status/detail?id=${id}`);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: 'Invalid provider id' });
  }
  const guard = getGuard('providerId')!;
  for (const provider of PROVIDERS) {
    assert.equal(guard.check(provider.slug), provider.slug);
    // Before any refresh every provider is listed, unknown, and not an error.
    const res = await call(app, `/api/service-status/detail?id=${provider.slug}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().indicator, 'unknown');
    assert.equal(res.json().checkedAt, null);
  }
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('the poller refreshes all providers in parallel', async () => {
  let inFlight = 0;
  let most = 0;
  const waiting: Array<() => void> = [];
  for (const provider of TEST_PROVIDERS) {
    const host = new URL(provider.url).host;
    fake.on('GET', host, '/api/v2/incidents.json', { json: fixture('www.githubstatus.com', 'incidents.json') });
    fake.on('GET', host, '/api/v2/summary.json', async (_req, res) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Hold every answer until all providers have asked (or a generous fallback), so a serial poller shows as 1.
      await new Promise<void>((resolve) => {
        const fallback = setTimeout(resolve, 2000);
        waiting.push(() => {
          clearTimeout(fallback);
          resolve();
        });
        if (waiting.length === TEST_PROVIDERS.length) for (const go of waiting) go();
      });
      inFlight -= 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fixture('www.githubstatus.com', 'summary.json')));
    });
  }
  const p = poller();
  await p.refresh();
  assert.equal(most, TEST_PROVIDERS.length);
  assert.ok(p.overview().providers.every((l) => l.indicator === 'minor' && !l.stale));
});

test('a failing provider keeps its last good snapshot, marked stale with its age', async () => {
  for (const provider of TEST_PROVIDERS) servePages(new URL(provider.url).host);
  let clock = Date.parse('2026-11-22T12:00:00Z');
  const logs = new LogCapture();
  const p = poller({ now: () => clock, logs });
  await p.refresh();
  const good = p.detail('beta')!;
  assert.equal(good.stale, false);

  fake.on('GET', 'status.beta.test', '/api/v2/summary.json', { status: 503, body: 'upstream down' });
  fake.on('GET', 'status.gamma.test', '/api/v2/summary.json', { json: { unexpected: true } });
  clock += 10 * 60 * 1000;
  await p.refresh();

  const beta = p.detail('beta')!;
  assert.equal(beta.stale, true);
  assert.equal(beta.ageSeconds, 600);
  assert.equal(beta.checkedAt, '2026-11-22T12:00:00.000Z');
  assert.deepEqual(beta.components, good.components);
  assert.deepEqual(beta.incidents, good.incidents);
  assert.equal(beta.indicator, 'minor');
  assert.equal(p.detail('gamma')!.stale, true);
  const alpha = p.overview().providers.find((l) => l.id === 'alpha')!;
  assert.deepEqual([alpha.stale, alpha.ageSeconds, alpha.checkedAt], [false, 0, '2026-11-22T12:10:00.000Z']);
  assert.deepEqual(JSON.parse(p.overviewJson()), p.overview(), 'the JSON the route sends is written at each refresh');
  assert.equal(logs.find('service-status refresh failed; keeping the last snapshot').length, 2);
});

test('a provider that never answered is unknown and stale; a hanging one is cut at the upstream timeout', async () => {
  servePages('status.alpha.test');
  servePages('status.gamma.test');
  fake.on('GET', 'status.beta.test', '/api/v2/summary.json', { hang: true });
  const p = poller({ timeoutMs: 200 });
  await p.refresh();
  const beta = p.detail('beta')!;
  assert.deepEqual([beta.indicator, beta.stale, beta.checkedAt, beta.ageSeconds], ['unknown', true, null, null]);
  assert.deepEqual(beta.components, []);
  assert.equal(p.detail('alpha')!.stale, false);
});

test('missing incidents.json falls back to the summary incidents', async () => {
  for (const provider of TEST_PROVIDERS) {
    fake.on('GET', new URL(provider.url).host, '/api/v2/summary.json', { json: fixture('www.githubstatus.com', 'summary.json') });
  }
  const p = poller();
  await p.refresh();
  const alpha = p.detail('alpha')!;
  assert.equal(alpha.stale, false);
  assert.deepEqual(alpha.incidents.map((i) => i.status), ['investigating']);
});

test('the scheduler refreshes every 5 minutes until stopped', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const p = poller();
  const refresh = mock.method(p, 'refresh', async () => {});
  // Lets a finished refresh settle, so the overrun guard allows the next one.
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  p.start();
  assert.equal(refresh.mock.callCount(), 0);
  t.mock.timers.tick(POLL_INTERVAL_MS - 1);
  assert.equal(refresh.mock.callCount(), 0);
  t.mock.timers.tick(1);
  assert.equal(refresh.mock.callCount(), 1);
  await settle();
  t.mock.timers.tick(POLL_INTERVAL_MS);
  assert.equal(refresh.mock.callCount(), 2);
  await settle();
  p.stop();
  t.mock.timers.tick(3 * POLL_INTERVAL_MS);
  assert.equal(refresh.mock.callCount(), 2);
});

test('start-up primes the snapshot and starts the poller; closing the app stops it', async (t) => {
  registerStatusPages(fake);
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  t.mock.timers.enable({ apis: ['setInterval'] });
  await app.lifecycle.boot();
  const polls = () => fake.requestsTo('www.githubstatus.com', '/api/v2/summary.json').length;
  assert.equal(polls(), 1);
  t.mock.timers.tick(POLL_INTERVAL_MS);
  for (let i = 0; polls() < 2 && i < 400; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(polls(), 2);
  await app.close();
  t.mock.timers.tick(2 * POLL_INTERVAL_MS);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(polls(), 2);
});
