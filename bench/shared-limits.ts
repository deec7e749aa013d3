import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { RedisServer } from '../test/support/redis-server.js';
import { pinLoadGenerator } from './cores.js';
import { REFERER, cpuSeconds, startServer, stop, type BenchServer } from './processes.js';

/**
 * `/api/configs` with both limiters counting in Redis (REDIS_URL), as a ratio
 * to the same server counting in process memory (bound 0.5), and two
 * instances sharing one Redis against one, by CPU per request.
 *
 *   node --import tsx bench/shared-limits.ts
 *
 * Each server runs on core 1; this process (autocannon) and redis-server on
 * core 0, so the server under test keeps its core.
 */

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MIN_RATIO = 0.5;
const log = pino({ level: 'info' });
// Thresholds far above what the bench sends: every request does the limiters' bookkeeping, none is delayed or refused.
const LIMITERS_ON = {
  SECURITY_RATE_LIMIT: '1000000000',
  SECURITY_DELAY_AFTER: '1000000000',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  UPSTREAM_OVERRIDE_ORIGIN: 'http://127.0.0.1:9',
};

interface Load {
  rps: number;
  requests: number;
  failures: number;
  /** CPU seconds the servers (and Redis, separately) used during the load. */
  serverCpu: number;
  redisCpu: number;
}

async function loadOf(servers: BenchServer[], redisPid: number | undefined, seconds: number): Promise<Load> {
  const cpu = () => servers.reduce((total, s) => total + cpuSeconds(s.child.pid), 0);
  const serverBefore = cpu();
  const redisBefore = cpuSeconds(redisPid);
  const results = await Promise.all(
    servers.map((s) =>
      autocannon({
        url: `${s.origins.api}/api/configs`,
        connections: Math.ceil(CONNECTIONS / servers.length),
        duration: seconds,
        headers: { referer: REFERER },
      }),
    ),
  );
  return {
    rps: results.reduce((total, r) => total + r.requests.average, 0),
    requests: results.reduce((total, r) => total + r.requests.total, 0),
    failures: results.reduce((total, r) => total + r.errors + r.timeouts + r.non2xx, 0),
    serverCpu: cpu() - serverBefore,
    redisCpu: cpuSeconds(redisPid) - redisBefore,
  };
}

const perRequest = (seconds: number, requests: number) => (requests ? (seconds * 1e6) / requests : 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

async function main(): Promise<boolean> {
  const pinned = pinLoadGenerator();
  const root = await mkdtemp(join(tmpdir(), 'netdiag-shared-limits-'));
  const redis = await RedisServer.start();
  const started: BenchServer[] = [];
  const start = async (name: string, env: Record<string, string>) => {
    const server = await startServer(
      { ...LIMITERS_ON, DATA_DIR: join(root, name), ...env },
      join(root, `${name}.log`),
      pinned,
    );
    started.push(server);
    return server;
  };
  try {
    const memory = await start('memory', {});
    const shared = await start('redis', { REDIS_URL: redis.url });
    const rounds: Array<{ memory: Load; redis: Load }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      log.info({ round, connections: CONNECTIONS, seconds: DURATION_S }, 'limiters in memory, then in Redis');
      await loadOf([memory], undefined, 1);
      const m = await loadOf([memory], undefined, DURATION_S);
      await loadOf([shared], redis.pid, 1);
      const r = await loadOf([shared], redis.pid, DURATION_S);
      rounds.push({ memory: m, redis: r });
    }
    await stop(memory.child);

    const second = await start('redis-2', { REDIS_URL: redis.url });
    log.info({ connections: CONNECTIONS, seconds: DURATION_S }, 'two instances on one Redis');
    await loadOf([shared, second], redis.pid, 1);
    const two = await loadOf([shared, second], redis.pid, DURATION_S);

    const ratios = rounds.map((r) => r.redis.rps / r.memory.rps);
    const ratio = median(ratios);
    const sum = (pick: (r: { memory: Load; redis: Load }) => number) => rounds.reduce((n, r) => n + pick(r), 0);
    const memoryCpu = perRequest(
      sum((r) => r.memory.serverCpu),
      sum((r) => r.memory.requests),
    );
    const redisServerCpu = perRequest(
      sum((r) => r.redis.serverCpu),
      sum((r) => r.redis.requests),
    );
    const redisOwnCpu = perRequest(
      sum((r) => r.redis.redisCpu),
      sum((r) => r.redis.requests),
    );
    const failures = sum((r) => r.memory.failures + r.redis.failures) + two.failures;
    const rows = [
      ['limiters in process memory', median(rounds.map((r) => r.memory.rps)).toFixed(0), memoryCpu.toFixed(0), '', ''],
      [
        'limiters in Redis, one instance',
        median(rounds.map((r) => r.redis.rps)).toFixed(0),
        redisServerCpu.toFixed(0),
        redisOwnCpu.toFixed(0),
        `${ratio.toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(' ')})`,
      ],
      [
        'limiters in Redis, two instances',
        two.rps.toFixed(0),
        perRequest(two.serverCpu, two.requests).toFixed(0),
        perRequest(two.redisCpu, two.requests).toFixed(0),
        '',
      ],
    ];
    const header = [
      '/api/configs, both limiters on',
      'req/s',
      'server CPU µs/req',
      'Redis CPU µs/req',
      'ratio to memory (rounds)',
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
    process.stdout.write(`\n${line(header)}\n${rows.map(line).join('\n')}\n`);
    const met = ratio >= MIN_RATIO && failures === 0;
    process.stdout.write(
      `Redis against memory: median ratio ${ratio.toFixed(2)}, bound ${MIN_RATIO}: ${met ? 'met' : 'MISSED'}${failures ? `, ${failures} failed requests` : ''}; two instances share ${pinned ? 'core 1' : 'the machine'}.\n\n`,
    );
    return met;
  } finally {
    await Promise.all(started.map((s) => stop(s.child)));
    await redis.stop();
    await rm(root, { recursive: true, force: true });
  }
}

if (!(await main())) process.exitCode = 1;
