import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildWeb } from '../../web/app.js';
import type { Shared } from '../../composition.js';
import { compressFolder } from '../../web/compress-build.js';
import { buildTestApi, LogCapture } from '../support/app.js';
import { rawRequest } from '../support/http-raw.js';

let api: FastifyInstance;
let shared: Shared;
let parent: string;
const webs: FastifyInstance[] = [];

before(async () => {
  parent = await mkdtemp(join(tmpdir(), 'site-reload-'));
  ({ app: api, shared } = await buildTestApi());
});

after(async () => {
  for (const web of webs) await web.close();
  await api.close();
  await rm(parent, { recursive: true, force: true });
});

/** A front listener on `dir`, its log captured. */
async function serve(dir: string) {
  const logs = new LogCapture();
  const web = await buildWeb({ shared: { ...shared, logger: pino({ level: 'info' }, logs) }, frontendDir: dir, api });
  webs.push(web);
  await web.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`;
  // The listener opens while the folder is read; a request for a file waits for that read, after which it is watched.
  await rawRequest(origin, '/robots.txt');
  return {
    logs,
    get: (target: string, headers: Record<string, string> = {}) => rawRequest(origin, target, { headers }),
  };
}

/** Waits, up to a bound far above a reload's time on a busy machine, for `check` to hold. */
async function eventually(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const page = (version: string, script: string) =>
  `<!doctype html><html><head><title>${version}</title><script type="module" src="/assets/${script}"></script></head><body>${'<p>compressible text</p>'.repeat(30)}</body></html>`;

/** Writes a build as Vite does (index.html and one hashed script), then its variants. */
async function writeBuild(dir: string, version: string, script: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'assets', script), `export const version = ${JSON.stringify(version)};\n`.repeat(50));
  await writeFile(join(dir, 'index.html'), page(version, script));
  await compressFolder(dir);
}

test('a folder never built: one warning naming npm run build, the not-built page for navigations, 404 for files', async () => {
  const dir = join(parent, 'never-built');
  const { logs, get } = await serve(dir);
  const warnings = logs.lines.filter((l) => l.level === 40);
  assert.equal(warnings.length, 1);
  assert.match(String(warnings[0]!.msg), /not built.*npm run build/);
  for (const target of ['/', '/ip/8.8.8.8']) {
    const res = await get(target);
    assert.equal(res.status, 503, target);
    assert.equal(res.headers['cache-control'], 'no-store', target);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', target);
    assert.match(res.body.toString(), /The site is not built.*npm run build/s, target);
  }
  const file = await get('/assets/index-AbCd1234.js');
  assert.equal(file.status, 404);

  await writeBuild(dir, 'first', 'index-Aaaaaaaa.js');
  await eventually('the first build is served', async () => (await get('/')).status === 200);
  assert.match((await get('/')).body.toString(), /<title>first<\/title>/);
  assert.equal(logs.find('site loaded').length, 1);
});

test('a rebuild that empties the folder and writes new files is served without a restart', async () => {
  const dir = join(parent, 'rebuilt');
  await writeBuild(dir, 'v1', 'index-V1111111.js');
  const { get } = await serve(dir);
  const before = await get('/', { 'accept-encoding': 'br' });
  assert.match(brotliDecompressSync(before.body).toString(), /<title>v1<\/title>/);

  // Vite empties its output folder, sub-folders included, then writes the new bundle.
  await rm(join(dir, 'assets'), { recursive: true });
  await rm(join(dir, 'index.html'));
  await writeBuild(dir, 'v2', 'index-V2222222.js');

  await eventually('the new build is served with its brotli variants', async () => {
    const res = await get('/assets/index-V2222222.js', { 'accept-encoding': 'br' });
    return res.status === 200 && res.headers['content-encoding'] === 'br';
  });
  await eventually(
    'index.html is the new one',
    async () => (await get('/', { 'accept-encoding': 'br' })).headers['content-encoding'] === 'br',
  );
  const after = await get('/', { 'accept-encoding': 'br', 'if-none-match': before.headers.etag! });
  assert.equal(after.status, 200, 'the old ETag no longer validates');
  assert.match(brotliDecompressSync(after.body).toString(), /<title>v2<\/title>/);
  assert.equal((await get('/assets/index-V1111111.js')).status, 404, 'the old bundle is gone');
});

test('the build folder removed and made again is followed', async () => {
  const dir = join(parent, 'remade');
  await writeBuild(dir, 'before', 'index-Bbbbbbbb.js');
  const { get } = await serve(dir);
  assert.match((await get('/')).body.toString(), /<title>before<\/title>/);
  await rm(dir, { recursive: true });
  await writeBuild(dir, 'after', 'index-Cccccccc.js');
  await eventually('the remade folder is served', async () =>
    /<title>after<\/title>/.test((await get('/')).body.toString()),
  );
  await eventually('its new script too', async () => (await get('/assets/index-Cccccccc.js')).status === 200);
});

test('while the folder has no index.html (a build in progress), the last complete build is still served', async () => {
  const dir = join(parent, 'in-progress');
  await writeBuild(dir, 'complete', 'index-Dddddddd.js');
  const { logs, get } = await serve(dir);
  await rm(join(dir, 'index.html'));
  await rm(join(dir, 'index.html.br'));
  await rm(join(dir, 'index.html.gz'));
  await eventually(
    'the emptied folder was read',
    () => logs.find('the last complete build is still served').length > 0,
  );
  const res = await get('/settings');
  assert.equal(res.status, 200);
  assert.match(res.body.toString(), /<title>complete<\/title>/);
});
