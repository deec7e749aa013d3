import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { APP_ROOT } from '../../lib/app-root.js';
import { GLIBC_TUNABLES, LAUNCHER, startServer, stop } from '../../bench/processes.js';
import { writeSiteFixture } from '../../bench/site-fixture.js';
import { closedUpstreams } from '../support/real-server.js';

const run = promisify(execFile);
const FLAG = '--max-semi-space-size=2';

/** A folder whose `node` prints the arguments and GLIBC_TUNABLES it was given, one per line, instead of running. */
async function standInNode(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'stand-in-node-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'node'), '#!/bin/sh\nprintf "%s\\n" "$@" "GLIBC_TUNABLES=$GLIBC_TUNABLES"\n');
  await chmod(join(dir, 'node'), 0o755);
  return dir;
}

async function launched(command: string, args: string[], path: string, env: Record<string, string> = {}) {
  const { stdout } = await run(command, args, { cwd: APP_ROOT, env: { PATH: `${path}:/usr/bin:/bin`, ...env } });
  return stdout.trim().split('\n');
}

test('the launcher runs node with the young-generation flag and glibc tunables, unless the environment names its own', async (t) => {
  const path = await standInNode(t);
  assert.deepEqual(await launched(LAUNCHER, [], path), [FLAG, 'dist/server.js', `GLIBC_TUNABLES=${GLIBC_TUNABLES}`]);
  assert.deepEqual(await launched(LAUNCHER, [], path, { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' }), [
    FLAG,
    'dist/server.js',
    'GLIBC_TUNABLES=glibc.malloc.arena_max=1',
  ]);
  assert.deepEqual(await launched(LAUNCHER, ['--import', 'tsx', 'server.ts'], path), [
    FLAG,
    '--import',
    'tsx',
    'server.ts',
    `GLIBC_TUNABLES=${GLIBC_TUNABLES}`,
  ]);
});

test('npm start runs the launcher', async (t) => {
  const { scripts } = JSON.parse(await readFile(join(APP_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const path = await standInNode(t);
  assert.deepEqual(await launched('/bin/sh', ['-c', scripts.start], path), [
    FLAG,
    'dist/server.js',
    `GLIBC_TUNABLES=${GLIBC_TUNABLES}`,
  ]);
});

test('both systemd units start the launcher in their working directory, and set no tunables of their own', async () => {
  for (const name of ['netdiag-backend.service', 'netdiag-backend@.service']) {
    const unit = await readFile(join(APP_ROOT, 'deploy', name), 'utf8');
    const dir = /^WorkingDirectory=(.+)$/m.exec(unit)?.[1];
    assert.equal(/^ExecStart=(.+)$/m.exec(unit)?.[1], `${dir}/bin/start.sh`, name);
    assert.doesNotMatch(
      unit,
      /^Environment=GLIBC_TUNABLES/m,
      `${name}: the launcher's value, overridable by the EnvironmentFile`,
    );
  }
});

test('the image runs the launcher from its working directory, and the Kubernetes pods run the image as it is', async () => {
  const dockerfile = await readFile(join(APP_ROOT, 'Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  assert.equal(/^WORKDIR (.+)$/m.exec(finalStage)?.[1], '/app');
  assert.match(finalStage, /^COPY bin\/start\.sh bin\/$/m);
  assert.deepEqual(JSON.parse(/^CMD (.+)$/m.exec(finalStage)?.[1] ?? 'null'), ['bin/start.sh']);
  assert.doesNotMatch(finalStage, /GLIBC_TUNABLES/, "the launcher's value, overridable by the container's environment");
  assert.match(await readFile(join(APP_ROOT, '.dockerignore'), 'utf8'), /^!bin\/start\.sh$/m);

  const deployment = parse(await readFile(join(APP_ROOT, 'deploy/kubernetes/deployment.yaml'), 'utf8')) as {
    spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
  };
  for (const container of deployment.spec.template.spec.containers) {
    assert.equal(container.command, undefined, 'the image entry point runs');
    assert.equal(container.args, undefined, "the image's CMD runs");
  }
});

test("the bench's servers run through the launcher", async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'bench-launch-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const server = await startServer(
    {
      HOST: '127.0.0.1',
      DATA_DIR: root,
      FRONTEND_DIR: await writeSiteFixture(join(root, 'site')),
      ...(await closedUpstreams()),
    },
    join(root, 'server.log'),
    false,
  );
  t.after(() => stop(server.child));
  const pid = server.child.pid!;
  assert.ok(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(FLAG));
  // glibc cuts the variable's text in place as it parses the first tunable: what is left is the start of it.
  const tunables = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .find((entry) => entry.startsWith('GLIBC_TUNABLES='));
  assert.ok(tunables && `GLIBC_TUNABLES=${GLIBC_TUNABLES}`.startsWith(tunables), tunables);
});
