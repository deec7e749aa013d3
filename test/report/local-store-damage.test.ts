import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedUpstreams, startServer, stopServer, type Running } from '../support/real-server.js';
import { get, share } from '../support/report-api.js';
import { FULL_REPORT } from '../support/fake-routes/platform.js';
import { findLogDamage } from '../../routes/report/local-log.js';
import { LocalReportStore } from '../../routes/report/local-store.js';

async function dataDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'netdiag-reports-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const linesWith = (server: Running, text: string) => server.lines.filter((l) => String(l.msg).includes(text));

test('local store: a log file cut in half is found at start-up, repaired, and what was lost logged and shown in /readyz', async (t) => {
  const data = await dataDir(t);
  const env = { ...(await closedUpstreams()), REPORT_STORE: 'local', DATA_DIR: data, REPORT_RATE_LIMIT: '0' };
  const first = await startServer(env);
  const ids: string[] = [];
  for (let i = 0; i < 300; i++) {
    const res = await share(first);
    assert.equal(res.status, 201);
    ids.push(String(res.json.id));
  }
  assert.equal(await stopServer(first), 0);
  // LevelDB keeps recent writes in its log until it grows to 4 MB: all 300 are in the newest log.
  const dir = join(data, 'reports');
  const log = (await readdir(dir))
    .filter((name) => name.endsWith('.log'))
    .sort()
    .at(-1)!;
  const size = (await stat(join(dir, log))).size;
  // Half a report past the middle: a cut at the very middle of 300 equal records can fall between two, which is no damage.
  const cut = Math.floor(size / 2 + size / ids.length / 2);
  await truncate(join(dir, log), cut);

  const second = await startServer(env);
  t.after(() => stopServer(second));
  const found: number[] = [];
  for (const [i, id] of ids.entries()) {
    const res = await get(`${second.apiUrl}/api/report/${id}`);
    if (res.status === 200) found.push(i);
    else assert.deepEqual(res, { status: 404, json: { error: 'Report not found or expired' } });
  }
  const kept = found.length;
  assert.ok(kept > 0 && kept < ids.length, `${kept} of ${ids.length} kept`);
  assert.deepEqual(found, [...Array(kept).keys()], 'the reports written before the cut are kept, in order');

  const [line, ...more] = linesWith(second, 'REPORT_STORE=local: the report store was damaged');
  assert.deepEqual(more, [], 'one line');
  assert.equal(line?.level, 50);
  assert.equal(line?.reports, kept);
  // The cut record is named when enough of it survives to read its key; here the half may fall in its header.
  const [damage, ...otherLogs] = line?.damage as Array<Record<string, unknown>>;
  assert.deepEqual(otherLogs, []);
  const { at, firstLostReport, ...where } = damage!;
  assert.deepEqual(where, { file: log, size: cut, reportsKept: kept });
  assert.ok(Number(at) <= cut);
  assert.ok(firstLostReport === undefined || firstLostReport === ids[kept], String(firstLostReport));
  assert.match(
    String(line?.msg),
    new RegExp(
      `log ${log} breaks off at byte ${String(at)} of ${cut}: the ${kept} reports written to it ` +
        'before were kept, those written after are lost',
    ),
  );
  const store = (await get(`${second.apiUrl}/readyz`)).json.reportStore as Record<string, unknown>;
  assert.equal(store.ready, true, 'repaired, it takes new reports');
  assert.match(
    String(store.repaired),
    new RegExp(`are lost.*; repaired with LevelDB's repair, ${kept} reports readable$`),
  );
  assert.equal((await share(second)).status, 201);
});

test('local store: a second process on the same DATA_DIR is told the reports folder is in use by another process, and the first runs on', async (t) => {
  const data = await dataDir(t);
  const env = { ...(await closedUpstreams()), REPORT_STORE: 'local', DATA_DIR: data, REPORT_RATE_LIMIT: '0' };
  const first = await startServer(env);
  t.after(() => stopServer(first));
  const created = await share(first);
  assert.equal(created.status, 201);

  const second = await startServer({ ...env, ...(await closedUpstreams()) });
  t.after(() => stopServer(second));
  const [line, ...more] = linesWith(second, 'REPORT_STORE=local:');
  assert.deepEqual(more, []);
  assert.equal(line?.level, 50);
  assert.match(
    String(line?.msg),
    /the reports folder is in use by another process .*give each instance its own DATA_DIR/,
  );
  assert.doesNotMatch(String(line?.msg), /damaged/);
  assert.equal(line?.dir, join(data, 'reports'));
  assert.deepEqual((await get(`${second.apiUrl}/readyz`)).json.reportStore, {
    kind: 'local',
    ready: false,
    readable: false,
    problem: 'the reports folder is in use by another process, so reports are neither taken nor given back here',
  });
  assert.equal((await get(`${second.apiUrl}/api/configs`)).json.reportSharing, false);
  assert.deepEqual(await get(`${second.frontUrl}/readyz`), { status: 200, json: { status: 'degraded' } });

  assert.equal((await get(`${first.apiUrl}/api/report/${String(created.json.id)}`)).status, 200);
  assert.equal((await share(first)).status, 201);
  assert.deepEqual(linesWith(first, 'REPORT_STORE=local:'), []);
});

test('local store: a log cut inside a report names that report as the first lost, and a whole log is no damage', async (t) => {
  const dir = join(await dataDir(t), 'reports');
  const store = new LocalReportStore(dir);
  await store.open();
  const stored = { expiresAt: new Date(Date.now() + 86_400_000).toISOString(), report: FULL_REPORT };
  await store.put('keptReport000000000001', stored, 86_400);
  const log = (await readdir(dir)).find((name) => name.endsWith('.log'))!;
  // Each write is synced: the log ends where the second report's record starts.
  const secondAt = (await stat(join(dir, log))).size;
  await store.put('cutReport0000000000001', stored, 86_400);
  await store.close();
  assert.deepEqual(await findLogDamage(dir), []);
  const size = (await stat(join(dir, log))).size;
  await truncate(join(dir, log), size - 100);
  const [damage, ...more] = await findLogDamage(dir);
  assert.deepEqual(more, []);
  assert.deepEqual(damage, {
    file: log,
    size: size - 100,
    at: secondAt,
    reportsKept: 1,
    firstLostReport: 'cutReport0000000000001',
  });
});
