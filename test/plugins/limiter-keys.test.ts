import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { buildTestApi, call } from '../support/app.js';
import { startServer, stopServer, type Running } from '../support/real-server.js';
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

/** The statuses of GET `path` on `server`, one request per client address, `concurrency` at a time, in order. */
async function fromEach(server: Running, ips: string[], path = '/api/configs', concurrency = 8): Promise<number[]> {
  const pool = new Pool(server.apiUrl, { connections: concurrency });
  const statuses: number[] = [];
  try {
    for (let start = 0; start < ips.length; start += concurrency) {
      const batch = ips.slice(start, start + concurrency).map(async (ip) => {
        const res = await pool.request({
          path,
          method: 'GET',
          headers: { referer: 'http://localhost/', 'x-forwarded-for': ip },
        });
        await res.body.dump();
        return res.statusCode;
      });
      statuses.push(...(await Promise.all(batch)));
    }
  } finally {
    await pool.close();
  }
  return statuses;
}

/** `count` addresses inside the /64 `2001:db8:7:7::/64`, each one different. */
const insideOne64 = (count: number) =>
  Array.from({ length: count }, (_, i) => `2001:db8:7:7:${(i + 1).toString(16)}::1`);

const tally = (statuses: number[]) =>
  Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length]));

test('a client rotating 300 addresses inside one IPv6 /64 is one client: 50 answers at a limit of 50, then 429; the ledger names the /64', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-64-'));
  const ledger = join(dir, 'ledger.log');
  const server = await startServer({
    SECURITY_RATE_LIMIT: '50',
    SECURITY_BLACKLIST_LOG_FILE_PATH: ledger,
    LOG_LEVEL: 'warn',
  });
  try {
    // One at a time, so the first 50 are exactly the ones answered.
    const statuses = await fromEach(server, insideOne64(300), '/api/configs', 1);
    assert.deepEqual(statuses.slice(0, 50), Array(50).fill(200));
    assert.deepEqual(tally(statuses.slice(50)), { 429: 250 });
    assert.deepEqual(await fromEach(server, ['2001:db8:7:8::1']), [200], 'the next /64 is another client');
    for (let i = 0; i < 100 && !(await readFile(ledger, 'utf8').catch(() => '')); i++) await delay(20);
    const lines = (await readFile(ledger, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /^\S+Z 2001:db8:7:7::\/64 GET \/api\/configs$/);
    const warnings = server.lines.filter((l) => l.msg === 'client entered the rate-limited state');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.key, '2001:db8:7:7::/64');
    assert.equal(warnings[0]!.ip, '2001:db8:7:7:33::1', 'the log line keeps the full address of the 51st request');
  } finally {
    await stopServer(server);
    await rm(dir, { recursive: true, force: true });
  }
});

test('the slow-down counts one /64 as one client too', async () => {
  const server = await startServer({ SECURITY_DELAY_AFTER: '3', LOG_LEVEL: 'warn' });
  try {
    await fromEach(server, insideOne64(3), '/api/configs', 1);
    const start = performance.now();
    assert.deepEqual(await fromEach(server, ['2001:db8:7:7:ffff::1']), [200]);
    // Counted per address, this fourth address would be a first request and not wait at all.
    assert.ok(performance.now() - start >= 395, 'held back one 400 ms step');
  } finally {
    await stopServer(server);
  }
});

test('a limited IPv4 client stays limited while 5,100 other /64s each make a request', async () => {
  const server = await startServer({ SECURITY_RATE_LIMIT: '2', LOG_LEVEL: 'warn' });
  try {
    const limited = '198.51.100.77';
    assert.deepEqual(await fromEach(server, [limited, limited, limited], '/api/configs', 1), [200, 200, 429]);
    const others = Array.from({ length: 5100 }, (_, i) => `2001:db8:${(i + 1).toString(16)}::1`);
    assert.deepEqual(tally(await fromEach(server, others)), { 200: 5100 }, 'each other /64 is a first request');
    assert.deepEqual(await fromEach(server, [limited]), [429], 'still limited');
  } finally {
    await stopServer(server);
  }
});
