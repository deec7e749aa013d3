import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { freePorts } from '../support/free-ports.js';
import { Nginx } from '../support/nginx.js';
import { BASE_IMAGE, IMAGE, IMAGE_SOURCE, buildImage, packageVersion, podman } from '../support/podman.js';
import { until } from '../support/until.js';

// The image from the Dockerfile on real sockets: as an orchestrator runs it
// (read-only root, DATA_DIR a volume, /tmp a tmpfs), behind a real nginx, and
// stopped with SIGTERM while answering. Each test prints its figures.
const NAME = `netdiag-image-test-${process.pid}`;
const VOLUME = `${NAME}-data`;
const REFERER = { referer: 'http://localhost/' };
const DRAIN_MS = 5000;
const MB = 1000 * 1000;

let port: number;
let origin: string;
let startedAt: number;

const inspect = async (format: string, what = NAME) => (await podman(['inspect', '--format', format, what])).trim();
const exec = (...command: string[]) => podman(['exec', NAME, ...command]);
/** Whether `command` succeeds inside the container. */
const succeeds = (...command: string[]) =>
  exec(...command).then(
    () => true,
    () => false,
  );

before(async () => {
  const { buildSeconds } = await buildImage();
  console.log(`# figure: image build ${buildSeconds.toFixed(0)} s (stand-in bases already built)`);
  [port] = (await freePorts(1)) as [number];
  origin = `http://127.0.0.1:${port}`;
  await podman(['rm', '--force', '--ignore', NAME]);
  await podman(['volume', 'rm', '--force', VOLUME]).catch(() => {});
  await podman(['volume', 'create', VOLUME]);
  startedAt = Date.now();
  await podman([
    'run',
    '--detach',
    '--name',
    NAME,
    '--read-only',
    // Only the one tmpfs the image asks for, not podman's extra writable /run and /var/tmp.
    '--read-only-tmpfs=false',
    '--tmpfs',
    '/tmp',
    '--volume',
    `${VOLUME}:/data`,
    '--publish',
    `127.0.0.1:${port}:18966`,
    '--env',
    'LOG_FORMAT=json',
    '--env',
    'REPORT_STORE=local',
    // The drain's test loads a shared machine; shedding would answer 503 for the machine's lag, not the service's.
    '--env',
    'LOAD_SHEDDING=false',
    IMAGE,
  ]);
});

after(async () => {
  await podman(['rm', '--force', '--ignore', NAME]);
  await podman(['volume', 'rm', '--force', VOLUME]).catch(() => {});
});

test('the health check passes: node asks /healthz, no curl or wget in the image', async () => {
  await until(
    async () => {
      await podman(['healthcheck', 'run', NAME]);
      return true;
    },
    120_000,
    'the health check to pass',
  );
  console.log(`# figure: container start to healthy ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  assert.match(await inspect('{{json .HealthCheck.Test}}', IMAGE), /healthz/);
  assert.equal(await succeeds('sh', '-c', 'command -v curl || command -v wget'), false);
});

test('runs as the non-root user node, node itself as PID 1, listening on every address inside', async () => {
  assert.equal(await inspect('{{.Config.User}}', IMAGE), 'node');
  assert.equal((await exec('id', '-u')).trim(), '1000');
  assert.equal((await exec('cat', '/proc/1/status')).match(/^Uid:\s+(\d+)/m)?.[1], '1000');
  assert.equal(
    (await exec('cat', '/proc/1/cmdline')).split('\0').join(' ').trim(),
    'node --max-semi-space-size=2 dist/server.js',
  );
  // The launcher's tunables; glibc cuts the variable's text in place where it parsed the first.
  assert.match(await exec('cat', '/proc/1/environ'), /(^|\0)GLIBC_TUNABLES=glibc\.malloc\.trim_threshold=67108864\0/);
});

test('read-only root: only DATA_DIR and /tmp take writes; start-up logs no error and the report store opens in DATA_DIR', async () => {
  for (const dir of ['/', '/app', '/app/dist', '/home/node', '/var/tmp', '/run', '/etc']) {
    assert.equal(await succeeds('touch', `${dir}/written`), false, `${dir} is read-only`);
  }
  for (const dir of ['/data', '/tmp']) assert.ok(await succeeds('touch', `${dir}/written`), `${dir} takes writes`);
  const readiness = JSON.parse(
    await exec('node', '-e', 'fetch("http://127.0.0.1:11966/readyz").then((r) => r.text()).then(console.log)'),
  ) as { reportStore: unknown };
  assert.deepEqual(readiness.reportStore, { kind: 'local', ready: true, readable: true });
  assert.ok(await succeeds('test', '-d', '/data/reports'));
  const lines = (await podman(['logs', NAME]))
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
  assert.ok(
    lines.some((line) => /front listener/.test(line.msg)),
    'started',
  );
  assert.deepEqual(
    lines.filter((line) => line.level >= 50),
    [],
    'no error in the log',
  );
});

test('the site, /api/configs and curl answer through the published port', async () => {
  const home = await request(`${origin}/`);
  assert.equal(home.statusCode, 200);
  assert.match(String(home.headers['content-type']), /^text\/html/);
  assert.match(await home.body.text(), /<div id="app"/);

  const configs = await request(`${origin}/api/configs`, { headers: REFERER });
  assert.equal(configs.statusCode, 200);
  assert.equal(typeof ((await configs.body.json()) as Record<string, unknown>).reportSharing, 'boolean');

  const { stdout } = await promisify(execFile)('curl', ['--silent', '--show-error', '--fail', `${origin}/ip`]);
  assert.match(stdout.trim(), /^[0-9a-f.:]+$/);
});

test('behind a real nginx (deploy/nginx-instances.conf), the address answered is the client’s, not nginx’s', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'image-nginx-'));
  const nginx = await Nginx.start(dir, [port]);
  t.after(async () => {
    await nginx.stop();
    await rm(dir, { recursive: true, force: true });
  });
  // The client comes from 127.0.0.2, nginx from the container's gateway or loopback.
  const client = new Agent({ localAddress: '127.0.0.2' });
  t.after(() => client.close());
  const ip = await request(`${nginx.origin}/ip`, { dispatcher: client, headers: { 'user-agent': 'curl/8.0' } });
  assert.equal(ip.statusCode, 200);
  assert.equal((await ip.body.text()).trim(), '127.0.0.2');
  const api = await request(`${nginx.origin}/api/client-ip`, { dispatcher: client, headers: REFERER });
  assert.equal(api.statusCode, 200);
  assert.match(await api.body.text(), /"127\.0\.0\.2"/);
});

test('the image adds at most 100 MB to its base, and its OCI labels name the source, version and licence', async () => {
  const size = Number(await inspect('{{.Size}}', IMAGE));
  const base = Number(await inspect('{{.Size}}', BASE_IMAGE));
  console.log(
    `# figure: image ${(size / MB).toFixed(0)} MB, base ${(base / MB).toFixed(0)} MB, added ${((size - base) / MB).toFixed(0)} MB`,
  );
  assert.ok(size - base <= 100 * MB, `${((size - base) / MB).toFixed(0)} MB over the base`);
  const labels = JSON.parse(await inspect('{{json .Config.Labels}}', IMAGE)) as Record<string, string>;
  assert.equal(labels['org.opencontainers.image.version'], await packageVersion());
  assert.equal(labels['org.opencontainers.image.licenses'], 'MIT');
  assert.equal(labels['org.opencontainers.image.source'], IMAGE_SOURCE);
});

