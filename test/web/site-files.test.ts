import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSite, lookup } from '../../web/site-files.js';
import { acceptedCodings } from '../../web/content-encoding.js';
import { chooseVariant } from '../../web/send-site-file.js';

let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-files-'));
  await mkdir(join(dir, 'assets'));
  await mkdir(join(dir, '.vite'));
  await writeFile(join(dir, 'index.html'), 'i'.repeat(100));
  await writeFile(join(dir, 'index.html.br'), 'b'.repeat(10));
  await writeFile(join(dir, 'index.html.gz'), 'g'.repeat(20));
  await writeFile(join(dir, 'assets', 'a-11111111.js'), 'a'.repeat(1000));
  await writeFile(join(dir, 'assets', 'b-22222222.js'), 'b'.repeat(2000));
  await writeFile(join(dir, 'assets', 'c-33333333.js'), 'c'.repeat(3000));
  await writeFile(join(dir, 'old.css'), 'x'.repeat(500));
  await writeFile(join(dir, 'old.css.br'), 'stale');
  await writeFile(join(dir, 'data.json.gz'), 'a download of its own');
  await writeFile(join(dir, '.vite', 'manifest.json'), '{}');
  // The variant was written before its file changed: a leftover of an earlier build.
  const past = new Date(Date.now() - 60_000);
  await utimes(join(dir, 'old.css.br'), past, past);
});

after(() => rm(dir, { recursive: true, force: true }));

test('each file with its fresh variants; a variant older than its file, and dot-folders, are left out', async () => {
  const site = await loadSite(dir);
  assert.deepEqual([...site.files.keys()].sort(), [
    '/',
    '/assets/a-11111111.js',
    '/assets/b-22222222.js',
    '/assets/c-33333333.js',
    '/data.json.gz',
    '/index.html',
    '/old.css',
  ]);
  const index = site.files.get('/index.html')!;
  assert.equal(index.compressed, true);
  assert.equal(index.br?.body?.toString(), 'b'.repeat(10));
  assert.equal(index.gzip?.body?.toString(), 'g'.repeat(20));
  assert.equal(index.br?.headers['content-encoding'], 'br');
  assert.equal(
    index.br?.headers['content-type'],
    'text/html; charset=utf-8',
    'the type of the file, not of the variant',
  );
  assert.equal(site.files.get('/'), index);
  const old = site.files.get('/old.css')!;
  assert.equal(old.compressed, false);
  assert.equal(old.br, undefined);
  assert.equal(old.identity.headers.vary, undefined);
  assert.equal(site.fallback?.identity.headers['cache-control'], 'no-store');
  assert.equal(site.fallback?.identity.body, index.identity.body, 'the fallback shares the bytes');
});

test('memory caps: a file over the per-file cap, and files past the total, are streamed; the smallest are held', async () => {
  const perFile = await loadSite(dir, { file: 1500, total: 1_000_000 });
  assert.equal(perFile.files.get('/assets/a-11111111.js')!.inMemory, true);
  assert.equal(perFile.files.get('/assets/b-22222222.js')!.inMemory, false);
  assert.equal(perFile.files.get('/assets/b-22222222.js')!.identity.body, undefined);
  assert.equal(perFile.files.get('/assets/b-22222222.js')!.identity.headers['content-length'], 2000);

  const total = await loadSite(dir, { file: 1_000_000, total: 3700 });
  const held = [...new Set(total.files.values())].filter((f) => f.inMemory);
  assert.ok(total.memoryBytes <= 3700);
  assert.equal(total.files.get('/assets/c-33333333.js')!.inMemory, false, 'the largest is past the total');
  assert.equal(total.files.get('/assets/a-11111111.js')!.inMemory, true);
  assert.equal(held.length, 5);
});

test('ETags: strong, a digest of each variant’s own bytes, equal for the disk and memory copies of one file', async () => {
  const inMemory = await loadSite(dir);
  const onDisk = await loadSite(dir, { file: 0, total: 0 });
  const a = inMemory.files.get('/index.html')!;
  const b = onDisk.files.get('/index.html')!;
  assert.equal(b.inMemory, false);
  assert.equal(a.identity.headers.etag, b.identity.headers.etag);
  assert.equal(a.br?.headers.etag, b.br?.headers.etag);
  assert.notEqual(a.identity.headers.etag, a.br?.headers.etag);
  assert.match(String(a.identity.headers.etag), /^"[A-Za-z0-9_-]{27}"$/);
});

test('lookup: decodes the path, ignores the query, and refuses malformed escapes', async () => {
  const site = await loadSite(dir);
  assert.equal(lookup(site, '/index.html?v=1'), site.files.get('/index.html'));
  assert.equal(lookup(site, '/%69ndex.html'), site.files.get('/index.html'));
  assert.equal(lookup(site, '/%E0%A4%A'), undefined);
  assert.equal(lookup(site, '/../index.html'), undefined);
  assert.equal(lookup(site, '/.vite/manifest.json'), undefined);
});

test('acceptedCodings and chooseVariant: q-values decide, ties go to the smaller coding, identity unless refused', async () => {
  assert.deepEqual(acceptedCodings('gzip, deflate, br, zstd'), ['br', 'gzip', 'identity']);
  assert.deepEqual(acceptedCodings('gzip;q=1, br;q=0.8'), ['gzip', 'br', 'identity']);
  assert.deepEqual(acceptedCodings('br;q=0, *'), ['gzip', 'identity']);
  assert.deepEqual(acceptedCodings('identity;q=0'), []);
  const site = await loadSite(dir);
  const index = site.files.get('/index.html')!;
  assert.equal(chooseVariant(index, undefined), index.identity);
  assert.equal(chooseVariant(index, 'gzip, br'), index.br);
  assert.equal(chooseVariant(index, 'gzip'), index.gzip);
  assert.equal(
    chooseVariant(index, 'identity;q=0'),
    index.identity,
    'nothing acceptable: the file as it is rather than 406',
  );
  const old = site.files.get('/old.css')!;
  assert.equal(chooseVariant(old, 'br'), old.identity);
});

test('a folder that does not exist reads as an empty, unbuilt site', async () => {
  const site = await loadSite(join(dir, 'nothing-here'));
  assert.equal(site.files.size, 0);
  assert.equal(site.fallback, undefined);
  assert.deepEqual(site.folders, []);
});
