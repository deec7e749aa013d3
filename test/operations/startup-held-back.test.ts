import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { FakeUpstream } from '../support/fake-upstream.js';
import { freePorts } from '../support/free-ports.js';
import { spawnServer, stopServer } from '../support/real-server.js';
import { until } from '../support/until.js';

const REFERER = { referer: 'http://localhost/' };

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  const text = await res.body.text();
  return { status: res.statusCode, json: () => JSON.parse(text) as Record<string, unknown> };
}

test('a geolocation download that never answers holds back neither listener: /readyz names it as loading, /api/configs answers on both', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'held-back-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  // The databases are missing and the keys are set, so start-up downloads them; the download server accepts and never answers.
  const fake = await FakeUpstream.start();
  t.after(() => fake.close());
  fake.on('*', 'download.maxmind.com', /^\/geoip\//, { hang: true });
  const [closed] = (await freePorts(1)) as [number];
  const server = await spawnServer({
    DATA_DIR: dataDir,
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    DNS_OVERRIDE_SERVER: `127.0.0.1:${closed}`,
    WHOIS_OVERRIDE_SERVER: `127.0.0.1:${closed}`,
    GEODB_ACCOUNT_ID: '12345',
    GEODB_LICENSE_KEY: 'held-back-key',
  });
  t.after(() => (server.child.exitCode === null ? stopServer(server) : undefined));

  // Generous: a busy machine is slow to load modules; the download is held for its whole 5-minute cap.
  await until(async () => (await get(`${server.frontUrl}/healthz`)).status === 200, 60_000, 'the front listener');
  // The steps run once the listeners are open, and undici loads with the first upstream call: the download is asked a moment later.
  await until(
    async () => fake.requests.some((r) => r.host === 'download.maxmind.com'),
    60_000,
    'the download to be asked for',
  );

  const readyz = await get(`${server.apiUrl}/readyz`);
  assert.equal(readyz.status, 503, 'not ready while a dataset loads');
  const report = readyz.json();
  assert.deepEqual(report.listeners, { api: true, front: true });
  assert.equal((report.loading as Record<string, string>)['geo databases'], 'running');
  // The phases after it wait their turn, in the spec's order.
  assert.equal((report.loading as Record<string, string>)['asn-datasets'], 'waiting');
  assert.equal((report.datasets as Record<string, { state: string }>).geoCity?.state, 'missing');
  const front = await get(`${server.frontUrl}/readyz`);
  assert.deepEqual([front.status, front.json()], [503, { status: 'not ready' }]);

  assert.equal((await get(`${server.apiUrl}/api/configs`, REFERER)).status, 200, 'on the API listener');
  assert.equal((await get(`${server.frontUrl}/api/configs`, REFERER)).status, 200, 'through the front listener');
  assert.equal((await get(`${server.apiUrl}/api/geo-local?ip=8.8.8.8`, REFERER)).status, 503, 'geo-local: not loaded');

  // A SIGTERM abandons the held download and stops cleanly.
  assert.equal(await stopServer(server), 0);
});
