import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { buildTestApi, call } from '../support/app.js';
import { startServer, stopServer } from '../support/real-server.js';
import { setTimeout as delay } from 'node:timers/promises';

/** A process's resident memory in bytes (Linux). */
function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!;
  return Number(kb) * 1024;
}

test('a header value that is not an address never reaches the ledger: the line names the next source, an address', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-keys-'));
  const ledger = join(dir, 'ledger.log');
  const { app } = await buildTestApi({ SECURITY_RATE_LIMIT: '1', SECURITY_BLACKLIST_LOG_FILE_PATH: ledger });
  try {
    const forged = { 'cf-connecting-ip': '6.6.6.6 POST /api/forged 2026-01-01T00:00:00.000Z 7.7.7.7' };
    assert.equal((await call(app, { url: '/api/configs', headers: forged })).statusCode, 200);
    assert.equal((await call(app, { url: '/api/configs', headers: forged })).statusCode, 429);
    for (let i = 0; i < 50 && !(await readFile(ledger, 'utf8').catch(() => '')); i++) await delay(20);
    const lines = (await readFile(ledger, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^\S+Z 127\.0\.0\.1 GET \/api\/configs$/);
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('20,000 distinct 15 KB CF-Connecting-IP values are one client: the limiters keep one key, RSS grows under 50 MB', async () => {
  const server = await startServer({
    SECURITY_RATE_LIMIT: '1000000',
    SECURITY_DELAY_AFTER: '1000000',
    LOG_LEVEL: 'warn',
  });
  const pool = new Pool(server.apiUrl, { connections: 16 });
  try {
    const pid = server.child.pid!;
    // Just under Node's 16 KiB limit on all headers together (over it, Node answers 431 itself).
    const padding = 'x'.repeat(15 * 1024);
    const send = async (i: number) => {
      const res = await pool.request({
        path: '/api/configs',
        method: 'GET',
        headers: { referer: 'http://localhost/', 'cf-connecting-ip': `${i}-${padding}` },
      });
      await res.body.dump();
      return res.statusCode;
    };
    // A first batch lets the process reach its working size before the measurement starts.
    for (let i = 0; i < 500; i++) assert.equal(await send(i), 200);
    const before = rss(pid);
    const statuses = new Map<number, number>();
    for (let start = 0; start < 20_000; start += 200) {
      const batch = await Promise.all(Array.from({ length: 200 }, (_, j) => send(start + j)));
      for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const growth = rss(pid) - before;
    assert.deepEqual([...statuses], [[200, 20_000]], 'every request answered, none limited');
    assert.ok(growth < 50 * 1024 * 1024, `RSS grew ${(growth / 1024 / 1024).toFixed(1)} MB`);
  } finally {
    await pool.close();
    await stopServer(server);
  }
});
