import { test, mock, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { fixture } from '../support/fake-upstream.js';
import { assertErrorAnswer, buildTestApi, call, LogCapture } from '../support/app.js';
import { registerStatusPages } from '../support/fake-routes/platform.js';
import { createLogger } from '../../lib/logger.js';
import { Upstream } from '../../lib/upstream.js';
import { PROVIDERS, providerIdGuard, type Provider } from '../../routes/service-status/providers.js';
import { POLL_INTERVAL_MS, StatusPoller } from '../../routes/service-status/poller.js';
import { Detail, Overview } from '../../contract/service-status.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { serviceStatusPrimed } from '../support/fakes.js';

const fake = fakeUpstreamPerFile();

// The frontend's own list (contract 14.1), in its display order.
const CONTRACT_PROVIDERS = [
  ['claude', 'Claude', 'https://status.claude.com'],
  ['chatgpt', 'ChatGPT', 'https://status.openai.com'],
  ['cursor', 'Cursor', 'https://status.cursor.com'],
  ['notion', 'Notion', 'https://www.notion-status.com'],
  ['github', 'GitHub', 'https://www.githubstatus.com'],
  ['cloudflare', 'Cloudflare', 'https://new.cloudflarestatus.com'],
  ['elevenlabs', 'ElevenLabs', 'https://status.elevenlabs.io'],
  ['groq', 'Groq', 'https://groqstatus.com'],
  ['vercel', 'Vercel', 'https://www.vercel-status.com'],
  ['netlify', 'Netlify', 'https://www.netlifystatus.com'],
  ['render', 'Render', 'https://status.render.com'],
  ['supabase', 'Supabase', 'https://status.supabase.com'],
  ['replicate', 'Replicate', 'https://replicatestatus.com'],
  ['figma', 'Figma', 'https://status.figma.com'],
  ['linear', 'Linear', 'https://linearstatus.com'],
  ['stripe', 'Stripe', 'https://www.stripestatus.com'],
] as const;

const TEST_PROVIDERS: Provider[] = [
  { id: 'alpha', name: 'Alpha', page: 'https://status.alpha.test' },
  { id: 'beta', name: 'Beta', page: 'https://status.beta.test' },
  { id: 'gamma', name: 'Gamma', page: 'https://status.gamma.test' },
];

const GITHUB = 'www.githubstatus.com';
const github = (name: 'summary.json' | 'incidents.json') => fixture(GITHUB, name) as Record<string, unknown>;

function servePages(host: string): void {
  fake.on('GET', host, '/api/v2/summary.json', { json: github('summary.json') });
  fake.on('GET', host, '/api/v2/incidents.json', { json: github('incidents.json') });
}

function poller(options: { now?: () => number; timeoutMs?: number; logs?: LogCapture; providers?: Provider[] } = {}) {
  const logs = options.logs ?? new LogCapture();
  const logger = createLogger({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }, logs);
  const upstream = new Upstream({ timeoutMs: options.timeoutMs ?? 8000, siteUrl: '', overrideOrigin: fake.origin });
  return new StatusPoller({ upstream, providers: options.providers ?? TEST_PROVIDERS, logger, now: options.now });
}

/** The API with the demo's status pages, started up and its first refresh ended; closed after the test, whatever its outcome. */
async function bootedApi(t: TestContext) {
  registerStatusPages(fake);
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  t.after(() => app.close());
  await app.lifecycle.boot();
  await serviceStatusPrimed(app);
  return app;
}

const statusPageCalls = () => PROVIDERS.reduce((sum, p) => sum + fake.requestsTo(new URL(p.page).host).length, 0);

test("the provider list is the frontend's 16 providers with their exact ids, names and pages", () => {
  assert.deepEqual(
    PROVIDERS.map((p) => [p.id, p.name, p.page]),
    CONTRACT_PROVIDERS.map((row) => [...row]),
  );
});

test('overview: every provider with id, name, page and a light, from the primed snapshot, without calling a status page', async (t) => {
  const app = await bootedApi(t);
  assert.equal(statusPageCalls(), 2 * PROVIDERS.length);

  const res = await call(app, '/api/service-status');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const overview = res.json();
  assert.ok(Value.Check(Overview, overview), res.body);
  assert.equal(typeof overview.updatedAt, 'string');
  assert.ok(Number.isFinite(Date.parse(overview.updatedAt as string)));
  assert.deepEqual(
    overview.providers.map((p: { id: string; name: string; page: string }) => [p.id, p.name, p.page]),
    CONTRACT_PROVIDERS.map((row) => [...row]),
  );
  const githubLight = overview.providers.find((p: { id: string }) => p.id === 'github')!;
  assert.ok(Number.isFinite(Date.parse(githubLight.checkedAt ?? '')), 'when its light was read');
  assert.deepEqual(githubLight, {
    id: 'github',
    name: 'GitHub',
    page: 'https://www.githubstatus.com',
    indicator: 'minor',
    checkedAt: githubLight.checkedAt,
  });
  // The fakes give every card a light, in every colour.
  const lights = Object.fromEntries(
    overview.providers.map((p: { id: string; indicator: string }) => [p.id, p.indicator]),
  );
  assert.deepEqual(
    [lights.claude, lights.github, lights.supabase, lights.groq, lights.render, lights.cloudflare, lights.stripe],
    ['minor', 'minor', 'minor', 'major', 'critical', 'maintenance', 'none'],
  );
  assert.ok(!Object.values(lights).includes('unknown'));

  for (const [id] of CONTRACT_PROVIDERS) {
    const detail = await call(app, `/api/service-status/detail?id=${id}`);
    assert.equal(detail.statusCode, 200, id);
    assert.ok(Value.Check(Detail, detail.json()), id);
    assert.ok(detail.json().components.length > 0 && detail.json().incidents.length > 0, id);
  }
  assert.equal(statusPageCalls(), 2 * PROVIDERS.length);
});

test("detail: top-level components and the latest incidents in the contract's fields, GitHub without its note row", async (t) => {
  const app = await bootedApi(t);
  const res = await call(app, '/api/service-status/detail?id=github');
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'public, max-age=300');
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['id', 'components', 'incidents']);
  assert.equal(body.id, 'github');
  assert.deepEqual(
    body.components.map((c: { name: string }) => c.name),
    [
      'Git Operations',
      'Webhooks',
      'API Requests',
      'Issues',
      'Pull Requests',
      'Actions',
      'Packages',
      'Pages',
      'Codespaces',
      'Copilot',
    ],
  );
  assert.deepEqual(body.components[0], { name: 'Git Operations', status: 'operational' });
  assert.deepEqual(body.components[5], { name: 'Actions', status: 'degraded_performance' });
  assert.deepEqual(body.incidents[0], {
    id: 'p836ttk9sgf6',
    name: 'Disruption with some GitHub services',
    status: 'investigating',
    impact: 'minor',
    startedAt: '2026-11-24T10:34:52.012Z',
    url: 'https://www.githubstatus.com/incidents/p836ttk9sgf6',
  });
  // Resolved incidents from incidents.json are listed too, newest first.
  assert.deepEqual(
    body.incidents.map((i: { status: string; impact: string }) => [i.status, i.impact]),
    [
      ['investigating', 'minor'],
      ['resolved', 'major'],
      ['resolved', 'minor'],
    ],
  );
});

