import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, lstat, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { APP_ROOT } from '../lib/app-root.js';
import { freePorts } from '../test/support/free-ports.js';
import { closedUpstreams } from '../test/support/real-server.js';
import { BENCH_IP, writeBenchDatabases } from './scenarios/geo.js';
import { writeSiteFixture } from './site-fixture.js';
import { buildServer, LAUNCHER, launcherPath, REFERER, waitFor } from './processes.js';

/**
 * Resident memory of the server as `npm start` runs it (bin/start.sh running
 * dist/server.js, built here first), offline, with the
 * generated 500,000-network city and ASN databases loaded: once idle after
 * start, then after each round of a loopback soak (geo-local, /api/configs and
 * the site's index, in turn) and idle again after it. Then the size on disk of
 * the production dependencies (`npm ls --omit=dev`).
 *
 *   node --import tsx bench/memory.ts    (or BENCH_FILTER=memory npm run bench)
 *
 * Bounds: idle at most 100 MB (issue 39); flat under the soak, that is the
 * last round's end at most FLAT_MB over the first round's end (the first round
 * takes what warm code and a full young generation need, once).
 */

const IDLE_BOUND_MB = 100;
const FLAT_MB = 10;
const IDLE_S = Number(process.env.MEMORY_IDLE_S ?? 10);
const SOAK_ROUNDS = Number(process.env.MEMORY_SOAK_ROUNDS ?? 6);
const ROUND_S = Number(process.env.MEMORY_ROUND_S ?? 5);
const CONNECTIONS = 50;
const run = promisify(execFile);

/** The process's resident memory in MB (Linux /proc). */
function residentMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** Bytes of the files under `dir`, not following links or descending into nested node_modules (listed on their own). */
async function folderBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') bytes += await folderBytes(path);
    } else bytes += (await lstat(path)).size;
  }
  return bytes;
}

/** The production dependencies' size: every package `npm ls --omit=dev --all` lists, once each. */
async function productionDependenciesMb(): Promise<{ mb: number; packages: number }> {
  // npm ls exits non-zero over a tree problem (an extraneous package, say) but still lists every folder.
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: APP_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((err: { stdout?: string }) => {
    if (!err.stdout) throw err;
    return { stdout: err.stdout };
  });
  const folders = [...new Set(stdout.split('\n').filter((line) => line.startsWith(join(APP_ROOT, 'node_modules'))))];
  let bytes = 0;
  for (const folder of folders) bytes += await folderBytes(folder);
  return { mb: bytes / 1e6, packages: folders.length };
}

async function soakRound(urls: string[]): Promise<number> {
  let errors = 0;
  for (const url of urls) {
    const r = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: ROUND_S / urls.length,
      headers: { referer: REFERER },
    });
    errors += r.errors + r.timeouts + r.non2xx;
  }
  return errors;
}

async function main(): Promise<void> {
  buildServer();

  const root = await mkdtemp(join(tmpdir(), 'netdiag-memory-'));
  let child: ChildProcess | undefined;
  try {
    const dataDir = join(root, 'data');
    // Generating the databases leaves much garbage: done in this process, not the measured one.
    await writeBenchDatabases(dataDir);
    const [apiPort, frontPort] = (await freePorts(2)) as [number, number];
    const log = openSync(join(root, 'server.log'), 'a');
    child = spawn(LAUNCHER, [join(APP_ROOT, 'dist', 'server.js')], {
      cwd: root,
      env: {
        PATH: launcherPath(),
        HOST: '127.0.0.1',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        FRONTEND_DIR: await writeSiteFixture(join(root, 'site')),
        GEODB_AUTO_UPDATE: 'false',
        BACKEND_PORT: String(apiPort),
        FRONTEND_PORT: String(frontPort),
        ...(await closedUpstreams()),
      },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    const api = `http://127.0.0.1:${apiPort}`;
    const geoLocal = `${api}/api/geo-local?ip=${BENCH_IP}&lang=de`;
    await waitFor(geoLocal, child);
    await delay(IDLE_S * 1000);
    const idle = residentMb(child.pid!);

    const ends: number[] = [];
    let errors = 0;
    for (let round = 0; round < SOAK_ROUNDS; round++) {
      errors += await soakRound([geoLocal, `${api}/api/configs`, `http://127.0.0.1:${frontPort}/`]);
      ends.push(residentMb(child.pid!));
    }
    await delay(IDLE_S * 1000);
    const after = residentMb(child.pid!);
    const growth = ends.at(-1)! - ends[0]!;

    const deps = await productionDependenciesMb();
    const idleOk = idle <= IDLE_BOUND_MB;
    const flatOk = growth <= FLAT_MB && errors === 0;
    const mb = (value: number) => `${value.toFixed(1)} MB`;
    process.stdout.write(
      `memory: resident idle after start ${mb(idle)} ${idleOk ? 'ok' : 'MISSED'} (<= ${IDLE_BOUND_MB} MB); ` +
        `soak ${SOAK_ROUNDS} × ${ROUND_S} s (geo-local, configs, index.html), resident at each round's end ` +
        `${ends.map((v) => v.toFixed(0)).join(' ')} MB, growth after the first ${mb(growth)}` +
        `${errors ? `, ${errors} errors` : ''} ${flatOk ? 'ok' : 'MISSED'} (<= ${FLAT_MB} MB); idle after ${mb(after)}\n` +
        `production dependencies: ${deps.packages} packages, ${mb(deps.mb)} on disk\n`,
    );
    if (!idleOk || !flatOk) process.exitCode = 1;
  } finally {
    if (child && child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await rm(root, { recursive: true, force: true });
  }
}

await main();
