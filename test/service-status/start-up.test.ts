import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { FakeUpstream, fixture } from '../support/fake-upstream.js';
import { REFERER } from '../support/app.js';
import { spawnServer, stopServer } from '../support/real-server.js';

const STATUS_PAGE = /^\/api\/v2\/(summary|incidents)\.json$/;
const GITHUB = 'www.githubstatus.com';
// Far beyond the tenth of a second start-up waits, and beyond any busy machine's start;
// the upstream timeout is longer still, so only the bounded priming lets the service listen in time.
const LISTEN_WITHIN_MS = 20_000;
const UPSTREAM_TIMEOUT_MS = 60_000;

interface Overview {
  updatedAt: string | null;
  providers: Array<{ id: string; indicator: string }>;
}

async function cacheControlOf(url: string): Promise<unknown> {
  const res = await request(url, { headers: REFERER });
  await res.body.dump();
  return res.headers['cache-control'];
}

/** GETs `url` until it answers 200 or `withinMs` passes; the answer's body, or undefined. */
async function firstOk(url: string, withinMs: number): Promise<string | undefined> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    try {
      const res = await request(url, { headers: REFERER });
      const body = await res.body.text();
      if (res.statusCode === 200) return body;
    } catch {
      // not listening yet
    }
    await delay(50);
  }
  return undefined;
}

test('the service listens while every status page hangs, and the status cache fills in the background once they answer', async (t) => {
  const fake = await FakeUpstream.start();
  const held: Array<{ path: string; res: ServerResponse }> = [];
  fake.on('GET', '*', STATUS_PAGE, (req, res) => void held.push({ path: req.path, res }));
  const server = await spawnServer({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
  });
  t.after(async () => {
    if (server.child.exitCode === null) await stopServer(server);
    await fake.close();
  });

  assert.ok(await firstOk(`${server.frontUrl}/healthz`, LISTEN_WITHIN_MS), 'the front listener answers /healthz');
  const configs = await firstOk(`${server.frontUrl}/api/configs`, LISTEN_WITHIN_MS);
  assert.ok(configs, '/api/configs answers through the front listener');
  // The listeners open before the start-up steps run, so the first round may ask a moment after /api/configs answers.
  const askedBy = Date.now() + LISTEN_WITHIN_MS;
  while (held.length === 0 && Date.now() < askedBy) await delay(50);
  assert.ok(held.length > 0, 'the status pages were asked');
  assert.ok(
    held.every(({ res }) => !res.writableEnded && !res.destroyed),
    'every status page is still hanging',
  );
  const before = JSON.parse((await firstOk(`${server.apiUrl}/api/service-status`, LISTEN_WITHIN_MS))!) as Overview;
  assert.equal(before.updatedAt, null, 'no round has ended yet');
  assert.ok(before.providers.every((p) => p.indicator === 'unknown'));
  for (const path of ['/api/service-status', '/api/service-status/detail?id=github']) {
    assert.equal(await cacheControlOf(`${server.apiUrl}${path}`), 'no-store', `${path}: no cache keeps "unknown"`);
  }

  // The status pages answer at last: the round started at start-up ends and fills the cache.
  for (const { path, res } of held.splice(0)) {
    const name = path.endsWith('summary.json') ? 'summary.json' : 'incidents.json';
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fixture(GITHUB, name)));
  }
  const deadline = Date.now() + LISTEN_WITHIN_MS;
  let after: Overview | undefined;
  while (Date.now() < deadline) {
    after = JSON.parse((await firstOk(`${server.apiUrl}/api/service-status`, LISTEN_WITHIN_MS))!) as Overview;
    if (after.updatedAt !== null) break;
    await delay(50);
  }
  assert.notEqual(after?.updatedAt, null, 'the first round ended after the listeners opened');
  assert.ok(
    after!.providers.every((p) => p.indicator !== 'unknown'),
    `every provider has a light: ${JSON.stringify(after)}`,
  );
  for (const path of ['/api/service-status', '/api/service-status/detail?id=github']) {
    assert.equal(await cacheControlOf(`${server.apiUrl}${path}`), 'public, max-age=300', path);
  }
});
