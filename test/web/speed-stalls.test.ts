import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { startFront, type FrontServer } from '../support/front-server.js';
import { stalledDownload, stalledUpload, type Stalled } from '../support/stalled-client.js';

const REFERER = 'http://localhost/speed';
// Far above the stall timeouts these tests set (1 s), far below anything that
// would end a stalled transfer without them (the listener's 30 s request timeout).
const WITHIN_MS = 15_000;
const TOTAL = 100_000_000;

/** The front listener on `env`; the stalled clients `run` keeps in its list are closed after it, whatever happened. */
async function withFront(env: Record<string, string>, run: (front: FrontServer, stalled: Stalled[]) => Promise<void>) {
  const front = await startFront(env);
  const stalled: Stalled[] = [];
  try {
    await run(front, stalled);
  } finally {
    for (const s of stalled) s.destroy();
    await front.close();
  }
}

const from = (ip: string) => ({ referer: REFERER, 'x-forwarded-for': ip });

async function download(front: FrontServer, ip: string, bytes = 10) {
  const res = await request(`${front.origin}/speed/down?bytes=${bytes}`, { headers: from(ip) });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

/** Resolves with `promise`'s value, or fails once WITHIN_MS have passed. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  const timer = delay(WITHIN_MS).then(() => {
    throw new Error(`${what}: not within ${WITHIN_MS / 1000} s`);
  });
  return Promise.race([promise, timer]);
}

/** Waits (at most WITHIN_MS) until `ip`'s download, refused with `status` for now, is admitted. */
async function admittedAgain(front: FrontServer, ip: string, status: number) {
  await within(
    (async () => {
      for (;;) {
        const res = await download(front, ip);
        if (res.status === 200) return assert.equal(res.body.length, 10);
        assert.equal(res.status, status);
        await delay(200);
      }
    })(),
    'a transfer was admitted again',
  );
}

test('a download whose client stops reading is ended after the stall timeout, giving its slot back', async () => {
  await withFront({ SPEEDTEST_STALL_TIMEOUT_MS: '1000', SPEEDTEST_CLIENT_TRANSFERS: '3' }, async (front, stalled) => {
    for (let i = 0; i < 3; i++) {
      stalled.push(await stalledDownload(front.origin, `/speed/down?bytes=${TOTAL}`, from('203.0.113.7')));
    }
    for (const s of stalled) assert.equal(s.statusLine, 'HTTP/1.1 200 OK');
    // While they hold the client's three slots, a fourth transfer is refused.
    assert.equal((await download(front, '203.0.113.7')).status, 429);

    // Once they have stalled for the timeout, the server gives up on them and their slots come back.
    await admittedAgain(front, '203.0.113.7', 429);
    // Reading again, each gets what was already on its way and then the end, far short of what it asked for.
    for (const s of stalled) s.resume();
    const got = await within(Promise.all(stalled.map((s) => s.closed)), 'the stalled downloads ended');
    for (const { received } of got) assert.ok(received < TOTAL, `a stalled download still got all ${received} bytes`);
  });
});

test('a stalled upload is ended after the stall timeout, long before the request timeout', async () => {
  await withFront({ SPEEDTEST_STALL_TIMEOUT_MS: '1000', SPEEDTEST_CLIENT_TRANSFERS: '1' }, async (front, stalled) => {
    const upload = await stalledUpload(front.origin, '/speed/up', from('203.0.113.8'), 10_000_000, 100_000);
    stalled.push(upload);
    const { received } = await within(upload.closed, 'the stalled upload was closed');
    // Closed without an answer: the client is not sending, and there is nothing to measure.
    assert.equal(received, 0);
    assert.equal((await download(front, '203.0.113.8')).status, 200);
  });
});

test('past SPEEDTEST_TRANSFERS transfers from all clients, one more is 503 with Retry-After; the site still answers', async () => {
  await withFront(
    { SPEEDTEST_STALL_TIMEOUT_MS: '1000', SPEEDTEST_TRANSFERS: '2', SPEEDTEST_CLIENT_TRANSFERS: '8' },
    async (front, stalled) => {
      // Two clients (not one over its own limit) each holding a stalled download.
      for (const ip of ['198.51.100.1', '2001:db8:1::1']) {
        stalled.push(await stalledDownload(front.origin, `/speed/down?bytes=${TOTAL}`, from(ip)));
      }
      for (const s of stalled) assert.equal(s.statusLine, 'HTTP/1.1 200 OK');
      const busy = await download(front, '192.0.2.50');
      assert.equal(busy.status, 503);
      assert.deepEqual(JSON.parse(busy.body.toString()), {
        error: 'The speed test is busy with other visitors; try again in a moment',
      });
      // The longest a stalled transfer keeps its slot: two stall timeouts.
      assert.equal(busy.headers['retry-after'], '2');
      assert.equal(busy.headers['cache-control'], 'no-store');
      const up = await request(`${front.origin}/speed/up`, { method: 'POST', body: 'x', headers: from('192.0.2.50') });
      assert.equal(up.statusCode, 503);
      await up.body.dump();
      const page = await request(`${front.origin}/`);
      assert.equal(page.statusCode, 200);
      await page.body.dump();

      // The stalled ones end at the stall timeout; then the others' transfers run again.
      await admittedAgain(front, '192.0.2.50', 503);
    },
  );
});
