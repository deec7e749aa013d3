import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';

const run = promisify(execFile);
const LAUNCHER = 'bin/build-if-changed.mjs';
// The launcher, the build's own first and last steps, which it shares the inputs' digest with, and what starts node.
const BIN = [LAUNCHER, 'bin/build-inputs.mjs', 'bin/build-stamp.mjs', 'bin/start.sh'];
// Generous: a process told to stop exits in well under a second, even on a busy machine.
const GONE_WITHIN_MS = 15_000;

// A stand-in for `npm run build`: counts its runs and writes what a build leaves in dist/ (a server that
// listens on a free loopback port and says so, and the site's index.html). FAIL_BUILD=1 makes it fail;
// HANG_BUILD=1 makes it write its pid and never end.
const FAKE_BUILD = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync('builds.log', 'build\\n');
if (process.env.FAIL_BUILD === '1') process.exit(1);
if (process.env.HANG_BUILD === '1') {
  writeFileSync('build.pid', String(process.pid));
  setInterval(() => {}, 1000);
} else {
mkdirSync('dist/site', { recursive: true });
writeFileSync('dist/site/index.html', '<!doctype html>');
writeFileSync('dist/server.js', \`
import { createServer } from 'node:http';
const server = createServer((_req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => process.stdout.write('listening ' + process.pid + ' ' + server.address().port + '\\\\n'));
\`);
}
`;

// One file of each kind the build reads, and two it does not.
const INPUTS = [
  'server.ts',
  'lib/thing.ts',
  'web/site/src/App.vue',
  'web/site/src/locales/en.json',
  'web/site/index.html',
  'package-lock.json',
  'tsconfig.json',
];
const NOT_INPUTS = ['test/thing.test.ts', 'docs/thing.md', 'routes/thing/README.md'];

/** A project folder with the real start scripts and launcher, a fake build, and a few sources. */
async function project(t: TestContext): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'npm-start-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const real = JSON.parse(await readFile(join(APP_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const { prestart, start, prebuild, postbuild } = real.scripts;
  const scripts = { prestart, start, prebuild, build: 'node fake-build.mjs', postbuild };
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'start-test', private: true, scripts }));
  await writeFile(join(root, 'fake-build.mjs'), FAKE_BUILD);
  await mkdir(join(root, 'bin'));
  for (const file of BIN) await copyFile(join(APP_ROOT, file), join(root, file));
  for (const file of [...INPUTS, ...NOT_INPUTS]) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), `${file}\n`);
  }
  return root;
}

/** Environment without the npm_ variables of an npm that may be running this test. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([n]) => !n.startsWith('npm_'))), ...extra };
}

async function builds(root: string): Promise<number> {
  try {
    return (await readFile(join(root, 'builds.log'), 'utf8')).split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** Runs the launcher as npm start's first step does; its exit code and output. */
async function launch(root: string, env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [LAUNCHER], { cwd: root, env: cleanEnv(env) });
    return { code: 0, output: stdout };
  } catch (err) {
    const { code, stdout } = err as { code: number; stdout: string };
    return { code, output: stdout };
  }
}

/** Moves a file's modification time on by `seconds`, as an edit saved later would. */
async function touch(file: string, seconds: number): Promise<void> {
  const later = new Date(Date.now() + seconds * 1000);
  await utimes(file, later, later);
}

test('npm start builds only when a source the build reads changed since the last build, or dist/ is incomplete', async (t) => {
  const root = await project(t);
  assert.match((await launch(root)).output, /building dist\/ \(no complete build in dist\/\)/);
  assert.equal(await builds(root), 1, 'a fresh tree is built');

  const unchanged = await launch(root);
  assert.match(unchanged.output, /dist\/ is up to date with the sources: no build/);
  assert.equal(await builds(root), 1, 'an unchanged tree is not built again');

  for (const [i, file] of NOT_INPUTS.entries()) await touch(join(root, file), i + 1);
  await launch(root);
  assert.equal(await builds(root), 1, 'tests and docs are not read by the build');

  let expected = 1;
  for (const [i, file] of INPUTS.entries()) {
    await touch(join(root, file), 100 + i);
    assert.match((await launch(root)).output, /the sources changed since the last build/, file);
    assert.equal(await builds(root), ++expected, `${file} changed: built`);
    await launch(root);
    assert.equal(await builds(root), expected, `${file} unchanged since: not built`);
  }

  await writeFile(join(root, 'lib/new.ts'), 'export {};\n');
  await launch(root);
  assert.equal(await builds(root), ++expected, 'a new source file: built');
  await rm(join(root, 'lib/new.ts'));
  await launch(root);
  assert.equal(await builds(root), ++expected, 'a removed source file: built');

  await rm(join(root, 'dist/site/index.html'));
  assert.match((await launch(root)).output, /no complete build/);
  assert.equal(await builds(root), ++expected, 'the site missing from dist/: built');
});

