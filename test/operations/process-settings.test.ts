import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { APP_ROOT } from '../../lib/app-root.js';
import { GLIBC_TUNABLES } from '../../bench/processes.js';

const run = promisify(execFile);

test('both systemd units set the glibc tunables the bench measures', async () => {
  for (const name of ['netdiag-backend.service', 'netdiag-backend@.service']) {
    const unit = await readFile(join(APP_ROOT, 'deploy', name), 'utf8');
    assert.equal(/^Environment=GLIBC_TUNABLES=(.+)$/m.exec(unit)?.[1], GLIBC_TUNABLES, name);
  }
});

test("npm start sets the same tunables unless the operator's environment names its own", async () => {
  const { scripts } = JSON.parse(await readFile(join(APP_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  // The start script with the server swapped for a command that prints what it was given.
  const printing = scripts.start.replace('node dist/server.js', 'printenv GLIBC_TUNABLES');
  assert.notEqual(printing, scripts.start, 'npm start runs node dist/server.js');
  const shell = (env: Record<string, string>) =>
    run('/bin/sh', ['-c', printing], { env: { PATH: process.env.PATH ?? '', ...env } });
  assert.equal((await shell({})).stdout.trim(), GLIBC_TUNABLES);
  assert.equal((await shell({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).stdout.trim(), 'glibc.malloc.arena_max=2');
});
