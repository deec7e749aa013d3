// @ts-check
// npm start's first step: runs `npm run build` only when what the build reads
// has changed since the last successful build, or its output is missing.
// Plain JavaScript so it starts with Node alone: through tsx it would cost
// more than the check itself.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputsDigest, ROOT, STAMP } from './build-inputs.mjs';

const OUTPUTS = ['dist/server.js', 'dist/site/index.html'];

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

const reason = whyBuild(inputsDigest());
if (reason === undefined) {
  process.stdout.write('dist/ is up to date with the sources: no build (npm run build forces one)\n');
} else {
  process.stdout.write(`building dist/ (${reason})\n`);
  // The build records what it was made from itself (bin/build-stamp.mjs).
  process.exitCode = await build();
}
