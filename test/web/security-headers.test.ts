import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildWeb } from '../../web/app.js';
import type { Shared } from '../../composition.js';
import { compressFolder } from '../../web/compress-build.js';
import { buildTestApi, REFERER } from '../support/app.js';
import { rawRequest } from '../support/http-raw.js';

// Every class of answer the front listener gives, each on a real socket:
// files from memory (the speed device), a file streamed from disk, the
// single-page-app fallback, 404s, the not-built page, a 304, and /api.

const INDEX = `<!doctype html><html><head><title>SPA</title></head><body><div id="app"></div>${'<!-- pad -->'.repeat(40)}</body></html>`;
// Small caps, so the 300 KB file is over the per-file cap and streams from disk.
const CAPS = { file: 64 * 1024, total: 16 * 1024 * 1024 };

let api: FastifyInstance;
let shared: Shared;
const webs: FastifyInstance[] = [];
let parent: string;
let built: string;
let notBuilt: string;

async function listen(frontendDir: string): Promise<string> {
  const web = await buildWeb({ shared, frontendDir, api, memoryCaps: CAPS });
  webs.push(web);
  await web.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(web.server.address() as AddressInfo).port}`;
}

before(async () => {
  parent = await mkdtemp(join(tmpdir(), 'security-headers-'));
  const dir = join(parent, 'site');
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), INDEX);
  await writeFile(join(dir, 'assets', 'index-AbCd1234.js'), 'export const x = 1;\n'.repeat(100));
  await writeFile(join(dir, 'big.bin'), randomBytes(300 * 1024));
  await writeFile(join(dir, 'big.html'), `<!doctype html><title>big</title>${'<!-- big -->'.repeat(30_000)}`);
  await compressFolder(dir);
  await mkdir(join(parent, 'empty'));
  ({ app: api, shared } = await buildTestApi());
  built = await listen(dir);
  notBuilt = await listen(join(parent, 'empty'));
});

after(async () => {
  for (const web of webs) await web.close();
  await api.close();
  await rm(parent, { recursive: true, force: true });
});

function assertFrontHeaders(headers: IncomingHttpHeaders, label: string): void {
  assert.equal(headers['x-content-type-options'], 'nosniff', label);
  // Not no-referrer: the site's own /api calls need the Referer the gate reads.
  assert.equal(headers['referrer-policy'], 'strict-origin-when-cross-origin', label);
  const permissions = String(headers['permissions-policy']);
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
    assert.match(permissions, new RegExp(`(^|, )${feature}=\\(\\)`), `${label}: ${feature}`);
  }
}

function assertHtmlHeaders(headers: IncomingHttpHeaders, label: string): void {
  assertFrontHeaders(headers, label);
  assert.equal(headers['x-frame-options'], 'DENY', label);
  const directives = new Map(
    String(headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values] as const),
  );
  assert.deepEqual(directives.get('frame-ancestors'), ["'none'"], label);
  assert.deepEqual(directives.get('default-src'), ["'self'"], label);
  assert.deepEqual(directives.get('script-src'), ["'self'"], label);
  assert.deepEqual(directives.get('style-src'), ["'self'"], label);
  assert.deepEqual(directives.get('object-src'), ["'none'"], label);
  assert.deepEqual(directives.get('base-uri'), ["'self'"], label);
  assert.deepEqual(directives.get('form-action'), ["'self'"], label);
  assert.deepEqual(directives.get('img-src'), ["'self'", 'data:'], label);
}

function assertNoCsp(headers: IncomingHttpHeaders, label: string): void {
  assert.equal(headers['content-security-policy'], undefined, label);
  assert.equal(headers['x-frame-options'], undefined, label);
}

test('index.html from memory carries the CSP, X-Frame-Options and the front headers, in every coding and on HEAD', async () => {
  for (const target of ['/', '/index.html']) {
    for (const encoding of ['br', 'gzip', 'identity']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await rawRequest(built, target, { method, headers: { 'accept-encoding': encoding } });
        assert.equal(res.status, 200);
        assertHtmlHeaders(res.headers, `${method} ${target} ${encoding}`);
      }
    }
  }
});

test('a script from memory and a file streamed from disk carry the front headers but no CSP', async () => {
  for (const target of ['/assets/index-AbCd1234.js', '/big.bin']) {
    const res = await rawRequest(built, target);
    assert.equal(res.status, 200, target);
    assertFrontHeaders(res.headers, target);
    assertNoCsp(res.headers, target);
  }
  assert.equal((await rawRequest(built, '/big.bin')).body.length, 300 * 1024);
});

test('an HTML file streamed from disk carries the CSP', async () => {
  const res = await rawRequest(built, '/big.html', { headers: { 'accept-encoding': 'identity' } });
  assert.equal(res.status, 200);
  assert.ok(res.body.length > CAPS.file, 'the file is over the memory cap');
  assertHtmlHeaders(res.headers, '/big.html');
});

test('the single-page-app fallback carries the CSP', async () => {
  for (const target of ['/ip/8.8.8.8', '/r/AAAAAAAAAAAAAAAAAAAAAA', '/status?id=github']) {
    const res = await rawRequest(built, target);
    assert.equal(res.status, 200, target);
    assert.equal(res.headers['cache-control'], 'no-store', target);
    assertHtmlHeaders(res.headers, target);
  }
});

test('a 304 repeats the headers, so a copy cached before them gains them', async () => {
  for (const target of ['/', '/assets/index-AbCd1234.js']) {
    const first = await rawRequest(built, target);
    const again = await rawRequest(built, target, { headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.status, 304, target);
    if (target === '/') assertHtmlHeaders(again.headers, target);
    else assertFrontHeaders(again.headers, target);
  }
});

test('404s, other methods and a malformed escape carry the front headers', async () => {
  for (const [target, method, status] of [
    ['/missing.js', 'GET', 404],
    ['/', 'POST', 404],
    ['/x/%E0%A4%A', 'GET', 400],
  ] as const) {
    const res = await rawRequest(built, target, { method });
    assert.equal(res.status, status, `${method} ${target}`);
    assertFrontHeaders(res.headers, `${method} ${target}`);
  }
});

test('the not-built page carries the CSP; a file there is a 404 with the front headers', async () => {
  const page = await rawRequest(notBuilt, '/ip/8.8.8.8');
  assert.equal(page.status, 503);
  assert.match(page.body.toString(), /The site is not built/);
  assertHtmlHeaders(page.headers, 'not-built page');
  const file = await rawRequest(notBuilt, '/favicon.svg');
  assert.equal(file.status, 404);
  assertFrontHeaders(file.headers, 'not-built 404');
});

test('/api through the front listener keeps its own headers and gains nosniff, nothing else', async () => {
  const res = await rawRequest(built, '/api/configs', { headers: REFERER });
  assert.equal(res.status, 200);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.equal(res.headers['vary'], 'Referer');
  assert.equal(res.headers['referrer-policy'], undefined);
  assertNoCsp(res.headers, '/api/configs');
  const refused = await rawRequest(built, '/api/configs');
  assert.equal(refused.status, 403);
  assert.equal(refused.headers['x-content-type-options'], 'nosniff');
});
