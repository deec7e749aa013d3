import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { measurementPlan, MB } from '../../web/site/src/features/speed/plan.js';
import { startFront, type FrontServer } from '../support/front-server.js';
import { Nginx } from '../support/nginx.js';
import { stalledDownload, type Stalled } from '../support/stalled-client.js';

// The shipped nginx example (deploy/nginx-instances.conf) as written, in front
// of the real front listener: what a visitor's speed test meets behind it.

const REFERER = 'http://localhost/speed';

async function withNginx(env: Record<string, string>, run: (nginx: Nginx, front: FrontServer) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'speed-nginx-'));
  const front = await startFront(env);
  let nginx: Nginx | undefined;
  try {
    nginx = await Nginx.start(dir, [Number(new URL(front.origin).port)]);
    await run(nginx, front);
  } finally {
    await nginx?.stop();
    await front.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test("the site's default speed run passes through the shipped nginx configuration whole", async () => {
  await withNginx({}, async (nginx) => {
    // The page's defaults (SpeedPage.vue): downloads up to 50 MB, uploads up to 25 MB.
    const plan = measurementPlan(50 * MB, 25 * MB);
    const failures: string[] = [];
    let measured = 0;
    // The engine's latency probes, also sent while a transfer runs (its loaded latency).
    const ping = async (during: string) => {
      const res = await request(`${nginx.origin}/speed/down?bytes=0&during=${during}`, {
        headers: { referer: REFERER },
      });
      await res.body.dump();
      if (res.statusCode !== 200) failures.push(`ping during ${during}: ${res.statusCode}`);
    };
    for (const step of plan) {
      if (step.type === 'latency') {
        for (let i = 0; i < step.numPackets; i++) await ping('idle');
        continue;
      }
      if (step.type !== 'download' && step.type !== 'upload') continue;
      for (let i = 0; i < step.count; i++) {
        const transfer = new AbortController();
        const probes = (async () => {
          while (!transfer.signal.aborted) {
            await ping(`${step.type}load`);
            await delay(400);
          }
        })();
        try {
          if (step.type === 'download') {
            const res = await request(`${nginx.origin}/speed/down?bytes=${step.bytes}`, {
              headers: { referer: REFERER },
            });
            const got = (await res.body.arrayBuffer()).byteLength;
            if (res.statusCode !== 200 || got !== step.bytes) {
              failures.push(`download ${step.bytes}: ${res.statusCode}, ${got} bytes`);
            }
          } else {
            // As the engine sends it: a string body of that many characters, its length declared.
            const answer = await request(`${nginx.origin}/speed/up?bytes=${step.bytes}`, {
              method: 'POST',
              body: '0'.repeat(step.bytes),
              headers: { referer: REFERER, 'content-type': 'text/plain;charset=UTF-8' },
            }).then(
              async (res) => ({ status: res.statusCode, body: await res.body.text() }),
              // A proxy refusing a body may close before the client has sent it all.
              (err: Error) => ({ status: 0, body: err.message }),
            );
            if (answer.status !== 200 || answer.body !== JSON.stringify({ bytes: step.bytes })) {
              failures.push(`upload ${step.bytes}: ${answer.status} ${answer.body.slice(0, 80)}`);
            }
          }
        } finally {
          transfer.abort();
          await probes;
        }
        measured++;
      }
    }
    assert.deepEqual(failures, []);
    // 3 of each smaller size and 4 of the largest: 100 kB, 1, 10, 25, 50 MB down; 100 kB, 1, 10, 25 MB up, and the first 100 kB.
    assert.equal(measured, 1 + 3 * 4 + 4 + 3 * 3 + 4);
  });
});

test('downloads a client stops reading fill no nginx temp file', { timeout: 120_000 }, async () => {
  await withNginx({ SPEEDTEST_CLIENT_TRANSFERS: '8' }, async (nginx) => {
    const stalled: Stalled[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        stalled.push(await stalledDownload(nginx.origin, '/speed/down?bytes=100000000', { referer: REFERER }));
      }
      for (const s of stalled) assert.equal(s.statusLine, 'HTTP/1.1 200 OK');
      // Buffered, nginx read each download from the instance as fast as it came and spooled what
      // the client did not take to its temp files (hundreds of MB within seconds); unbuffered it
      // holds no more than one buffer per client, and the instance waits on the client instead.
      let most = 0;
      for (let i = 0; i < 15; i++) {
        most = Math.max(most, await nginx.proxyTempBytes());
        await delay(200);
      }
      assert.equal(most, 0, `${most} bytes in nginx's temp files`);
    } finally {
      for (const s of stalled) s.destroy();
    }
  });
});
