import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { APP_ROOT } from '../../lib/app-root.js';
import { compressFolder } from '../../web/compress-build.js';

const SCRIPT = Array.from({ length: 300 }, (_, i) => `const value${i} = ${i};\n`).join('');
const STYLE = 'body { margin: 0; padding: 0; }\n'.repeat(100);

async function fixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'compress-build-'));
  await mkdir(join(dir, 'assets', 'nested'), { recursive: true });
  await writeFile(join(dir, 'index.html'), `<!doctype html>${'<p>text</p>'.repeat(50)}`);
  await writeFile(join(dir, 'assets', 'index-AbCd1234.js'), SCRIPT);
  await writeFile(join(dir, 'assets', 'nested', 'style-AbCd1234.css'), STYLE);
  await writeFile(join(dir, 'assets', 'logo-AbCd1234.png'), randomBytes(2000));
  await writeFile(join(dir, 'assets', 'font-AbCd1234.woff2'), randomBytes(2000));
  await writeFile(join(dir, 'tiny.txt'), 'a');
  // A variant of an earlier run, for a file that no longer gains from compression.
  await writeFile(join(dir, 'tiny.txt.br'), 'old variant');
  return dir;
}

test('brotli and gzip variants beside each compressible file, decompressing to it, smaller than it', async () => {
  const dir = await fixture();
  try {
    const summary = await compressFolder(dir);
    assert.equal(summary.compressed, 3);
    for (const [path, text] of [
      ['assets/index-AbCd1234.js', SCRIPT],
      ['assets/nested/style-AbCd1234.css', STYLE],
    ] as const) {
      const br = await readFile(join(dir, `${path}.br`));
      const gz = await readFile(join(dir, `${path}.gz`));
      assert.equal(brotliDecompressSync(br).toString(), text, path);
      assert.equal(gunzipSync(gz).toString(), text, path);
      assert.ok(br.length < Buffer.byteLength(text) && gz.length < Buffer.byteLength(text), path);
      assert.ok(br.length <= gz.length, `${path}: brotli at its best quality beats gzip here`);
    }
    assert.ok(existsSync(join(dir, 'index.html.br')) && existsSync(join(dir, 'index.html.gz')));
    for (const path of ['assets/logo-AbCd1234.png', 'assets/font-AbCd1234.woff2']) {
      assert.equal(
        existsSync(join(dir, `${path}.br`)) || existsSync(join(dir, `${path}.gz`)),
        false,
        `${path}: already compressed, no variant`,
      );
    }
    assert.equal(
      existsSync(join(dir, 'tiny.txt.br')),
      false,
      'a variant no smaller than its file is not kept, nor an old one',
    );
    assert.equal(existsSync(join(dir, 'tiny.txt.gz')), false);

    const again = await compressFolder(dir);
    assert.equal(again.compressed, 3, 'a second run gives the same files variants again');
    assert.equal(
      existsSync(join(dir, 'index.html.br.br')) || existsSync(join(dir, 'index.html.gz.gz')),
      false,
      'variants are not compressed themselves',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the script behind npm run compress takes the folder on the command line, and fails clearly on a missing folder', async () => {
  const dir = await fixture();
  try {
    const ok = spawn(process.execPath, ['--import', 'tsx', 'web/compress-build.ts', dir], {
      cwd: APP_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    ok.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    assert.equal(((await once(ok, 'exit')) as [number])[0], 0);
    assert.match(out, /compress: 3 files/);
    assert.ok(existsSync(join(dir, 'assets', 'index-AbCd1234.js.br')));

    const missing = spawn(process.execPath, ['--import', 'tsx', 'web/compress-build.ts', join(dir, 'nope')], {
      cwd: APP_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    missing.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    assert.equal(((await once(missing, 'exit')) as [number])[0], 1);
    assert.match(err, /compress: .*ENOENT/);
    assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
