import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readlink } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { request, type Dispatcher } from 'undici';
import { startFront } from '../support/front-server.js';
import { chunkedUpload } from '../support/chunked-upload.js';

const REFERER = 'http://localhost/speed';

/** The real front listener (with the real API behind it) on a loopback port, on settings `env`. */
async function frontWith(env: Record<string, string> = {}) {
  const front = await startFront(env);
  return {
    ...front,
    /** A request as the page makes it, from client `ip` (the reverse proxy's X-Forwarded-For). */
    send: (
      path: string,
      options: { method?: Dispatcher.HttpMethod; body?: Buffer; ip?: string; headers?: Record<string, string> } = {},
    ) =>
      request(`${front.origin}${path}`, {
        method: options.method ?? 'GET',
        body: options.body,
        headers: { referer: REFERER, 'x-forwarded-for': options.ip ?? '203.0.113.7', ...options.headers },
      }),
  };
}

type Front = Awaited<ReturnType<typeof frontWith>>;

async function withFront(env: Record<string, string>, run: (front: Front) => Promise<void>) {
  const front = await frontWith(env);
  try {
    await run(front);
  } finally {
    await front.close();
  }
}

async function json(res: Dispatcher.ResponseData) {
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
}

/** The regular files this process has open (sockets, pipes and devices are not files). */
async function openFiles(): Promise<string[]> {
  const links = await Promise.all(
    (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  );
  return links.filter((l) => l.startsWith('/') && !l.startsWith('/dev/') && !l.startsWith('/proc/'));
}

test('a download is exactly the bytes asked for, random, uncached, uncompressed and timed', async () => {
  await withFront({}, async (front) => {
    const res = await front.send('/speed/down?bytes=3000000&measId=123', {
      headers: { 'accept-encoding': 'gzip, br' },
    });
    assert.equal(res.statusCode, 200);
    const body = Buffer.from(await res.body.arrayBuffer());
    assert.equal(body.length, 3_000_000);
    assert.equal(res.headers['content-length'], '3000000');
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['timing-allow-origin'], '*');
    assert.equal(res.headers['content-encoding'], undefined);
    // Incompressible: gzip cannot shrink it by even 1 %.
    assert.ok(gzipSync(body).length > body.length * 0.99);

    const ping = await front.send('/speed/down?bytes=0');
    assert.equal(ping.statusCode, 200);
    assert.equal((await ping.body.arrayBuffer()).byteLength, 0);
  });
});

test('a download over the cap or not a whole number is 400 with the range in words', async () => {
  await withFront({ SPEEDTEST_DOWNLOAD_MAX_BYTES: '1000' }, async (front) => {
    for (const bytes of ['1001', '-1', 'abc', '1.5', '']) {
      const res = await json(await front.send(`/speed/down?bytes=${bytes}`));
      assert.equal(res.status, 400, bytes);
      assert.deepEqual(res.body, { error: 'bytes must be a whole number from 0 to 1000' });
    }
    const missing = await json(await front.send('/speed/down'));
    assert.equal(missing.status, 400);
    const atCap = await front.send('/speed/down?bytes=1000');
    assert.equal(atCap.statusCode, 200);
    assert.equal((await atCap.body.arrayBuffer()).byteLength, 1000);
  });
});

test('an upload is counted and answered with its length, whatever its type', async () => {
  await withFront({}, async (front) => {
    for (const type of ['text/plain;charset=UTF-8', 'application/octet-stream', 'application/json']) {
      const res = await json(
        await front.send('/speed/up', {
          method: 'POST',
          body: Buffer.alloc(2_000_000, 48),
          headers: { 'content-type': type },
        }),
      );
      assert.equal(res.status, 200, type);
      assert.deepEqual(res.body, { bytes: 2_000_000 });
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['timing-allow-origin'], '*');
    }
  });
});

test('an upload past the cap is 413: refused unread when its length says so, cut off at the cap otherwise', async () => {
  await withFront({ SPEEDTEST_UPLOAD_MAX_BYTES: '100000' }, async (front) => {
    const declared = await json(await front.send('/speed/up', { method: 'POST', body: Buffer.alloc(100_001) }));
    assert.equal(declared.status, 413);
    assert.deepEqual(declared.body, { error: 'An upload may be at most 100000 bytes' });

    // The server stops reading at the cap and closes: a client still sending may meet the
    // close before it reads the 413. Either way it could not send the rest.
    const streamed = await chunkedUpload(front.origin, '/speed/up', 50_000_000, { referer: REFERER });
    if (streamed.error) assert.match(streamed.error, /^(ECONNRESET|EPIPE)$/);
    else {
      assert.equal(streamed.status, 413);
      assert.deepEqual(JSON.parse(streamed.body!), { error: 'An upload may be at most 100000 bytes' });
    }
    assert.ok(streamed.sent < 50_000_000, `the client sent all ${streamed.sent} bytes`);

    const atCap = await json(await front.send('/speed/up', { method: 'POST', body: Buffer.alloc(100_000) }));
    assert.equal(atCap.status, 200);
  });
});

test('the speed endpoints are behind the same Referer gate as /api', async () => {
  await withFront({ ALLOWED_DOMAINS: 'speed.example' }, async (front) => {
    for (const path of ['/speed/down?bytes=10', '/speed/up']) {
      const method = path === '/speed/up' ? 'POST' : 'GET';
      const none = await json(await front.send(path, { method, headers: { referer: '' } }));
      assert.equal(none.status, 403);
      assert.deepEqual(none.body, { error: 'What are you doing?' });
      const other = await json(await front.send(path, { method, headers: { referer: 'https://elsewhere.example/' } }));
      assert.equal(other.status, 403);
      assert.deepEqual(other.body, { error: 'Access denied' });
      const listed = await front.send(path, { method, headers: { referer: 'https://speed.example/speed' } });
      assert.equal(listed.statusCode, 200);
      await listed.body.dump();
    }
  });
});

