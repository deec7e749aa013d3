import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { APP_ROOT } from '../lib/app-root.js';
import { FakeUpstream } from '../test/support/fake-upstream.js';
import { freePorts } from '../test/support/free-ports.js';
import { closedUpstreams } from '../test/support/real-server.js';
import { REFERER } from './processes.js';

/**
 * Time from spawning the server as `npm start` runs it (node dist/server.js,
 * compiled here first) to its first 200 on /healthz and on /api/configs
 * through the front listener, offline (every upstream refused) and with status
 * pages that accept and never answer. The bound: 1 s, whatever the
 * status pages do. Each condition runs ROUNDS times and is judged on its median.
 *
 *   node --import tsx bench/start-up.ts    (or BENCH_FILTER=start-up npm run bench)
 */

const BOUND_MS = 1000;
const ROUNDS = 3;
// A start that takes this long has failed the bound many times over; the round stops there.
const GIVE_UP_MS = 30_000;
const POLL_MS = 10;

interface Condition {
  name: string;
  env: () => Promise<Record<string, string>>;
}

/** Milliseconds from `startedAt` to the first 200 `url` answers. */
async function firstOk(url: string, startedAt: number): Promise<number> {
  while (performance.now() - startedAt < GIVE_UP_MS) {
    try {
      const res = await request(url, { headers: { referer: REFERER } });
      await res.body.dump();
      if (res.statusCode === 200) return performance.now() - startedAt;
    } catch {
      // not listening yet
    }
    await delay(POLL_MS);
  }
  return Infinity;
}

async function startOnce(env: Record<string, string>): Promise<{ healthz: number; configs: number }> {
  const [apiPort, frontPort] = (await freePorts(2)) as [number, number];
  const dataDir = await mkdtemp(join(tmpdir(), 'netdiag-start-'));
  const startedAt = performance.now();
  const child = spawn(process.execPath, [join(APP_ROOT, 'dist', 'server.js')], {
    cwd: dataDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      BACKEND_PORT: String(apiPort),
      FRONTEND_PORT: String(frontPort),
      // Each start is stopped at once; the drain would only add its wait to the run.
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: 'ignore',
  });
  try {
    const front = `http://127.0.0.1:${frontPort}`;
    const [healthz, configs] = await Promise.all([
      firstOk(`${front}/healthz`, startedAt),
      firstOk(`${front}/api/configs`, startedAt),
    ]);
    return { healthz, configs };
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'none');

async function main(): Promise<void> {
  const build = spawnSync(
    process.execPath,
    [join(APP_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: APP_ROOT,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) throw new Error('tsc -p tsconfig.build.json failed');

  const hanging = await FakeUpstream.start();
  hanging.on('GET', '*', /^\/api\/v2\/(summary|incidents)\.json$/, { hang: true });
  const conditions: Condition[] = [
    { name: 'offline (every upstream refused)', env: closedUpstreams },
    {
      name: 'status pages hang (the rest answer 404)',
      env: async () => ({ UPSTREAM_OVERRIDE_ORIGIN: hanging.origin }),
    },
  ];
  let met = true;
  try {
    for (const condition of conditions) {
      const rounds = [];
      for (let round = 0; round < ROUNDS; round++) rounds.push(await startOnce(await condition.env()));
      const healthz = median(rounds.map((r) => r.healthz));
      const configs = median(rounds.map((r) => r.configs));
      const ok = Math.max(healthz, configs) <= BOUND_MS;
      met &&= ok;
      const all = rounds.map((r) => `${ms(r.healthz)}/${ms(r.configs)}`).join(', ');
      process.stdout.write(
        `start-up, ${condition.name}: first 200 on /healthz ${ms(healthz)}, on /api/configs ${ms(configs)} ` +
          `(median of ${ROUNDS}: ${all}) ${ok ? 'ok' : 'MISSED'} (<= ${BOUND_MS} ms)\n`,
      );
    }
  } finally {
    await hanging.close();
  }
  if (!met) process.exitCode = 1;
}

await main();
