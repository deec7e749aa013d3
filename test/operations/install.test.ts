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

test('npm ci on a fresh clone prints its summary and nothing else: no warning, no notice', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'npm-ci-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const file of ['package.json', 'package-lock.json']) await copyFile(join(APP_ROOT, file), join(dir, file));
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
  // Install scripts left on, as a newcomer's npm ci runs them: npm 11.16 and later list every dependency whose
  // scripts package.json's allowScripts does not cover, which a dry run does from the lock file alone.
  const { stdout, stderr } = await run('npm', ['ci', '--dry-run', '--offline', '--no-audit', '--no-fund'], {
    cwd: dir,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  // A dry run lists what it would add, line by line (`add <name> <version>`); a real one does not.
  const said = `${stdout}\n${stderr}`.split('\n').filter((line) => line.trim() && !/^add \S+ \S+$/.test(line));
  assert.equal(said.length, 1, said.join('\n'));
  assert.match(said[0]!, /^added \d+ packages in /);
});
