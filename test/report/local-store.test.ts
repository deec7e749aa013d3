import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { request } from 'undici';
import { assertErrorAnswer, buildTestApi, call, REFERER } from '../support/app.js';
import { closedUpstreams, startServer, stopServer, type Running } from '../support/real-server.js';
import { LocalReportStore } from '../../routes/report/local-store.js';
import { EXAMPLE_REPORT } from '../../routes/report/examples.js';

const DAY_S = 24 * 60 * 60;
const DAY_MS = DAY_S * 1000;

/** A fresh DATA_DIR, removed after the test. */
async function dataDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'netdiag-reports-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Every key in the database at `dir`, read with the service stopped (LevelDB allows one process at a time). */
async function keysIn(dir: string): Promise<string[]> {
  const db = new ClassicLevel<string, string>(dir);
  try {
    return await db.keys().all();
  } finally {
    await db.close();
  }
}

/** Reports written as if `daysAgo` days had passed since, each kept one day: already expired now. */
async function writeExpired(dir: string, ids: string[], daysAgo: number): Promise<void> {
  const then = Date.now() - daysAgo * DAY_MS;
  const store = new LocalReportStore(dir, { now: () => then });
  await store.open();
  for (const id of ids) {
    await store.put(id, { expiresAt: new Date(then + DAY_MS).toISOString(), report: EXAMPLE_REPORT }, DAY_S);
  }
  await store.close();
}

