import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_ROOT } from '../../lib/app-root.js';
import { freePorts } from '../support/free-ports.js';
import { closedUpstreams, startServer, stopServer } from '../support/real-server.js';

test("the systemd unit's ExecStartPost waits while the service is not up yet and succeeds once /readyz answers", async () => {
  const unit = await readFile(join(APP_ROOT, 'deploy', 'netdiag-backend.service'), 'utf8');
  const line = /^ExecStartPost=(.+)$/m.exec(unit)?.[1];
  assert.ok(line, 'the unit has an ExecStartPost');
  // systemd turns $$ into $ and hands the rest to the shell it names.
  const command = line.replaceAll('$$', '$');
  const [port] = (await freePorts(1)) as [number];
  const wait = spawn('/bin/sh', ['-c', command], {
    env: { PATH: process.env.PATH ?? '', BACKEND_PORT: String(port) },
    stdio: 'ignore',
  });
  const waited = once(wait, 'exit') as Promise<[number | null]>;

  // Nothing listens yet: the check keeps trying rather than failing the start.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(wait.exitCode, null, 'still waiting while the port refuses connections');

  const server = await startServer({ ...(await closedUpstreams()), BACKEND_PORT: String(port) });
  try {
    const [code] = await waited;
    assert.equal(code, 0);
  } finally {
    await stopServer(server);
  }
});
