import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';
import { ConfigSchema, loadConfig } from '../../fastify.config.js';
import { FakeUpstream } from '../support/fake-upstream.js';
import { startServer, stopServer } from '../support/real-server.js';

const REFERER = { referer: 'http://localhost/' };

let fake: FakeUpstream;
before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());

test('.env.example lists every setting of the schema, and only those, each with its default and a comment saying what it means', async () => {
  const text = await readFile(join(APP_ROOT, '.env.example'), 'utf8');
  // Read the way the service reads a .env: with Node's own parser.
  const example = parseEnv(text);
  assert.deepEqual(Object.keys(example).sort(), Object.keys(ConfigSchema.properties).sort());
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    assert.equal(
      example[name],
      String((schema as unknown as { default: unknown }).default),
      `${name}: the schema's default`,
    );
  }
  // The file as a whole sets exactly the defaults.
  assert.deepEqual(loadConfig(example), loadConfig({}));

  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (/^[A-Z0-9_]+=/.test(line)) assert.match(lines[i - 1] ?? '', /^# \S/, `${line}: a comment above it`);
  });
});

test('a .env in the working directory is read at start; the environment wins where both set a value', async (t) => {
  fake.on('GET', 'api.github.com', '/repos/from/file', { json: { stargazers_count: 3 } });
  const cwd = await mkdtemp(join(tmpdir(), 'dotenv-'));
  t.after(() => rm(cwd, { recursive: true, force: true }));
  // BACKEND_PORT in the file loses to the environment's (the helper's free port): the server still starts there.
  await writeFile(
    join(cwd, '.env'),
    ['# a comment', 'REPO_STARS_REPOSITORY=from/file', 'BACKEND_PORT=1', 'LOG_LEVEL=debug', ''].join('\n'),
  );
  const server = await startServer({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, LOG_LEVEL: 'info' }, { cwd });
  try {
    const res = await request(`${server.apiUrl}/api/repo-stars`, { headers: REFERER });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await res.body.json(), { stars: 3 }, 'REPO_STARS_REPOSITORY came from the file');
    assert.equal(
      server.lines.filter((l) => l.msg === 'settings read from .env (the environment wins where both set one)').length,
      1,
    );
    assert.ok(!server.lines.some((l) => l.level === 20), 'LOG_LEVEL=info from the environment wins over the file');
  } finally {
    await stopServer(server);
  }
  const without = await startServer({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin });
  await stopServer(without);
  assert.ok(!without.lines.some((l) => String(l.msg).includes('.env')), 'no .env, no line');
});

/** Runs the server in `cwd` until it exits by itself; its exit code and standard error. */
async function failedStart(cwd: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(APP_ROOT, 'server.ts')], {
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

test('a malformed value in .env stops start-up with the usual one line naming it', async (t) => {
  const cwd = await mkdtemp(join(tmpdir(), 'dotenv-'));
  t.after(() => rm(cwd, { recursive: true, force: true }));
  await writeFile(join(cwd, '.env'), 'SECURITY_RATE_LIMIT=lots\n');
  assert.deepEqual(await failedStart(cwd), {
    code: 1,
    stderr: 'Invalid setting SECURITY_RATE_LIMIT="lots": expected a whole number\n',
  });
});

test('a .env that cannot be read stops start-up with one line, rather than being taken for missing', async (t) => {
  const cwd = await mkdtemp(join(tmpdir(), 'dotenv-'));
  t.after(() => rm(cwd, { recursive: true, force: true }));
  await mkdir(join(cwd, '.env'));
  const { code, stderr } = await failedStart(cwd);
  assert.equal(code, 1);
  assert.match(stderr, /^Cannot read the settings file \.env: .+\n$/);
});
