import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApi, call } from '../support/app.js';
import { overHttp, type TimedAnswer } from '../support/over-http.js';
import { registerRipeStatFakeRoutes } from '../support/fake-routes/asn.js';
import { fakeUpstreamPerFile } from '../support/fake-upstream-per-file.js';
import { fixture, type Handler } from '../support/fake-upstream.js';
import { dataDir } from './helpers.js';

// Issue 32, items 1 and 4: the organisation names RIPEstat is asked for are
// optional. An answer waits about 1 s for them (NAME_WAIT_MS), one lookup per
// name serves every request, and its outcome is kept. Bounds leave room for a
// busy two-core machine: the wait is 1 s, the assertions allow 1 s + 1.5 s.
// Before: 8 s per request with a hanging registry, 5 s with a slow one, and
// two calls per missing name per request.

const RIPE = 'stat.ripe.net';
const OVERVIEW = '/data/as-overview/data.json';
const HISTORY = '/data/routing-history/data.json';
const GRAPH = '/api/asn-connectivity?asn=200000';
// AS200000's graph without the organisation snapshot: every name is RIPEstat's.
const MISSING = ['AS1299', 'AS3356', 'AS9002', 'AS200000'];
const NAME_BOUND_MS = 1000 + 1500;
const REQUESTS = 5;

const fake = fakeUpstreamPerFile(registerRipeStatFakeRoutes);

/** The API on a loopback port, its graph loaded without the organisation snapshot, at the default upstream timeout (8 s). */
async function graphApi(t: TestContext) {
  const dir = await dataDir({ relationships: true });
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, DATA_DIR: dir.path });
  await app.lifecycle.boot();
  t.after(async () => {
    await app.close();
    await dir.remove();
  });
  return { app, get: await overHttp(app) };
}

const names = (answer: Pick<TimedAnswer, 'body'>) =>
  (JSON.parse(answer.body) as { nodes: Array<{ asn: number; name: string | null }> }).nodes
    .sort((a, b) => a.asn - b.asn)
    .map((n) => n.name);

/** as-overview calls per AS asked. */
function callsPerAs(): Map<string, number> {
  const calls = new Map<string, number>();
  for (const r of fake.requestsTo(RIPE, OVERVIEW)) {
    const as = r.query.get('resource') ?? '';
    calls.set(as, (calls.get(as) ?? 0) + 1);
  }
  return calls;
}

/** Reports the slowest of `answers` in the test's output, the figure the issue measured. */
const reportSlowest = (t: TestContext, answers: TimedAnswer[]) =>
  t.diagnostic(`slowest of ${answers.length}: ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms`);

const oncePerName = () => new Map(MISSING.map((as) => [as, 1]));

const holder: Handler = (req, res) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ data: { holder: `HANDLE - holder of ${req.query.get('resource')}` } }));

/** as-overview answering after `ms`; `answered` resolves once it has answered every name once. */
function slowOverview(ms: number): { handler: Handler; answered: Promise<void> } {
  let count = 0;
  let done!: () => void;
  const answered = new Promise<void>((resolve) => (done = resolve));
  const handler: Handler = async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    holder(req, res);
    if (++count === MISSING.length) done();
  };
  return { handler, answered };
}

test('a healthy registry: five identical requests make one call per missing name, and a sixth makes none', async (t) => {
  fake.on('GET', RIPE, OVERVIEW, holder);
  const { app, get } = await graphApi(t);
  const answers = await Promise.all(Array.from({ length: REQUESTS }, () => get(GRAPH)));
  for (const answer of answers) {
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(
      names(answer),
      MISSING.map((as) => `holder of ${as}`),
    );
  }
  assert.deepEqual(callsPerAs(), oncePerName());
  const sixth = await call(app, GRAPH);
  assert.equal(sixth.headers['cache-control'], 'public, max-age=2592000');
  assert.deepEqual(
    names(sixth),
    MISSING.map((as) => `holder of ${as}`),
  );
  assert.deepEqual(callsPerAs(), oncePerName());
});