async function api(server: Running, path: string, body?: unknown) {
  const res = await request(`${server.apiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...REFERER, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
}

/** Waits until the server has logged `msg` (the sweep runs in the background after start-up). */
async function logged(server: Running, msg: string): Promise<Record<string, unknown>> {
  for (;;) {
    const line = server.lines.find((l) => l.msg === msg);
    if (line) return line;
    if (server.child.exitCode !== null) throw new Error(`server exited before logging "${msg}": ${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('local store: a report stored by the real service reads back after the service restarts', async (t) => {
  const data = await dataDir(t);
  const env = { ...(await closedUpstreams()), REPORT_STORE: 'local', DATA_DIR: data };
  const first = await startServer(env);
  assert.equal((await api(first, '/api/configs')).json.reportSharing, true);
  const created = await api(first, '/api/report', { report: EXAMPLE_REPORT, ttlDays: 7 });
  assert.equal(created.status, 201);
  const { id, expiresAt } = created.json as { id: string; expiresAt: string };
  assert.equal(await stopServer(first), 0);

  const second = await startServer(env);
  t.after(() => stopServer(second));
  const read = await api(second, `/api/report/${id}`);
  assert.equal(read.status, 200);
  assert.deepEqual(read.json, { expiresAt, report: EXAMPLE_REPORT });
  assert.equal((await api(second, '/api/configs')).json.reportSharing, true);
  const ready = await request(`${second.apiUrl}/readyz`);
  assert.deepEqual(((await ready.body.json()) as Record<string, unknown>).reportStore, {
    kind: 'local',
    ready: true,
    readable: true,
  });
});

test('local store: an expired report is 404 Report not found or expired and gone from the database after the sweep', async (t) => {
  const data = await dataDir(t);
  const dir = join(data, 'reports');
  await writeExpired(dir, ['expiredReport000000001', 'expiredReport000000002'], 2);
  const live = new LocalReportStore(dir);
  await live.open();
  const liveExpiry = new Date(Date.now() + DAY_MS).toISOString();
  await live.put('liveReport000000000001', { expiresAt: liveExpiry, report: EXAMPLE_REPORT }, DAY_S);
  await live.close();

  const server = await startServer({ ...(await closedUpstreams()), REPORT_STORE: 'local', DATA_DIR: data });
  const sweep = await logged(server, 'expired shared reports removed from the local report store');
  assert.equal(sweep.removed, 2);
  const expired = await api(server, '/api/report/expiredReport000000001');
  assert.equal(expired.status, 404);
  assert.deepEqual(expired.json, { error: 'Report not found or expired' });
  assert.equal((await api(server, '/api/report/liveReport000000000001')).status, 200);
  assert.equal(await stopServer(server), 0);

  const keys = await keysIn(dir);
  assert.ok(!keys.some((key) => key.includes('expiredReport')), keys.join(' '));
  assert.equal(
    keys.filter((key) => key.endsWith('liveReport000000000001')).length,
    2,
    'the live report and its expiry',
  );
});

test('local store: a report read past its expiry is 404 at once and removed on that read', async (t) => {
  const dir = join(await dataDir(t), 'reports');
  await writeExpired(dir, ['readExpiredReport00001'], 2);
  const store = new LocalReportStore(dir);
  await store.open();
  assert.equal(await store.get('readExpiredReport00001'), undefined);
  await store.close();
  assert.ok(!(await keysIn(dir)).includes('report:readExpiredReport00001'));
});

/** The app on a local store that cannot open: sharing off, both routes 500, one error line naming the fix. */
async function assertDegraded(env: Record<string, string>, dir: string): Promise<void> {
  const { app, logs } = await buildTestApi({ REPORT_STORE: 'local', ...env });
  const configs = await call(app, '/api/configs');
  assert.equal(configs.statusCode, 200);
  assert.equal(configs.json().reportSharing, false);
  const { problem, ...state } = (await app.inject('/readyz')).json().reportStore;
  assert.deepEqual(state, { kind: 'local', ready: false, readable: false });
  assert.match(problem, /^the database cannot open \(.+\), so reports are neither taken nor given back$/);
  const post = await call(app, {
    method: 'POST',
    url: '/api/report',
    payload: { report: EXAMPLE_REPORT, ttlDays: 1 },
  });
  assertErrorAnswer(post, 500, 'Report store unavailable');
  assertErrorAnswer(await call(app, '/api/report/demoReport0123456789AB'), 500, 'Report store unavailable');
  const [line, ...more] = logs.find('the report store cannot open');
  assert.deepEqual(more, [], 'one line, not one per request');
  assert.equal(line?.level, 50);
  assert.equal(line?.dir, dir);
  assert.match(String(line?.msg), /make DATA_DIR writable, or move a damaged reports folder aside/);
  assert.ok(!JSON.stringify(line).includes('"stack"'));
  await app.close();
}

test('local store: a database that will not open (CURRENT names a missing manifest) is repaired at start-up, its reports kept and the repair logged', async (t) => {
  const data = await dataDir(t);
  const dir = join(data, 'reports');
  await writeExpired(dir, ['damagedReport000000001'], 0);
  // LevelDB's CURRENT names the manifest to read; pointing it at nothing is a damaged database.
  await writeFile(join(dir, 'CURRENT'), 'MANIFEST-999999\n');
  const { app, logs } = await buildTestApi({ REPORT_STORE: 'local', DATA_DIR: data });
  t.after(() => app.close());
  assert.equal((await call(app, '/api/configs')).json().reportSharing, true);
  assert.equal((await call(app, '/api/report/damagedReport000000001')).statusCode, 200);
  const { repaired, ...state } = (await app.inject('/readyz')).json().reportStore;
  assert.deepEqual(state, { kind: 'local', ready: true, readable: true });
  assert.match(
    repaired,
    /^the database would not open \(.*MANIFEST-999999.*\); repaired with LevelDB's repair, 1 reports readable$/,
  );
  const [line, ...more] = logs.find('REPORT_STORE=local: the report store was damaged');
  assert.deepEqual(more, []);
  assert.equal(line?.level, 50);
  assert.equal(line?.reports, 1);
  assert.match(String(line?.msg), /restore DATA_DIR\/reports from a backup/);
});

test('local store: a DATA_DIR the service cannot write leaves it up, sharing off and the report routes 500', async (t) => {
  const data = await dataDir(t);
  // A file where the folder should be: refused even to root, unlike permission bits.
  await writeFile(join(data, 'reports'), 'not a folder');
  await assertDegraded({ DATA_DIR: data }, join(data, 'reports'));
});