test('detail: a grouped page keeps its group rows and drops their members', async (t) => {
  const app = await bootedApi(t);
  const body = (await call(app, '/api/service-status/detail?id=cloudflare')).json();
  assert.deepEqual(
    body.components,
    [
      ['Cloudflare Sites and Services', 'operational'],
      ['Africa', 'operational'],
      ['Asia', 'operational'],
      ['Europe', 'under_maintenance'],
      ['Latin America & the Caribbean', 'operational'],
      ['Middle East', 'operational'],
      ['North America', 'operational'],
      ['Oceania', 'operational'],
    ].map(([name, status]) => ({ name, status })),
  );
});

test('detail: a page without started_at or shortlink dates by created_at and links to the page; local offsets become UTC', async (t) => {
  const app = await bootedApi(t);
  const chatgpt = (await call(app, '/api/service-status/detail?id=chatgpt')).json();
  assert.deepEqual(chatgpt.incidents[0], {
    id: '3tc7hh36c2jv',
    name: 'Increased error rates for image generation',
    status: 'resolved',
    impact: 'minor',
    startedAt: '2026-11-23T19:40:00.000Z',
    url: 'https://status.openai.com/incidents/3tc7hh36c2jv',
  });
  const notion = (await call(app, '/api/service-status/detail?id=notion')).json();
  // 2026-11-19T02:05:00.000-08:00 on the page.
  assert.equal(notion.incidents[0].startedAt, '2026-11-19T10:05:00.000Z');
  assert.equal(notion.incidents[1].status, 'postmortem');
});

