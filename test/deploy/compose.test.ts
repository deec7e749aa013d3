import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { EXAMPLE_REPORT } from '../../routes/report/examples.js';
import { freePorts } from '../support/free-ports.js';
import { PODMAN_ENV, buildImage, podman } from '../support/podman.js';
import { until } from '../support/until.js';

// compose.yaml as written, run by podman-compose on the image the Dockerfile
// builds (tagged with compose.yaml's name, so compose does not build it again)
// and the Redis stand-in: limits and reports shared through Redis.
const PROJECT = `netdiag-compose-test-${process.pid}`;
const REFERER = { referer: 'http://localhost/' };

let origin: string;

const compose = (...args: string[]) => podman(['--project-name', PROJECT, ...args], 'podman-compose');

before(async () => {
  await buildImage();
  const [port] = (await freePorts(1)) as [number];
  origin = `http://127.0.0.1:${port}`;
  // What an operator's .env would set: compose.yaml passes these names into the container.
  Object.assign(PODMAN_ENV, { NETDIAG_PUBLISHED_PORT: String(port), SECURITY_RATE_LIMIT: '1000', LOG_FORMAT: 'json' });
  await compose('up', '--detach');
  await until(
    async () => {
      const res = await request(`${origin}/api/configs`, { headers: REFERER });
      const configs = (await res.body.json()) as { reportSharing?: boolean };
      return res.statusCode === 200 && configs.reportSharing === true;
    },
    180_000,
    'the service to answer with report sharing on (Redis reached)',
  );
});

after(async () => {
  await compose('down', '--volumes').catch((err: Error) => console.log(`# ${err.message}`));
});

const redisCli = async (...args: string[]) =>
  (await podman(['exec', `${PROJECT}_redis_1`, 'redis-cli', ...args])).trim().split('\n').filter(Boolean);

test('compose up: the site answers on the published port, a report created is read back from Redis', async () => {
  const home = await request(`${origin}/`);
  assert.equal(home.statusCode, 200);
  assert.match(await home.body.text(), /<div id="app"/);

  const created = await request(`${origin}/api/report`, {
    method: 'POST',
    headers: { ...REFERER, 'content-type': 'application/json' },
    body: JSON.stringify({ report: EXAMPLE_REPORT, ttlDays: 1 }),
  });
  assert.equal(created.statusCode, 201);
  const { id } = (await created.body.json()) as { id: string };
  assert.deepEqual(await redisCli('exists', `netdiag:report:${id}`), ['1']);

  const read = await request(`${origin}/api/report/${id}`, { headers: REFERER });
  assert.equal(read.statusCode, 200);
  assert.deepEqual(((await read.body.json()) as { report: unknown }).report, EXAMPLE_REPORT);
});

test('compose up: the limiters count in Redis, not in the process', async () => {
  for (let i = 0; i < 3; i++) await (await request(`${origin}/api/configs`, { headers: REFERER })).body.dump();
  const keys = (await redisCli('--scan')).filter((key) => !key.startsWith('netdiag:report:'));
  assert.ok(keys.length > 0, 'limiter keys in Redis');
  const env = await podman(['inspect', '--format', '{{json .Config.Env}}', `${PROJECT}_netdiag_1`]);
  assert.match(env, /REDIS_URL=redis:\/\/redis:6379/);
  assert.match(env, /REPORT_STORE=redis/);
});
