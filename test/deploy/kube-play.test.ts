import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { fromAppRoot } from '../../lib/app-root.js';
import { freePorts } from '../support/free-ports.js';
import { buildImage, podman } from '../support/podman.js';
import { until } from '../support/until.js';

// deploy/kubernetes as `podman kube play` runs it (docs/deploy-kubernetes.md,
// "Trying the manifests with podman", says why each change): the Secret made
// beforehand from its data as JSON, with REDIS_URL naming the Redis pod (podman
// resolves no Service); one replica, as podman publishes the container ports
// on the host, each on a free port of the host here (a shared machine may run
// the service on its default ports); the Service, budget and autoscaler played and ignored; the
// Ingresses, which podman does not take, left out.
const MANIFESTS = fromAppRoot('deploy/kubernetes');
const SECRET = 'netdiag-backend';
const PLAYED = [
  'redis-deployment.yaml',
  'redis-service.yaml',
  'configmap.yaml',
  'deployment.yaml',
  'service.yaml',
  'pdb.yaml',
  'hpa.yaml',
];

let dir: string;
let played: string;
let front: string;

/** The `data` map of secret.yaml: `NAME: 'base64'` lines. */
function secretData(text: string): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(/^ {2}([A-Z0-9_]+): '([^']*)'$/gm)) data[name!] = value!;
  return data;
}

/** Runs `node -e <script>` in the service's container, which holds no curl. */
async function inService(script: string): Promise<string> {
  const names = (await podman(['ps', '--format', '{{.Names}}'])).split('\n');
  const name = names.find((line) => /^netdiag-backend-pod.*-netdiag-backend$/.test(line));
  assert.ok(name, `the service container runs: ${names.join(', ')}`);
  return podman(['exec', name, 'node', '-e', script]);
}

before(async () => {
  await buildImage();
  dir = await mkdtemp(join(tmpdir(), 'kube-play-'));
  const data = secretData(await readFile(join(MANIFESTS, 'secret.yaml'), 'utf8'));
  assert.ok('REDIS_URL' in data, 'secret.yaml holds REDIS_URL');
  data.REDIS_URL = Buffer.from('redis://netdiag-redis-pod-0:6379').toString('base64');
  await writeFile(join(dir, 'secret.json'), JSON.stringify(data));
  await podman(['secret', 'rm', SECRET]).catch(() => {});
  await podman(['secret', 'create', SECRET, join(dir, 'secret.json')]);
  const texts = await Promise.all(PLAYED.map((file) => readFile(join(MANIFESTS, file), 'utf8')));
  played = join(dir, 'manifests.yaml');
  const manifests = texts.join('\n---\n').replace(/^( {2}replicas:) \d+$/gm, '$1 1');
  const ports = [...manifests.matchAll(/containerPort: (\d+)/g)].map((match) => Number(match[1]));
  const free = await freePorts(ports.length);
  const hostPort = new Map(ports.map((port, i) => [port, free[i]!]));
  front = `http://127.0.0.1:${hostPort.get(18966)}`;
  await writeFile(
    played,
    manifests.replace(
      /^( *)containerPort: (\d+)$/gm,
      (line, indent: string, port: string) => `${line}\n${indent}hostPort: ${hostPort.get(Number(port))}`,
    ),
  );
  await podman(['kube', 'play', played]);
});

after(async () => {
  if (played) await podman(['kube', 'down', played]).catch(() => {});
  await podman(['secret', 'rm', SECRET]).catch(() => {});
  for (const volume of ['netdiag-data', 'netdiag-tmp', 'netdiag-redis-data']) {
    await podman(['volume', 'rm', '--force', volume]).catch(() => {});
  }
  await rm(dir, { recursive: true, force: true });
});

test('podman kube play of deploy/kubernetes: the site answers and /readyz reports the Redis report store ready', async () => {
  await until(
    async () => {
      const res = await request(`${front}/readyz`);
      await res.body.dump();
      return res.statusCode === 200;
    },
    180_000,
    'the service pod to be ready',
  );
  const site = await request(`${front}/`);
  assert.equal(site.statusCode, 200);
  assert.match(await site.body.text(), /<div id="app"/);
  // The detailed readiness is the API listener's, which no Service exposes: asked from inside the pod.
  await until(
    async () => {
      const text = await inService(
        `fetch('http://127.0.0.1:11966/readyz').then(async (r) => console.log(await r.text()))`,
      );
      const report = JSON.parse(text) as { reportStore?: { kind: string; ready: boolean } };
      return report.reportStore?.kind === 'redis' && report.reportStore.ready;
    },
    60_000,
    '/readyz to report the Redis store ready',
  );
});