test('SIGTERM to PID 1 while answering: /readyz 503 at once, no request fails, exit 0 within the drain plus 2 s', async () => {
  // A load balancer's view: requests keep coming until it has seen the 503, and for a second after.
  let readinessSeen503At = 0;
  const sending = { on: true };
  const failures: string[] = [];
  let answered = 0;
  const oneRequest = async (path: string) => {
    try {
      const res = await request(`${origin}${path}`, { headers: REFERER });
      const body = await res.body.arrayBuffer();
      if (res.statusCode !== 200) failures.push(`${path}: ${res.statusCode}`);
      else if (path.startsWith('/speed/') && body.byteLength !== 5 * MB) {
        failures.push(`${path}: ${body.byteLength} bytes`);
      } else answered++;
    } catch (err) {
      failures.push(`${path}: ${(err as Error).message}`);
    }
  };
  const traffic = async (path: string) => {
    while (sending.on) await oneRequest(path);
  };
  const probe = async () => {
    while (!readinessSeen503At) {
      const res = await request(`${origin}/readyz`).catch(() => undefined);
      await res?.body.dump();
      if (res?.statusCode === 503) readinessSeen503At = Date.now();
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const senders = [
    traffic('/api/configs'),
    traffic('/api/configs'),
    traffic(`/speed/down?bytes=${5 * MB}`),
    traffic(`/speed/down?bytes=${5 * MB}`),
  ];
  await new Promise((resolve) => setTimeout(resolve, 500));
  const signalledAt = Date.now();
  await podman(['kill', '--signal', 'TERM', NAME]);
  await probe();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  sending.on = false;
  await Promise.all(senders);
  const exitCode = (await podman(['wait', NAME], 'podman', 60_000)).trim();
  const exitedAt = Date.parse(await inspect('{{.State.FinishedAt}}'));
  console.log(
    `# figure: drain: readiness 503 after ${readinessSeen503At - signalledAt} ms, exit after ${exitedAt - signalledAt} ms (SHUTDOWN_DRAIN_MS ${DRAIN_MS}), ${answered} requests answered`,
  );
  assert.deepEqual(failures, []);
  assert.ok(answered > 0);
  assert.equal(exitCode, '0');
  assert.ok(readinessSeen503At - signalledAt < DRAIN_MS, 'readiness turned 503 within the drain');
  assert.ok(exitedAt - signalledAt <= DRAIN_MS + 2000, `exited ${exitedAt - signalledAt} ms after SIGTERM`);
  assert.match(await podman(['logs', NAME]), /draining: \/readyz answers 503/);
});