test('a hanging registry: each answer within about a second, the graph whole with null names, not cacheable; one call per name', async (t) => {
  fake.on('GET', RIPE, OVERVIEW, { hang: true });
  const { get } = await graphApi(t);
  const answers = await Promise.all(Array.from({ length: REQUESTS }, () => get(GRAPH)));
  reportSlowest(t, answers);
  for (const answer of answers) {
    assert.equal(answer.statusCode, 200);
    assert.ok(answer.ms < NAME_BOUND_MS, `answered in ${Math.round(answer.ms)} ms (before: 8,000 ms)`);
    assert.deepEqual(names(answer), [null, null, null, null]);
    assert.equal(JSON.parse(answer.body).edges.length, 3);
  }
  assert.deepEqual(callsPerAs(), oncePerName());
});

test('a slow registry (5 s): answers within about a second; the lookups still running fill the cache for the next request', async (t) => {
  const slow = slowOverview(5000);
  fake.on('GET', RIPE, OVERVIEW, slow.handler);
  const { get } = await graphApi(t);
  const answers = await Promise.all(Array.from({ length: REQUESTS }, () => get(GRAPH)));
  reportSlowest(t, answers);
  for (const answer of answers) {
    assert.ok(answer.ms < NAME_BOUND_MS, `answered in ${Math.round(answer.ms)} ms (before: 5,000 ms)`);
    assert.deepEqual(names(answer), [null, null, null, null]);
  }
  await slow.answered;
  // The answers have left the fake; the client reads them a moment later.
  let later = await get(GRAPH);
  for (let i = 0; i < 50 && names(later).includes(null); i++) later = await get(GRAPH);
  assert.deepEqual(
    names(later),
    MISSING.map((as) => `holder of ${as}`),
  );
  assert.ok(later.ms < NAME_BOUND_MS);
  assert.deepEqual(callsPerAs(), oncePerName());
});

test('a failing registry: the failure is kept, so the next request asks nothing; an answer missing names is not cacheable', async (t) => {
  fake.on('GET', RIPE, OVERVIEW, { status: 500, body: 'error' });
  const { app, get } = await graphApi(t);
  const first = await get(GRAPH);
  assert.deepEqual(names(first), [null, null, null, null]);
  assert.deepEqual(callsPerAs(), oncePerName());
  const second = await call(app, GRAPH);
  assert.equal(second.statusCode, 200);
  assert.equal(second.headers['cache-control'], 'no-store');
  assert.deepEqual(names(second), [null, null, null, null]);
  assert.deepEqual(callsPerAs(), oncePerName());
});

test('asn-history: the history keeps its time, the names after it get about a second (before: history 5 s then names 5 s)', async (t) => {
  const HISTORY_MS = 5000;
  fake.on('GET', RIPE, HISTORY, {
    delayMs: HISTORY_MS,
    json: fixture(RIPE, 'routing-history-193.0.0.0_21.json'),
  });
  fake.on('GET', RIPE, OVERVIEW, slowOverview(5000).handler);
  const { app } = await buildTestApi({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  t.after(() => app.close());
  const get = await overHttp(app);
  const answers = await Promise.all(
    Array.from({ length: REQUESTS }, () => get('/api/asn-history?prefix=193.0.0.0/21')),
  );
  reportSlowest(t, answers);
  for (const answer of answers) {
    assert.equal(answer.statusCode, 200);
    assert.ok(answer.ms < HISTORY_MS + NAME_BOUND_MS, `answered in ${Math.round(answer.ms)} ms (before: 10,000 ms)`);
    const body = JSON.parse(answer.body) as { history: Array<{ asn: string; org: string | null }> };
    assert.deepEqual(
      body.history.map((row) => [row.asn, row.org]),
      [['3333', null]],
    );
  }
  // The one name missing locally is asked once for all five answers.
  assert.equal(fake.requestsTo(RIPE, OVERVIEW).length, 1);
});
