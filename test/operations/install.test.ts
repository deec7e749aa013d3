import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { APP_ROOT } from '../../lib/app-root.js';

const run = promisify(execFile);

test('npm ci on this Node (a line package.json claims) warns of no package that does not support it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'npm-ci-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const file of ['package.json', 'package-lock.json']) await copyFile(join(APP_ROOT, file), join(dir, file));
  // A dry run reads the lock file and checks every package's engines without installing anything; offline, it
  // reaches no registry (the lock names every version, and nothing is downloaded).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
  const { stdout, stderr } = await run(
    'npm',
    ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 },
  );
  const output = `${stdout}\n${stderr}`;
  assert.match(output, /added \d+ packages/, output.slice(-2000));
  const packages = output.split('\n').flatMap((line) => /EBADENGINE\s+package: '([^']+)'/.exec(line)?.[1] ?? []);
  assert.deepEqual(packages, [], `packages whose engines leave out Node ${process.version}`);
});