test('the provider-id guard reads the provider list; a known id without data yet is 200 with empty arrays', async () => {
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  const missing = await call(app, '/api/service-status/detail');
  assertErrorAnswer(missing, 400, 'No provider id provided');
  const empty = await call(app, '/api/service-status/detail?id=');
  assert.deepEqual(empty.json(), { error: 'No provider id provided' });
  for (const id of ['nope', 'GitHub', 'github%20', '..%2Fgithub', 'openai', 'discord']) {
    const res = await call(app, `/api/service-status/detail?id=${id}`);
    assertErrorAnswer(res, 400, 'Invalid provider id');
  }
  for (const [id] of CONTRACT_PROVIDERS) {
    assert.equal(providerIdGuard.check(id), id);
    const res = await call(app, `/api/service-status/detail?id=${id}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { id, components: [], incidents: [] });
  }
  const overview = (await call(app, '/api/service-status')).json();
  assert.equal(overview.updatedAt, null);
  assert.ok(overview.providers.every((p: { indicator: string }) => p.indicator === 'unknown'));
  assert.equal(fake.requests.length, 0);
  await app.close();
});

test('the poller refreshes all providers in parallel', async () => {
  let inFlight = 0;
  let most = 0;
  const waiting: Array<() => void> = [];
  for (const provider of TEST_PROVIDERS) {
    const host = new URL(provider.page).host;
    fake.on('GET', host, '/api/v2/incidents.json', { json: github('incidents.json') });
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
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(github('summary.json')));
    });
  }
  const p = poller();
  await p.refresh();
  assert.equal(most, TEST_PROVIDERS.length);
  assert.ok(p.overview().providers.every((l) => l.indicator === 'minor'));
});

test('a failing summary keeps the last good entry; a failing incidents.json keeps the last incidents', async () => {
  for (const provider of TEST_PROVIDERS) servePages(new URL(provider.page).host);
  let clock = Date.parse('2026-11-22T12:00:00Z');
  const logs = new LogCapture();
  const p = poller({ now: () => clock, logs });
  await p.refresh();
  const good = p.detail('beta')!;
  assert.equal(good.components.length, 11);
  assert.equal(good.incidents.length, 3);

  fake.on('GET', 'status.beta.test', '/api/v2/summary.json', { status: 503, body: 'upstream down' });
  fake.on('GET', 'status.gamma.test', '/api/v2/summary.json', { json: { unexpected: true } });
  fake.on('GET', 'status.alpha.test', '/api/v2/incidents.json', { status: 500, body: 'oops' });
  fake.on('GET', 'status.alpha.test', '/api/v2/summary.json', {
    json: { ...github('summary.json'), status: { indicator: 'none', description: 'All Systems Operational' } },
  });
  clock += 10 * 60 * 1000;
  await p.refresh();

  assert.deepEqual(p.detail('beta'), good);
  const lights = Object.fromEntries(p.overview().providers.map((l) => [l.id, l.indicator]));
  assert.deepEqual(lights, { alpha: 'none', beta: 'minor', gamma: 'minor' });
  // A kept light says when it was read, so the site can tell it from a fresh one.
  const checked = Object.fromEntries(p.overview().providers.map((l) => [l.id, l.checkedAt]));
  assert.deepEqual(checked, {
    alpha: '2026-11-22T12:10:00.000Z',
    beta: '2026-11-22T12:00:00.000Z',
    gamma: '2026-11-22T12:00:00.000Z',
  });
  // alpha: a fresh light, the previous incidents.
  assert.deepEqual(
    p.detail('alpha')!.incidents,
    good.incidents.map((i) => ({ ...i, url: i.url.replace('beta', 'alpha') })),
  );
  assert.equal(p.overview().updatedAt, '2026-11-22T12:10:00.000Z');
  assert.deepEqual(JSON.parse(p.overviewJson()), p.overview(), 'the JSON the route sends is written at each refresh');
  // One line for both, naming them, without a stack.
  const [told, ...more] = logs.find('status pages not reached');
  assert.equal(more.length, 0);
  assert.equal(told!.level, 40);
  assert.match(
    String(told!.msg),
    /^service status: 2 of 3 status pages not reached \(beta, gamma; e\.g\. Upstream answered 503 with a body that is not JSON\): .*tried again every 5 minutes$/,
  );
  assert.deepEqual(told!.reasons, {
    beta: 'Upstream answered 503 with a body that is not JSON',
    gamma: 'summary.json is not in the Statuspage shape',
  });
  assert.equal(told!.err, undefined);
  assert.deepEqual(
    p.status(),
    { state: 'stale', updatedAt: new Date('2026-11-22T12:00:00.000Z') },
    'dated by the oldest snapshot shown',
  );

  // The same outage five minutes later is not told again at warn; its end is.
  clock += 5 * 60 * 1000;
  await p.refresh();
  assert.equal(logs.find('status pages not reached').filter((l) => l.level === 40).length, 1);
  for (const host of ['status.beta.test', 'status.gamma.test']) servePages(host);
  clock += 5 * 60 * 1000;
  await p.refresh();
  assert.equal(logs.find('every status page answers again').length, 1);
  assert.deepEqual(p.status(), { state: 'loaded', updatedAt: new Date(clock) });
});

test('a provider that never answered is unknown with no components; a hanging one is cut at the upstream timeout', async () => {
  servePages('status.alpha.test');
  servePages('status.gamma.test');
  fake.on('GET', 'status.beta.test', '/api/v2/summary.json', { hang: true });
  fake.on('GET', 'status.beta.test', '/api/v2/incidents.json', { json: github('incidents.json') });
  // Long enough for the answering pages on a busy machine, short enough for the test.
  const p = poller({ timeoutMs: 1000 });
  await p.refresh();
  const beta = p.detail('beta')!;
  assert.equal(p.overview().providers[1]!.indicator, 'unknown');
  // Never reached: no time to show for it (the site says "not reached", not when it last checked).
  assert.equal(p.overview().providers[1]!.checkedAt, null);
  assert.equal(typeof p.overview().providers[0]!.checkedAt, 'string');
  assert.deepEqual(beta.components, []);
  // Its incidents still came in.
  assert.equal(beta.incidents.length, 3);
  assert.equal(p.overview().providers[0]!.indicator, 'minor');
});

test("odd pages: at most 40 components and 10 incidents, newest first; values outside Statuspage's lists get the defaults", async () => {
  const components = Array.from({ length: 55 }, (_, i) => ({
    id: `c${i}`,
    name: `Component ${i}`,
    status: i === 0 ? 'sideways' : 'operational',
    group_id: null,
  }));
  components.push({ name: 42 } as never, 'row' as never);
  // Listed oldest first, two without any date.
  const incidents = Array.from({ length: 14 }, (_, i) => ({
    id: `inc${i}`,
    name: `Incident ${i}`,
    status: i === 13 ? 'escalated' : 'resolved',
    impact: i === 13 ? 'apocalyptic' : 'minor',
    ...(i < 2 ? {} : { started_at: new Date(Date.UTC(2026, 10, 1 + i)).toISOString() }),
  }));
  incidents.push({ name: 'no id' } as never);
  fake.on('GET', 'status.alpha.test', '/api/v2/summary.json', {
    json: { status: { indicator: 'purple' }, components },
  });
  fake.on('GET', 'status.alpha.test', '/api/v2/incidents.json', { json: { incidents } });
  const p = poller({ providers: [TEST_PROVIDERS[0]!] });
  await p.refresh();
  const alpha = p.detail('alpha')!;
  assert.ok(Value.Check(Detail, alpha));
  assert.equal(p.overview().providers[0]!.indicator, 'unknown');
  assert.equal(alpha.components.length, 40);
  assert.deepEqual(alpha.components[0], { name: 'Component 0', status: 'operational' });
  assert.deepEqual(
    alpha.incidents.map((i) => i.id),
    ['inc13', 'inc12', 'inc11', 'inc10', 'inc9', 'inc8', 'inc7', 'inc6', 'inc5', 'inc4'],
  );
  assert.deepEqual(alpha.incidents[0], {
    id: 'inc13',
    name: 'Incident 13',
    status: null,
    impact: 'none',
    startedAt: '2026-11-14T00:00:00.000Z',
    url: 'https://status.alpha.test/incidents/inc13',
  });
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
  const polls = () => fake.requestsTo(GITHUB, '/api/v2/summary.json').length;
  assert.equal(polls(), 1);
  t.mock.timers.tick(POLL_INTERVAL_MS);
  for (let i = 0; polls() < 2 && i < 400; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(polls(), 2);
  await app.close();
  t.mock.timers.tick(2 * POLL_INTERVAL_MS);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(polls(), 2);
});
