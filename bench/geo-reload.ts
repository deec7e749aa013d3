import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import pino from 'pino';
import { buildApi } from '../app.js';
import { composeShared } from '../composition.js';
import { loadConfig } from '../fastify.config.js';
import { createLogger } from '../lib/logger.js';
import geo from '../routes/geo/index.js';
import { GeoDatabases, openDatabase } from '../datasets/geo/databases.js';
import { Upstream } from '../lib/upstream.js';
import { BENCH_IP, generateCityDatabase, writeBenchDatabases } from './scenarios/geo.js';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The worst event-loop delay while the local geo databases are reloaded under
 * load: /api/geo-local is hammered while the 500,000-network city database is
 * swapped on disk and reloaded every second, and monitorEventLoopDelay is read
 * over each reload and over equally long windows without one.
 */
const RELOADS = Number(process.env.RELOADS ?? 12);
const CONNECTIONS = 50;
const out = pino({ level: 'info' });

// Generating 500,000 networks leaves much garbage behind; a child process does
// it, so the measured process's collector sees only what a server would.
if (process.argv[2] === 'prepare') {
  const dir = process.argv[3]!;
  await writeBenchDatabases(dir);
  await writeFile(join(dir, 'city-a.mmdb'), generateCityDatabase(undefined, 1_800_000_000));
  await writeFile(join(dir, 'city-b.mmdb'), generateCityDatabase(undefined, 1_800_000_001));
  process.exit(0);
}

const dataDir = await mkdtemp(join(tmpdir(), 'geo-reload-'));
try {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'prepare', dataDir]);
  const variants = [join(dataDir, 'city-a.mmdb'), join(dataDir, 'city-b.mmdb')];
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', HOST: '127.0.0.1' });
  const logger = createLogger(config, pino.destination({ fd: 2, sync: false }));
  // The app serves geo alone, with databases this script reloads itself.
  const upstream = new Upstream({
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    siteUrl: '',
    overrideOrigin: config.UPSTREAM_OVERRIDE_ORIGIN,
    logger,
  });
  const databases = new GeoDatabases({ dir: join(dataDir, 'geo'), upstream, accountId: '', licenseKey: '', logger });
  const shared = await composeShared({ config, logger, geoDatabases: databases });
  const app = await buildApi({ shared, routes: async (api) => api.register(geo) });
  await databases.loadAll();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/geo-local?ip=${BENCH_IP}&lang=de`;

  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  // The load comes from another process, so the loop measured here runs only the server.
  const cannon = spawn(
    process.execPath,
    [
      createRequire(import.meta.url).resolve('autocannon/autocannon.js'),
      '-j',
      '-c',
      String(CONNECTIONS),
      '-d',
      String(RELOADS * 2 + 3),
      '-H',
      'referer=http://localhost/',
      url,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const cannonOut: Buffer[] = [];
  cannon.stdout.on('data', (chunk: Buffer) => cannonOut.push(chunk));
  const load = new Promise<{ requests: { average: number }; non2xx: number; errors: number }>((resolve, reject) =>
    cannon.once('exit', () => {
      try {
        resolve(JSON.parse(Buffer.concat(cannonOut).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    }),
  );
  await delay(2000);

  const reloads: Array<{ maxMs: number; p99Ms: number; loadMs: number }> = [];
  const quiet: number[] = [];
  const cityPath = databases.path('city');
  for (let i = 0; i < RELOADS; i++) {
    histogram.reset();
    await delay(500);
    quiet.push(histogram.max / 1e6);

    await copyFile(variants[i % 2]!, `${cityPath}.incoming`);
    histogram.reset();
    const started = performance.now();
    await rename(`${cityPath}.incoming`, cityPath);
    const ok = await databases.load('city');
    const loadMs = performance.now() - started;
    await delay(20);
    if (!ok) throw new Error('reload failed');
    reloads.push({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, loadMs });
    await delay(1000);
  }
  const result = await load;
  // The one synchronous step of a reload (the file is read asynchronously): opening and checking the buffer.
  const openMs: number[] = [];
  const buffers = await Promise.all(variants.map((v) => readFile(v)));
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    openDatabase(buffers[i % 2]!, 'city');
    openMs.push(performance.now() - started);
  }
  histogram.disable();
  await app.close();

  const worst = Math.max(...reloads.map((r) => r.maxMs));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const medianReload = median(reloads.map((r) => r.maxMs));
  const worstOpen = Math.max(...openMs);
  // On a shared machine the loop also stalls without any reload; the quiet
  // windows show that floor, so the verdict uses the median window and the
  // reload's one synchronous step rather than a single worst stall.
  const within = medianReload <= 50 && worstOpen <= 50;
  out.info(
    {
      networks: 500_000,
      cityDatabaseBytes: buffers[0]!.length,
      connections: CONNECTIONS,
      requestsPerSecond: Math.round(result.requests.average),
      non2xx: result.non2xx,
      errors: result.errors,
      reloads: reloads.map((r) => ({
        maxDelayMs: +r.maxMs.toFixed(1),
        p99DelayMs: +r.p99Ms.toFixed(1),
        reloadMs: +r.loadMs.toFixed(1),
      })),
      worstSynchronousOpenMs: +worstOpen.toFixed(2),
      medianMaxDelayDuringReloadMs: +medianReload.toFixed(1),
      medianMaxDelayWithoutReloadMs: +median(quiet).toFixed(1),
      worstDelayDuringReloadMs: +worst.toFixed(1),
      worstDelayWithoutReloadMs: +Math.max(...quiet).toFixed(1),
      limitMs: 50,
      withinLimit: within,
    },
    'geo database reload under load',
  );
  if (!within) process.exitCode = 1;
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
