// @ts-check
// What `npm run build` reads, as one digest, and where a build records the
// digest it was made from: shared by npm start's check (build-if-changed.mjs)
// and the build's own steps (build-stamp.mjs), so both read the same inputs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// The server's sources (tsconfig.build.json), the site's (web/site:
// components, locales, index.html, Vite's config), and the installed
// dependencies as the lock file names them.
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const INPUT_FOLDERS = ['contract', 'datasets', 'lib', 'openapi', 'operations', 'plugins', 'routes', 'schemas', 'web'];
const SKIPPED = new Set(['node_modules', 'dist']);

/** The digest of the inputs of the last successful build. */
export const STAMP = join(ROOT, 'dist', '.build-inputs');
/** The digest of the build running now, until it succeeds. */
export const PENDING_STAMP = join(ROOT, 'dist', '.build-inputs.pending');

/** @param {string} folder @returns {string[]} every file under `folder`, outside node_modules and dist, but docs */
function filesUnder(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    // A capability's README lives beside its code; no build reads it.
    if (SKIPPED.has(entry.name) || entry.name.endsWith('.md')) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** One digest of every input's path, size and modification time: any edit, addition or removal changes it. */
export function inputsDigest() {
  const topLevel = readdirSync(ROOT).filter((name) => name.endsWith('.ts') || INPUT_FILES.includes(name));
  const files = [
    ...topLevel.map((name) => join(ROOT, name)),
    ...INPUT_FOLDERS.flatMap((folder) => filesUnder(join(ROOT, folder))),
  ];
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${relative(ROOT, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}
