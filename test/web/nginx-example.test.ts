import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startFront } from '../support/front-server.js';
import { Nginx } from '../support/nginx.js';

// The shipped nginx example (deploy/nginx-instances.conf) adds the one security
// header the service cannot send, and leaves the service's own as they are.

test('the shipped nginx example sends Strict-Transport-Security beside the service’s own headers', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nginx-example-'));
  const front = await startFront({});
  let nginx: Nginx | undefined;
  try {
    nginx = await Nginx.start(dir, [Number(new URL(front.origin).port)]);
    const res = await request(`${nginx.origin}/api/configs`, { headers: { referer: 'http://localhost/' } });
    await res.body.dump();
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['strict-transport-security'], 'max-age=63072000');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  } finally {
    await nginx?.stop();
    await front.close();
    await rm(dir, { recursive: true, force: true });
  }
});
