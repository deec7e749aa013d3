// @ts-check
// The server build's last step: dist/server.js, as tsc wrote it, becomes one
// file holding every module of ours it imports and the dependencies made of
// many small ES modules (typebox alone is about 700 files, jose 46). Node's
// ES module loader resolves, reads and links each file on its own, which was
// most of start-up (bench/results/2026-11-29-startup.md); in one file that
// cost is gone. The other dependencies stay in node_modules, loaded as before:
// they are CommonJS or native, and bundling them gained little. A module of
// ours that is imported only when needed (`await import()`, as redis-link.ts
// is) becomes a chunk of its own in dist/chunks, so what it imports, ioredis
// for one, is still loaded only then.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const INLINED = new Set(['typebox', '@fastify/type-provider-typebox', 'jose']);
const DIST = join(ROOT, 'dist');
const SERVER = join(DIST, 'server.js');

const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !INLINED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

// The last build's chunks, whose names change with their content.
rmSync(join(DIST, 'chunks'), { recursive: true, force: true });
await build({
  entryPoints: [SERVER],
  outdir: DIST,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
});
