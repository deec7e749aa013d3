// @ts-check
// npm start's first step: runs `npm run build` only when what the build reads
// has changed since the last successful build, or its output is missing.
// Plain JavaScript so it starts with Node alone: through tsx it would cost
// more than the check itself.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// What `npm run build` reads: the server's sources (tsconfig.build.json), the
// site's (web/site: components, locales, index.html, Vite's config), and the
// installed dependencies as the lock file names them.
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const INPUT_FOLDERS = ['contract', 'datasets', 'lib', 'operations', 'plugins', 'routes', 'schemas', 'web'];
const SKIPPED = new Set(['node_modules', 'dist']);
const OUTPUTS = ['dist/server.js', 'dist/site/index.html'];
const STAMP = join(ROOT, 'dist', '.build-inputs');

/** @param {string} folder @returns {string[]} every file under `folder`, outside node_modules and dist */
function filesUnder(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** One digest of every input's path, size and modification time: any edit, addition or removal changes it. */
function inputsDigest() {
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

/** @param {string} digest @returns {string | undefined} why a build is needed, or undefined */
function whyBuild(digest) {
  if (OUTPUTS.some((output) => !existsSync(join(ROOT, output)))) return 'no complete build in dist/';
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8') !== digest) return 'the sources changed since the last build';
  return undefined;
}

/** @returns {Promise<number>} the build's exit code; a signal to this process is passed on to the whole build */
function build() {
  // Its own process group, so a stop reaches the compilers npm starts too.
  const child = spawn('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit', detached: true });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(signal, () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The build's processes have all ended already; its exit settles the promise below.
      }
    });
  }
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

// Taken before building: an edit made while the build runs still counts as a change next time.
const digest = inputsDigest();
const reason = whyBuild(digest);
if (reason === undefined) {
  process.stdout.write('dist/ is up to date with the sources: no build (npm run build forces one)\n');
} else {
  process.stdout.write(`building dist/ (${reason})\n`);
  const code = await build();
  if (code === 0) writeFileSync(STAMP, digest);
  process.exitCode = code;
}
