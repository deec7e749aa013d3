/**
 * docs/deploy-proxies.md's nginx and Caddy configurations, taken from the page
 * as written (only the address they listen on and the front listener's port
 * changed, TLS left out), run for real (Debian's nginx and caddy; `.ci/run`
 * installs both) in front of the real front listener: the visitor's address
 * reaches the service and a forged X-Forwarded-For or CF-Connecting-IP does
 * not, and /speed/ takes an upload larger than the 10 MB the rest of the site
 * is limited to.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { fromAppRoot } from '../../lib/app-root.js';
import { freePorts } from '../support/free-ports.js';
import { writeNginxConf } from '../support/nginx.js';
import { startFront, type FrontServer } from '../support/front-server.js';

const CURL = { 'user-agent': 'curl/8.5.0' };
const FORGED = {
  ...CURL,
  'x-forwarded-for': '192.0.2.1',
  'cf-connecting-ip': '192.0.2.2',
  'cf-connecting-ipv6': '2001:db8::2',
};
// Over the 10 MB the site's other paths take, within SPEEDTEST_UPLOAD_MAX_BYTES.
const UPLOAD = Buffer.alloc(20_000_000);

/** The page's one fenced block in `language`. */
async function docBlock(language: string): Promise<string> {
  const page = await readFile(fromAppRoot('docs/deploy-proxies.md'), 'utf8');
  const blocks = [...page.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))];
  assert.equal(blocks.length, 1, `one ${language} block in docs/deploy-proxies.md`);
  return blocks[0]![1]!;
}

/** Starts a proxy process and waits until its origin answers. */
async function startProxy(command: string, args: string[], origin: string, env = process.env): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  const failed = once(child, 'error').then(([err]) => {
    throw new Error(`${command} could not start (apt-get install -y ${command}): ${(err as Error).message}`);
  });
  const up = (async () => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}`);
      try {
        await (await request(`${origin}/healthz`)).body.dump();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  })();
  await Promise.race([up, failed]);
  return child;
}

async function stop(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

async function text(origin: string, path: string, headers: Record<string, string>): Promise<string> {
  const answer = await request(`${origin}${path}`, { headers });
  return answer.body.text();
}

async function upload(origin: string, path: string): Promise<{ status: number; body: string }> {
  const answer = await request(`${origin}${path}`, {
    method: 'POST',
    headers: { referer: 'http://localhost/', 'content-type': 'application/octet-stream' },
    body: UPLOAD,
  });
  return { status: answer.statusCode, body: await answer.body.text() };
}

let dir: string;
let front: FrontServer;
let frontPort: string;
const proxies: Record<'nginx' | 'caddy', string> = { nginx: '', caddy: '' };
let nginx: ChildProcess | undefined;
let caddy: ChildProcess | undefined;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proxy-configs-'));
  front = await startFront();
  frontPort = new URL(front.origin).port;
  const [nginxPort, caddyPort] = (await freePorts(2)) as [number, number];

  const server = (await docBlock('nginx'))
    .replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${nginxPort};`)
    .replace(/^\s*ssl_certificate.*$/gm, '')
    .replaceAll('127.0.0.1:18966', `127.0.0.1:${frontPort}`);
  const nginxConf = await writeNginxConf(dir, server);
  proxies.nginx = `http://127.0.0.1:${nginxPort}`;
  nginx = await startProxy('nginx', ['-c', nginxConf, '-p', dir], proxies.nginx);

  const site = (await docBlock('caddyfile'))
    .replace('ipcheck.example {', `http://127.0.0.1:${caddyPort} {`)
    .replaceAll('127.0.0.1:18966', `127.0.0.1:${frontPort}`);
  const caddyfile = join(dir, 'Caddyfile');
  // No admin endpoint and no certificates: only the site block is under test.
  await writeFile(caddyfile, `{\n\tadmin off\n\tauto_https off\n}\n\n${site}`);
  proxies.caddy = `http://127.0.0.1:${caddyPort}`;
  caddy = await startProxy('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], proxies.caddy, {
    ...process.env,
    HOME: dir,
    XDG_CONFIG_HOME: dir,
    XDG_DATA_HOME: dir,
  });
});

after(async () => {
  await stop(nginx, 'SIGQUIT');
  await stop(caddy, 'SIGTERM');
  await front?.close();
  await rm(dir, { recursive: true, force: true });
});

test('without a proxy the front listener believes the forged headers: what each proxy must undo', async () => {
  assert.equal(await text(front.origin, '/ip', CURL), '127.0.0.1\n');
  assert.equal(await text(front.origin, '/ip', FORGED), '192.0.2.2\n');
});

for (const name of ['nginx', 'caddy'] as const) {
  test(`${name}: the service sees the visitor's own address, whatever headers the visitor sends`, async () => {
    assert.equal(await text(proxies[name], '/ip', CURL), '127.0.0.1\n');
    assert.equal(await text(proxies[name], '/ip', FORGED), '127.0.0.1\n');
  });

  test(`${name}: /speed/ takes an upload over the 10 MB the rest of the site is limited to`, async () => {
    const speed = await upload(proxies[name], '/speed/up');
    assert.equal(speed.status, 200, speed.body);
    assert.deepEqual(JSON.parse(speed.body), { bytes: UPLOAD.length });
  });
}
