import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { closedUpstreams, startServer, stopServer, type Running } from '../support/real-server.js';
import { get, share, type Answer } from '../support/report-api.js';
import { until } from '../support/until.js';
import { FULL_REPORT } from '../support/fake-routes/platform.js';
import { STORE_FULL } from '../../routes/report/store.js';

const OUTAGE = /^REPORT_STORE=local: (the disk is full|a write to the report store failed)/;
const RECOVERED = 'REPORT_STORE=local: the report store takes new reports again';

/**
 * The service on the local store in `dir`, every write let through, and its
 * background retries capped at 2 s so that a test sees writes resume soon.
 */
async function localStore(dir: string): Promise<Record<string, string>> {
  return {
    ...(await closedUpstreams()),
    REPORT_STORE: 'local',
    DATA_DIR: dir,
    REPORT_RATE_LIMIT: '0',
    REPORT_STORE_RETRY_MAX_MS: '2000',
  };
}

const reportStore = async (server: Running) => (await get(`${server.apiUrl}/readyz`)).json.reportStore;
/** Waits, as long as the retries take, until the store takes reports again. */
const takesReportsAgain = (server: Running) =>
  until(
    async () => ((await reportStore(server)) as { ready: boolean }).ready,
    60_000,
    'the store to take reports again',
  );
const linesMatching = (server: Running, pattern: RegExp | string) =>
  server.lines.filter((line) => (typeof pattern === 'string' ? line.msg === pattern : pattern.test(String(line.msg))));

/**
 * A real 8 MiB tmpfs, 6 MiB of it taken by a file the test removes to give the
 * disk room again (enough for the store's reopen: its log and 1 MiB); unmounted after.
 */
async function smallDisk(t: { after: (fn: () => Promise<void>) => void }): Promise<{ dir: string; ballast: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'netdiag-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir]);
  t.after(async () => {
    // Lazy: a server the test could not stop must not keep the mount, or the folder, behind.
    execFileSync('umount', ['--lazy', dir]);
    await rm(dir, { recursive: true, force: true });
  });
  const ballast = join(dir, 'ballast');
  await writeFile(ballast, Buffer.alloc(6 * 1024 * 1024));
  return { dir, ballast };
}

test('local store on a full disk: writes 507 with the reason, reads go on, readiness says so, and writes resume by themselves once there is room', async (t) => {
  const { dir, ballast } = await smallDisk(t);
  const env = await localStore(dir);
  const server = await startServer(env);
  let running: Running | undefined = server;
  t.after(async () => {
    if (running) await stopServer(running);
  });

  const stored: Array<{ id: string; expiresAt: string }> = [];
  let refused: Answer | undefined;
  for (let i = 0; i < 5000 && !refused; i++) {
    const res = await share(server);
    if (res.status === 201) stored.push(res.json as { id: string; expiresAt: string });
    else refused = res;
  }
  assert.ok(refused, 'the disk filled up');
  assert.ok(stored.length > 10, `${stored.length} reports stored first`);
  assert.equal(refused.status, 507);
  assert.deepEqual(refused.json, { error: STORE_FULL });
  for (let i = 0; i < 20; i++) assert.deepEqual(await share(server), { status: 507, json: { error: STORE_FULL } });

  for (const { id, expiresAt } of stored) {
    assert.deepEqual(await get(`${server.apiUrl}/api/report/${id}`), {
      status: 200,
      json: { expiresAt, report: FULL_REPORT },
    });
  }
  const degraded = await reportStore(server);
  assert.equal((await get(`${server.apiUrl}/readyz`)).status, 200, 'the process stays in service: it reads');
  assert.deepEqual(
    { ...(degraded as object), problem: undefined },
    {
      kind: 'local',
      ready: false,
      readable: true,
      problem: undefined,
    },
  );
  assert.match(String((degraded as { problem: string }).problem), /the disk is full/);
  assert.deepEqual(await get(`${server.frontUrl}/readyz`), { status: 200, json: { status: 'degraded' } });
  assert.equal((await get(`${server.apiUrl}/api/configs`)).json.reportSharing, false);
  const [outage, ...moreOutages] = linesMatching(server, OUTAGE);
  assert.deepEqual(moreOutages, [], 'one line for the outage, not one per refused write');
  assert.equal(outage?.level, 40);
  assert.match(String(outage?.msg), /free space on the disk of DATA_DIR.*REPORT_STORE_RETRY_MAX_MS/);
  assert.match(String(outage?.reason), /No space left on device/);
  assert.deepEqual(linesMatching(server, 'report store failed'), []);

  await rm(ballast);
  await takesReportsAgain(server);
  const again = await share(server);
  assert.equal(again.status, 201, 'writes resume without a restart');
  stored.push(again.json as { id: string; expiresAt: string });
  assert.deepEqual(await reportStore(server), { kind: 'local', ready: true, readable: true });
  assert.deepEqual(await get(`${server.frontUrl}/readyz`), { status: 200, json: { status: 'ready' } });
  assert.equal((await get(`${server.apiUrl}/api/configs`)).json.reportSharing, true);
  const recoveries = linesMatching(server, RECOVERED);
  assert.equal(recoveries.length, 1);
  assert.equal(recoveries[0]?.level, 30);
  assert.equal(linesMatching(server, OUTAGE).length, 1);

  // Nothing given out was lost: every report reads back after a restart.
  assert.equal(await stopServer(server), 0);
  running = await startServer(env);
  for (const { id, expiresAt } of stored) {
    assert.deepEqual((await get(`${running.apiUrl}/api/report/${id}`)).json, { expiresAt, report: FULL_REPORT }, id);
  }
});

