import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildWeb, siteRoot } from '../../web/app.js';
import type { Shared } from '../../composition.js';
import { isHashedAsset, isNavigation } from '../../web/cache-class.js';
import { compressFolder } from '../../web/compress-build.js';
import { fromAppRoot } from '../../lib/app-root.js';
import { buildTestApi } from '../support/app.js';
import { rawRequest, type RawAnswer } from '../support/http-raw.js';

const INDEX = `<!doctype html><html><head><title>SPA</title><script type="module" src="/assets/index-AbCd1234.js"></script></head><body><div id="app"></div>${'<!-- padding that compresses -->'.repeat(40)}</body></html>`;
const SCRIPT = Array.from({ length: 400 }, (_, i) => `export function f${i}(a) { return a + ${i}; }\n`).join('');
const PNG = randomBytes(3000);
const BIG = randomBytes(300 * 1024);
const SECRET = 'TOP-SECRET-OUTSIDE-THE-BUILD';
// Small caps, so the 300 KB file is over the per-file cap and streams from disk.
const CAPS = { file: 64 * 1024, total: 16 * 1024 * 1024 };

let api: FastifyInstance;
let shared: Shared;
let web: FastifyInstance;
let parent: string;
let origin: string;

before(async () => {
  parent = await mkdtemp(join(tmpdir(), 'site-serving-'));
  await writeFile(join(parent, 'secret.txt'), SECRET);
  await writeFile(join(parent, 'secret'), SECRET);
  const dir = join(parent, 'site');
  await mkdir(join(dir, 'assets'), { recursive: true });
  await mkdir(join(dir, 'docs'));
  await mkdir(join(dir, '.vite'));
  await writeFile(join(dir, 'index.html'), INDEX);
  await writeFile(join(dir, 'assets', 'index-AbCd1234.js'), SCRIPT);
  await writeFile(join(dir, 'assets', 'logo-Xy12Ab34.png'), PNG);
  await writeFile(join(dir, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  await writeFile(join(dir, 'robots.txt'), 'User-agent: *');
  await writeFile(join(dir, 'big.bin'), BIG);
  await writeFile(join(dir, 'my file.txt'), 'spaces');
  await writeFile(join(dir, 'docs', 'index.html'), '<!doctype html><title>Docs</title>');
  await writeFile(join(dir, '.vite', 'manifest.json'), '{"private": true}');
  await compressFolder(dir);
  ({ app: api, shared } = await buildTestApi());
  web = await buildWeb({ shared, frontendDir: dir, api, memoryCaps: CAPS });
  await web.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`;
});

after(async () => {
  await web.close();
  await api.close();
  await rm(parent, { recursive: true, force: true });
});

const get = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
  rawRequest(origin, target, { method, headers });

/** The body as the browser would read it, after undoing Content-Encoding. */
function decoded(res: RawAnswer): Buffer {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body);
  if (coding === 'gzip') return gunzipSync(res.body);
  assert.equal(coding, undefined);
  return res.body;
}

test('cache classes: a hashed asset is immutable for a year; index.html and unhashed files are revalidated', async () => {
  for (const [url, cache] of [
    ['/assets/index-AbCd1234.js', 'public, max-age=31536000, immutable'],
    ['/assets/logo-Xy12Ab34.png', 'public, max-age=31536000, immutable'],
    ['/', 'no-cache'],
    ['/index.html', 'no-cache'],
    ['/favicon.ico', 'no-cache'],
    ['/robots.txt', 'no-cache'],
    ['/big.bin', 'no-cache'],
  ] as const) {
    const res = await get(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers['cache-control'], cache, url);
  }
  assert.equal(decoded(await get('/')).toString(), INDEX);
  assert.equal(decoded(await get('/assets/index-AbCd1234.js')).toString(), SCRIPT);
  assert.equal((await get('/assets/index-AbCd1234.js')).headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal((await get('/')).headers['content-type'], 'text/html; charset=utf-8');
});

test('a GET navigation without a file extension gets index.html with no-store', async () => {
  for (const url of ['/ip/8.8.8.8', '/settings', '/deep/nested/route?tab=1', '/assets', '/whois?q=example.com']) {
    const res = await get(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers['cache-control'], 'no-store', url);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', url);
    assert.equal(decoded(res).toString(), INDEX, url);
  }
});

test('a folder’s index.html answers its folder path; a file name with a space is found by its encoded path', async () => {
  const docs = await get('/docs/');
  assert.equal(docs.status, 200);
  assert.equal(docs.headers['cache-control'], 'no-cache');
  assert.match(decoded(docs).toString(), /<title>Docs<\/title>/);
  const spaced = await get('/my%20file.txt');
  assert.equal(spaced.status, 200);
  assert.equal(decoded(spaced).toString(), 'spaces');
});

test('a missing file with an extension is a plain-text 404, never index.html; so is any method but GET and HEAD', async () => {
  for (const url of [
    '/assets/index-Zz999999.js',
    '/missing.png',
    '/deep/style.css',
    '/whois/example.com',
    '/index.html.br',
    '/.vite/manifest.json',
  ]) {
    const res = await get(url);
    assert.equal(res.status, 404, url);
    assert.equal(res.headers['cache-control'], 'no-store', url);
    assert.equal(res.body.toString(), 'Not Found', url);
  }
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const res = await get('/settings', {}, method);
    assert.equal(res.status, 404, method);
    assert.doesNotMatch(res.body.toString(), /<title>SPA/, method);
  }
});

test('a strong ETag per file; If-None-Match with it answers 304 with the validators and no body', async () => {
  const first = await get('/assets/index-AbCd1234.js');
  const etag = first.headers.etag!;
  assert.match(etag, /^"[A-Za-z0-9_-]+"$/, 'strong: no W/ prefix');
  for (const inm of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
    const again = await get('/assets/index-AbCd1234.js', { 'if-none-match': inm });
    assert.equal(again.status, 304, inm);
    assert.equal(again.body.length, 0, inm);
    assert.equal(again.headers.etag, etag, inm);
    assert.equal(again.headers['cache-control'], 'public, max-age=31536000, immutable', inm);
    assert.equal(again.headers.vary, 'Accept-Encoding', inm);
  }
  const changed = await get('/assets/index-AbCd1234.js', { 'if-none-match': '"not-this-one"' });
  assert.equal(changed.status, 200);
  assert.equal(decoded(changed).toString(), SCRIPT);
  assert.notEqual((await get('/robots.txt')).headers.etag, etag, 'each file its own');
  const index = await get('/', { 'if-none-match': (await get('/')).headers.etag! });
  assert.equal(index.status, 304);
  assert.equal(index.headers['cache-control'], 'no-cache');
});

test('Accept-Encoding picks brotli, gzip or identity by q-values, with Vary, Content-Encoding and Content-Length to match', async () => {
  const cases: Array<[string | undefined, string | undefined]> = [
    [undefined, undefined],
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['deflate', undefined],
    ['identity', undefined],
    ['*', 'br'],
  ];
  const etags = new Map<string | undefined, string>();
  for (const [accept, coding] of cases) {
    const res = await get('/assets/index-AbCd1234.js', accept === undefined ? {} : { 'accept-encoding': accept });
    assert.equal(res.status, 200, accept);
    assert.equal(res.headers['content-encoding'], coding, accept);
    assert.equal(res.headers.vary, 'Accept-Encoding', accept);
    assert.equal(Number(res.headers['content-length']), res.body.length, accept);
    assert.equal(decoded(res).toString(), SCRIPT, accept);
    if (coding !== undefined) {
      assert.ok(res.body.length < Buffer.byteLength(SCRIPT), `${accept}: smaller than the file`);
    }
    etags.set(coding, res.headers.etag!);
  }
  assert.equal(new Set(etags.values()).size, 3, 'each coding has its own ETag');
  const gz = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip', 'if-none-match': etags.get('br')! });
  assert.equal(gz.status, 200, 'the brotli ETag does not validate the gzip answer');
});

test('a file with no compressed variant is sent as is, without Vary', async () => {
  const res = await get('/assets/logo-Xy12Ab34.png', { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'image/png');
  assert.equal(res.headers['content-encoding'], undefined);
  assert.equal(res.headers.vary, undefined);
  assert.ok(res.body.equals(PNG));
});

test('HEAD answers the headers GET would, with no body', async () => {
  for (const [url, accept] of [
    ['/', 'br'],
    ['/assets/index-AbCd1234.js', 'gzip'],
    ['/big.bin', ''],
    ['/settings', 'br'],
  ] as const) {
    const getRes = await get(url, { 'accept-encoding': accept });
    const head = await get(url, { 'accept-encoding': accept }, 'HEAD');
    assert.equal(head.status, 200, url);
    assert.equal(head.body.length, 0, url);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'vary']) {
      assert.equal(head.headers[name], getRes.headers[name], `${url} ${name}`);
    }
  }
  const missing = await get('/missing.png', {}, 'HEAD');
  assert.equal(missing.status, 404);
});

test('a file over the memory cap is streamed from disk, whole, with its ETag and 304', async () => {
  const res = await get('/big.bin');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/octet-stream');
  assert.equal(Number(res.headers['content-length']), BIG.length);
  assert.ok(res.body.equals(BIG));
  const again = await get('/big.bin', { 'if-none-match': res.headers.etag! });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
});

test('the route behind the in-memory fast path answers a file exactly as the fast path does', async () => {
  for (const [url, accept] of [
    ['/assets/index-AbCd1234.js', 'gzip, br'],
    ['/', ''],
  ] as const) {
    // inject() enters Fastify directly, past the raw listener's fast path.
    const routed = await web.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
    const fast = await get(url, { 'accept-encoding': accept });
    assert.equal(routed.statusCode, fast.status, url);
    assert.ok(routed.rawPayload.equals(fast.body), url);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'vary']) {
      assert.equal(String(routed.headers[name]), String(fast.headers[name]), `${url} ${name}`);
    }
  }
});

test('no request target reaches a file outside the build folder or a dot-folder inside it', async () => {
  const targets = [
    '/../secret.txt',
    '/../secret',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2e%2e/secret',
    '/..%2fsecret.txt',
    '/..%2f..%2fsecret',
    '/assets/..%2f..%2fsecret.txt',
    '/..%5c..%5csecret.txt',
    '/%2e%2e%5csecret',
    '//secret.txt',
    `/${parent.slice(1)}/secret.txt`,
    `/${encodeURIComponent(join(parent, 'secret.txt'))}`,
    '/%E0%A4%A',
    '/.vite/manifest.json',
    '/.vite/',
  ];
  for (const target of targets) {
    const res = await get(target, { 'accept-encoding': 'identity' });
    assert.ok([200, 400, 404].includes(res.status), `${target}: ${res.status}`);
    assert.doesNotMatch(res.body.toString(), /TOP-SECRET|"private"/, target);
    if (res.status === 200) assert.equal(res.body.toString(), INDEX, `${target}: only the app itself`);
  }
});

test('siteRoot: dist/site under the application root unless FRONTEND_DIR names a folder', () => {
  assert.equal(siteRoot(''), fromAppRoot('dist/site'));
  assert.equal(siteRoot('build/other'), fromAppRoot('build/other'));
  assert.equal(siteRoot('/srv/www'), '/srv/www');
});

test('isNavigation: an extension starts with a letter, so IP addresses stay navigations', () => {
  for (const url of ['/', '/settings', '/ip/8.8.8.8', '/ip/2001:db8::1', '/a/b?file=x.js']) {
    assert.equal(isNavigation(url), true, url);
  }
  for (const url of ['/x.js', '/a/b/logo.svg', '/video.mp4?x=1', '/whois/example.com']) {
    assert.equal(isNavigation(url), false, url);
  }
});

test('isHashedAsset: a content hash after the last dash under assets/', () => {
  assert.equal(isHashedAsset('/srv/www/assets/index-AbCd1234.js'), true);
  assert.equal(isHashedAsset('assets/vendor-B2x9c1Qa_x.css'), true);
  assert.equal(isHashedAsset('/srv/www/assets/logo.svg'), false);
  assert.equal(isHashedAsset('/srv/www/index-AbCd1234.js'), false);
  assert.equal(isHashedAsset('/srv/www/assets/index-abc.js'), false);
});