/** Runs `npm run build` as an operator does, outside npm start. */
async function npmRunBuild(root: string, env: Record<string, string> = {}): Promise<number> {
  try {
    await run('npm', ['run', 'build'], { cwd: root, env: cleanEnv(env) });
    return 0;
  } catch (err) {
    return (err as { code: number }).code;
  }
}

test('npm start after npm run build on an unchanged tree starts without building again', async (t) => {
  const root = await project(t);
  assert.equal(await npmRunBuild(root), 0);
  assert.equal(await builds(root), 1);
  const started = await launch(root);
  assert.match(started.output, /dist\/ is up to date with the sources: no build/);
  assert.equal(await builds(root), 1, 'the build npm run build made is the one npm start uses');

  await touch(join(root, 'lib/thing.ts'), 10);
  assert.equal(await npmRunBuild(root), 0);
  await launch(root);
  assert.equal(await builds(root), 2, 'a source changed, then built by hand: not built again');

  await touch(join(root, 'lib/thing.ts'), 20);
  assert.notEqual(await npmRunBuild(root, { FAIL_BUILD: '1' }), 0);
  assert.match((await launch(root)).output, /the sources changed since the last build/);
  assert.equal(await builds(root), 4, 'a failed npm run build leaves no record: npm start builds');
});

test('a failed build fails npm start and is tried again at the next start', async (t) => {
  const root = await project(t);
  await launch(root);
  await touch(join(root, 'server.ts'), 10);
  const failed = await launch(root, { FAIL_BUILD: '1' });
  assert.notEqual(failed.code, 0, 'npm start stops on a failed build');
  assert.equal(await builds(root), 2);
  await launch(root);
  assert.equal(await builds(root), 3, 'built again, since the last good build is older than the sources');
  await launch(root);
  assert.equal(await builds(root), 3);
});

test('SIGTERM to the npm start process stops the server it started', async (t) => {
  const root = await project(t);
  await launch(root);
  const npm = spawn('npm', ['start'], { cwd: root, env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  const exit = once(npm, 'exit');
  const server: { pid?: number } = {};
  t.after(async () => {
    if (npm.exitCode === null) npm.kill('SIGKILL');
    if (server.pid !== undefined && alive(server.pid)) process.kill(server.pid, 'SIGKILL');
  });
  const [, pid, port] = await new Promise<string[]>((resolve, reject) => {
    createInterface({ input: npm.stdout! }).on('line', (line) => {
      const match = /^listening (\d+) (\d+)$/.exec(line);
      if (match) resolve(match);
    });
    void exit.then(() => reject(new Error('npm start ended before the server listened')));
  });
  const serverPid = Number(pid);
  server.pid = serverPid;
  const res = await request(`http://127.0.0.1:${port}/`);
  assert.equal(await res.body.text(), 'ok', 'the server npm started answers');

  npm.kill('SIGTERM');
  await exit;
  const deadline = Date.now() + GONE_WITHIN_MS;
  while (alive(serverPid) && Date.now() < deadline) await delay(50);
  assert.equal(alive(serverPid), false, 'no server left running once npm is gone');
});

/** Whether `pid` runs: a zombie (ended, not yet reaped where no init reaps orphans) does not. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

test('SIGTERM to npm start during a build stops the build', async (t) => {
  const root = await project(t);
  const npm = spawn('npm', ['start'], { cwd: root, env: cleanEnv({ HANG_BUILD: '1' }), stdio: 'ignore' });
  const exit = once(npm, 'exit');
  let buildPid: number | undefined;
  t.after(async () => {
    if (npm.exitCode === null) npm.kill('SIGKILL');
    if (buildPid !== undefined && alive(buildPid)) process.kill(buildPid, 'SIGKILL');
  });
  const deadline = Date.now() + GONE_WITHIN_MS;
  while (buildPid === undefined && Date.now() < deadline) {
    buildPid = await readFile(join(root, 'build.pid'), 'utf8').then(
      (text) => Number(text) || undefined,
      () => undefined,
    );
    if (buildPid === undefined) await delay(50);
  }
  assert.ok(buildPid !== undefined && alive(buildPid), 'the build is running');

  npm.kill('SIGTERM');
  await exit;
  const gone = Date.now() + GONE_WITHIN_MS;
  while (alive(buildPid) && Date.now() < gone) await delay(50);
  assert.equal(alive(buildPid), false, 'no build left running once npm is gone');
});