test('local store: a write failure other than a full disk (a file-size limit) is 500, logged once, and writes resume by themselves', async (t) => {
  const data = await mkdtemp(join(tmpdir(), 'netdiag-reports-'));
  t.after(() => rm(data, { recursive: true, force: true }));
  const env = await localStore(data);
  const server = await startServer(env);
  t.after(() => stopServer(server));
  assert.equal((await share(server)).status, 201);
  // A file-size limit on the running service: growing a file past it fails (EFBIG).
  const pid = String(server.child.pid);
  execFileSync('prlimit', ['--pid', pid, '--fsize=16384:']);
  let refused: Answer | undefined;
  for (let i = 0; i < 200 && !refused; i++) {
    const res = await share(server);
    if (res.status !== 201) refused = res;
  }
  assert.ok(refused, 'a write past the limit failed');
  assert.deepEqual(refused, { status: 500, json: { error: 'Report store unavailable' } });
  assert.deepEqual(await share(server), { status: 500, json: { error: 'Report store unavailable' } });
  await until(async () => linesMatching(server, OUTAGE).length > 0, 60_000, 'the failed write logged');
  const [outage, ...more] = linesMatching(server, OUTAGE);
  assert.deepEqual(more, []);
  assert.match(String(outage?.msg), /check free space and that the service may write DATA_DIR/);
  assert.equal(outage?.dir, join(data, 'reports'));
  assert.match(String(((await reportStore(server)) as { problem: string }).problem), /File too large/);
  assert.equal((await request(`${server.frontUrl}/healthz`)).statusCode, 200, 'the process runs on');

  execFileSync('prlimit', ['--pid', pid, '--fsize=unlimited:']);
  await takesReportsAgain(server);
  assert.equal((await share(server)).status, 201);
  assert.equal(linesMatching(server, RECOVERED).length, 1);
});

test('local store: a disk full at start-up is the same outage, with nothing read until a try opens the database once there is room', async (t) => {
  const { dir, ballast } = await smallDisk(t);
  const env = await localStore(dir);
  const first = await startServer(env);
  const created = await share(first);
  assert.equal(created.status, 201);
  assert.equal(await stopServer(first), 0);
  // Every byte left taken: opening rewrites the log into a table, which the disk now refuses.
  const filler = await open(join(dir, 'filler'), 'w');
  try {
    for (;;) await filler.write(Buffer.alloc(64 * 1024));
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    await filler.close();
  }

  const server = await startServer(env);
  t.after(() => stopServer(server));
  const state = (await reportStore(server)) as Record<string, unknown>;
  assert.deepEqual(
    { ...state, problem: undefined },
    { kind: 'local', ready: false, readable: false, problem: undefined },
  );
  assert.match(
    String(state.problem),
    /^the disk is full, so new reports are refused; stored reports cannot be read either/,
  );
  assert.deepEqual(await share(server), { status: 507, json: { error: STORE_FULL } });
  assert.equal((await get(`${server.apiUrl}/api/report/${String(created.json.id)}`)).status, 500);
  const [outage, ...more] = linesMatching(server, OUTAGE);
  assert.deepEqual(more, []);
  assert.match(String(outage?.msg), /stored ones cannot be read until it opens/);

  await rm(join(dir, 'filler'));
  await rm(ballast);
  await takesReportsAgain(server);
  assert.equal((await get(`${server.apiUrl}/api/report/${String(created.json.id)}`)).status, 200);
  assert.equal((await share(server)).status, 201);
  assert.equal(linesMatching(server, RECOVERED).length, 1);
});
