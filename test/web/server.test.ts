import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { APP_ROOT } from '../../lib/app-root.js';
import { FakeUpstream } from '../support/fake-upstream.js';

let fake: FakeUpstream;
before(async () => {
  fake = await FakeUpstream.start();
});
after(() => fake.close());

interface Running {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  urls: string[];
  exit: Promise<[number | null, NodeJS.Signals | null]>;
}

/** server.ts as production runs it, on free ports, logging JSON lines we can read. */
async function startServer(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: APP_ROOT,
    env: { PATH: process.env.PATH ?? '', BACKEND_PORT: '0', FRONTEND_PORT: '0', LOG_FORMAT: 'json', DATA_DIR: '/nonexistent-test-data', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const lines: Array<Record<string, unknown>> = [];
  const urls: string[] = [];
  const listening = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(String(entry.msg));
      if (match) urls.push(match[1]!);
      if (urls.length === 2) resolve();
    });
    void exit.then(([code]) => reject(new Error(`server exited early with ${code}`)));
  });
  await listening;
  return { child, lines, urls, exit };
}

test('SIGTERM lets an in-flight request finish, then exits 0', async () => {
  fake.on('GET', 'api.github.com', '/repos/o/slow', { delayMs: 300, json: { stargazers_count: 7 } });
  const server = await startServer({ UPSTREAM_OVERRIDE_ORIGIN: fake.origin, REPO_STARS_REPOSITORY: 'o/slow' });
  try {
    assert.ok(server.lines.some((l) => l.level === 40 && String(l.msg).includes('UPSTREAM_OVERRIDE_ORIGIN is set')));
    const [apiUrl, frontUrl] = server.urls as [string, string];
    const direct = await request(`${apiUrl}/api/configs`, { headers: { referer: 'http://localhost/' } });
    assert.equal(direct.statusCode, 200);
    await direct.body.json();
    const page = await request(`${frontUrl}/`);
    assert.match(await page.body.text(), /The API is up/);

    const inFlight = request(`${frontUrl}/api/repo-stars`, { headers: { referer: 'http://localhost/' } });
    await new Promise<void>((resolve) => {
      const poll = () => (fake.requestsTo('api.github.com', '/repos/o/slow').length > 0 ? resolve() : setTimeout(poll, 10));
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
      env: { PATH: process.env.PATH ?? '', BACKEND_PORT: String(port), FRONTEND_PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', DATA_DIR: '/nonexistent-test-data' },
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
    assert.match(JSON.stringify(fatal[0]?.err), /EADDRINUSE/);
    assert.equal(stderr, '', 'nothing on stderr: no uncaught error');
  } finally {
    taken.close();
  }
});
