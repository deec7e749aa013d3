import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';
import { FakeUpstream } from '../support/fake-upstream.js';
import { startServer, stopServer } from '../support/real-server.js';

// A terminal colour code, which pino-pretty writes around parts of a line.
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

let fake: FakeUpstream;
before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());

const OVERRIDES = {
  UPSTREAM_OVERRIDE_ORIGIN: 'http://127.0.0.1:9',
  DNS_OVERRIDE_SERVER: '127.0.0.1:5353',
  WHOIS_OVERRIDE_SERVER: '127.0.0.1:4343',
};

test('LOG_FORMAT=json: one JSON object per line on standard output, with numeric level, epoch-ms time, msg and context keys', async () => {
  const started = Date.now();
  const server = await startServer({ ...OVERRIDES, LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
  assert.equal(await stopServer(server), 0);
  const ended = Date.now();
  assert.ok(server.text.length > 0);
  assert.equal(server.lines.length, server.text.length, 'every line is a JSON object');
  for (const entry of server.lines) {
    assert.ok([20, 30, 40, 50, 60].includes(entry.level as number), `numeric level: ${JSON.stringify(entry)}`);
    assert.ok(
      typeof entry.time === 'number' && entry.time >= started && entry.time <= ended,
      `epoch-ms time: ${JSON.stringify(entry)}`,
    );
    assert.equal(typeof entry.msg, 'string');
  }
  const listening = server.lines.filter((l) => l.level === 30 && /^(API|front) listener /.test(String(l.msg)));
  assert.deepEqual(
    listening.map((l) => l.msg),
    [
      `API listener on ${new URL(server.apiUrl).host} (the JSON API under /api; health at /healthz and /readyz)`,
      `front listener at http://localhost:${new URL(server.frontUrl).port}/ (the site, and /api handed to the API): open it in a browser`,
    ],
    'each listener says which it is and where it listens; the front one names the address the Referer gate accepts',
  );
});

test('the first address the server prints is the site, at an address whose pages the Referer gate lets call the API', async (t) => {
  const server = await startServer({ ...OVERRIDES, LOG_FORMAT: 'json', LOG_LEVEL: 'info' });
  t.after(async () => {
    if (server.child.exitCode === null) await stopServer(server);
  });
  // The override settings' warnings print the fakes' addresses; npm start in production has none of them.
  const listening = server.lines.filter((l) => / listener /.test(String(l.msg))).map((l) => String(l.msg));
  const first = listening.join('\n').match(/https?:\/\/[^\s),]+/)?.[0];
  assert.equal(first, `http://localhost:${new URL(server.frontUrl).port}/`);
  const page = await request(first!);
  await page.body.dump();
  // The site is not built here: the front listener says so with a 503 page; the address answers all the same.
  assert.ok([200, 503].includes(page.statusCode), `the page: ${page.statusCode}`);
  const api = await request(`${first}api/configs`, { headers: { referer: first } });
  assert.equal(api.statusCode, 200, `a page from there calls the API: ${await api.body.text()}`);
});

test('each override setting logs exactly one warning at start-up, naming it and its value', async () => {
  const server = await startServer({ ...OVERRIDES, LOG_LEVEL: 'info' });
  assert.equal(await stopServer(server), 0);
  for (const [name, value] of Object.entries(OVERRIDES)) {
    const warnings = server.lines.filter((l) => l.level === 40 && String(l.msg).includes(name));
    assert.equal(warnings.length, 1, name);
    assert.equal(warnings[0]![name], value, `${name} as a context key`);
  }
  const quiet = await startServer({ LOG_LEVEL: 'info' });
  assert.equal(await stopServer(quiet), 0);
  assert.ok(
    !quiet.lines.some((l) => Object.keys(OVERRIDES).some((name) => String(l.msg).includes(name))),
    'no warning without them',
  );
});

test('LOG_LEVEL=warn leaves out debug and info lines', async () => {
  const server = await startServer({ ...OVERRIDES, LOG_LEVEL: 'warn' });
  assert.equal(await stopServer(server), 0);
  assert.ok(server.lines.length >= Object.keys(OVERRIDES).length, 'the warnings are written');
  for (const entry of server.lines) assert.ok((entry.level as number) >= 40, JSON.stringify(entry));
});

test('without LOG_FORMAT=json the log is human-readable on standard output', async () => {
  const server = await startServer({ LOG_FORMAT: '', LOG_LEVEL: 'info' });
  assert.equal(await stopServer(server), 0);
  // Colours only when standard output is a terminal; stripped in case.
  const plain = server.text.map((line) => line.replace(ANSI_COLOUR, ''));
  assert.equal(server.lines.length, 0, 'no JSON lines');
  assert.equal(
    plain.filter((line) => /INFO.*: (API listener on 127\.0\.0\.1|front listener at http:\/\/localhost):\d+/.test(line))
      .length,
    2,
    plain.join('\n'),
  );
});

test('SIGTERM lets an in-flight request finish, then exits 0', async () => {
  fake.on('GET', 'api.github.com', '/repos/o/slow', { delayMs: 300, json: { stargazers_count: 7 } });
  const site = await mkdtemp(join(tmpdir(), 'server-site-'));
  await writeFile(join(site, 'index.html'), '<!doctype html><title>The built site</title>');
  const server = await startServer({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    REPO_STARS_REPOSITORY: 'o/slow',
    FRONTEND_DIR: site,
  });
  try {
    const { apiUrl, frontUrl } = server;
    const direct = await request(`${apiUrl}/api/configs`, { headers: { referer: 'http://localhost/' } });
    assert.equal(direct.statusCode, 200);
    await direct.body.json();
    const page = await request(`${frontUrl}/`);
    assert.match(await page.body.text(), /<title>The built site<\/title>/);

    const inFlight = request(`${frontUrl}/api/repo-stars`, { headers: { referer: 'http://localhost/' } });
    await new Promise<void>((resolve) => {
      const poll = () =>
        fake.requestsTo('api.github.com', '/repos/o/slow').length > 0 ? resolve() : setTimeout(poll, 10);
      poll();
    });
    server.child.kill('SIGTERM');
    const res = await inFlight;
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await res.body.json(), { stars: 7 });
    const [code] = await server.exit;
    assert.equal(code, 0);
    assert.ok(server.lines.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'));
  } finally {
    server.child.kill('SIGKILL');
    await rm(site, { recursive: true, force: true });
  }
});

test('SIGINT also exits 0', async () => {
  const server = await startServer({});
  server.child.kill('SIGINT');
  const [code] = await server.exit;
  assert.equal(code, 0);
});

test('a malformed setting stops start-up with a message naming it', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: APP_ROOT,
    env: { PATH: process.env.PATH ?? '', BACKEND_PORT: 'abc' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 1);
  assert.match(stderr, /BACKEND_PORT/);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
});

test('a port already in use stops start-up with one fatal line naming it, exit 1', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as AddressInfo).port;
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
      cwd: APP_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        BACKEND_PORT: String(port),
        FRONTEND_PORT: '0',
        HOST: '127.0.0.1',
        LOG_FORMAT: 'json',
        DATA_DIR: '/nonexistent-test-data',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 1);
    const fatal = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.level === 60);
    assert.equal(fatal.length, 1);
    assert.equal(fatal[0]?.msg, `the api listener cannot listen on 127.0.0.1:${port}`);
    assert.match(String(fatal[0]?.reason), /EADDRINUSE/);
    assert.equal(fatal[0]?.err, undefined, 'an operator error: no stack');
    assert.equal(stderr, '', 'nothing on stderr: no uncaught error');
  } finally {
    taken.close();
  }
});