test('one client past its request limit gets 429 with Retry-After; another client is unaffected', async () => {
  await withFront({ SPEEDTEST_RATE_LIMIT: '3' }, async (front) => {
    for (let i = 0; i < 3; i++) await (await front.send('/speed/down?bytes=0', { ip: '2001:db8:1:2::1' })).body.dump();
    // The same /64 is the same client.
    const over = await json(await front.send('/speed/down?bytes=0', { ip: '2001:db8:1:2::99' }));
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers['retry-after']) > 0);
    assert.deepEqual(over.body, { error: 'Too many speed test requests from your address; try again later' });
    const other = await front.send('/speed/down?bytes=0', { ip: '2001:db8:1:3::1' });
    assert.equal(other.statusCode, 200);
    await other.body.dump();
  });
});

test('one client past its bytes for the window gets 429; another client is unaffected', async () => {
  await withFront({ SPEEDTEST_CLIENT_BYTES: '1000' }, async (front) => {
    await (await front.send('/speed/down?bytes=600')).body.dump();
    const down = await json(await front.send('/speed/down?bytes=600'));
    assert.equal(down.status, 429);
    assert.ok(Number(down.headers['retry-after']) > 0);
    assert.match(String(down.body.error), /used its speed test allowance \(1000 bytes per 20 minutes\)/);
    const up = await json(await front.send('/speed/up', { method: 'POST', body: Buffer.alloc(600) }));
    assert.equal(up.status, 429);
    const other = await front.send('/speed/down?bytes=600', { ip: '198.51.100.9' });
    assert.equal(other.statusCode, 200);
    await other.body.dump();
  });
});

test('an upload without a length is charged as it arrives and stopped at the client allowance with 429', async () => {
  const BUDGET = 1_000_000;
  await withFront({ SPEEDTEST_CLIENT_BYTES: String(BUDGET) }, async (front) => {
    // Five bodies of 400 kB sent without a Content-Length: together twice the allowance.
    let accepted = 0;
    const refused: string[] = [];
    for (let i = 0; i < 5; i++) {
      const streamed = await chunkedUpload(front.origin, '/speed/up', 400_000, {
        referer: REFERER,
        'x-forwarded-for': '203.0.113.7',
      });
      if (streamed.status === 200) accepted += (JSON.parse(streamed.body!) as { bytes: number }).bytes;
      else if (streamed.error) {
        // Reading stops at the allowance and the connection is closed: a client still sending may
        // meet the close before it reads the 429.
        assert.match(streamed.error, /^(ECONNRESET|EPIPE)$/);
        refused.push(streamed.error);
      } else {
        assert.equal(streamed.status, 429);
        assert.match(
          JSON.parse(streamed.body!).error,
          /used its speed test allowance \(1000000 bytes per 20 minutes\)/,
        );
        refused.push('429');
      }
    }
    assert.ok(accepted <= BUDGET, `${accepted} bytes accepted against an allowance of ${BUDGET}`);
    assert.ok(refused.length >= 3, `only ${refused.length} of 5 refused`);
    // What the refused bodies brought before the cut was charged: the allowance is spent.
    const declared = await json(await front.send('/speed/up', { method: 'POST', body: Buffer.alloc(100_000) }));
    assert.equal(declared.status, 429);
    assert.ok(Number(declared.headers['retry-after']) > 0);
  });
});

test('one client gets a bounded number of transfers at once; another client is unaffected', async () => {
  const TRANSFERS_AT_ONCE = 3;
  await withFront({ SPEEDTEST_CLIENT_TRANSFERS: String(TRANSFERS_AT_ONCE) }, async (front) => {
    // Downloads the client does not read stay open, each holding its slot.
    const open = await Promise.all(
      Array.from({ length: TRANSFERS_AT_ONCE }, () => front.send('/speed/down?bytes=100000000')),
    );
    for (const res of open) assert.equal(res.statusCode, 200);
    const more = await json(await front.send('/speed/down?bytes=10'));
    assert.equal(more.status, 429);
    assert.deepEqual(more.body, { error: 'Too many speed test transfers at once from your address' });
    const other = await front.send('/speed/down?bytes=10', { ip: '198.51.100.9' });
    assert.equal(other.statusCode, 200);
    await other.body.dump();

    // A client that goes away gives its slot back.
    open.pop()!.body.destroy();
    let again: Dispatcher.ResponseData;
    do again = await front.send('/speed/down?bytes=10');
    while (again.statusCode === 429 && (await again.body.dump(), true));
    assert.equal(again.statusCode, 200);
    await again.body.dump();
    for (const res of open) res.body.destroy();
  });
});

test('a download and an upload in flight open no file', async () => {
  await withFront({}, async (front) => {
    const before = await openFiles();
    const down = await front.send('/speed/down?bytes=50000000');
    const upload = chunkedUpload(front.origin, '/speed/up', 20_000_000, { referer: REFERER });
    const during = await openFiles();
    await down.body.dump();
    assert.equal((await upload).status, 200);
    assert.deepEqual(
      during.filter((f) => !before.includes(f)),
      [],
    );
  });
});
