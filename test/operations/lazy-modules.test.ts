import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closedUpstreams, startServer, stopServer } from '../support/real-server.js';

const PRELOAD = fileURLToPath(new URL('../support/modules-at-listen.cjs', import.meta.url));

// Each is loaded with the first request that needs it (docs/performance.md, start-up): none may come back at start.
const LOADED_ON_USE = ['undici', 'web-push', 'ioredis', 'prom-client', 'tar', 'unbzip2-stream'];

test('the packages loaded on first use are not loaded before the listeners open, the address watch and web push set up included', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'lazy-modules-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const list = join(dir, 'modules');
  const server = await startServer({
    ...(await closedUpstreams()),
    NODE_OPTIONS: `--require ${PRELOAD}`,
    MODULES_AT_LISTEN: list,
    // Web push on: the address watch's notifier is then fully set up at start.
    WEB_PUSH_VAPID_PUBLIC_KEY:
      'BAbcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz01234',
    WEB_PUSH_VAPID_PRIVATE_KEY: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
    WEB_PUSH_SUBJECT: 'mailto:operator@example.test',
  });
  t.after(() => (server.child.exitCode === null ? stopServer(server) : undefined));

  const modules = (await readFile(list, 'utf8')).split('\n');
  assert.ok(
    modules.some((path) => path.includes('/node_modules/fastify/')),
    'the list holds what was loaded',
  );
  const early = LOADED_ON_USE.filter((name) => modules.some((path) => path.includes(`/node_modules/${name}/`)));
  assert.deepEqual(early, [], 'loaded before listening');
});
