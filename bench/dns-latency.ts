import { once } from 'node:events';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { request } from 'undici';
import { loadConfig } from '../fastify.config.js';
import { buildApi } from '../app.js';
import { composeShared } from '../composition.js';
import { Upstream } from '../lib/upstream.js';
import { Lifecycle } from '../lib/lifecycle.js';
import '../lib/fastify-types.js';
import { GUARD_KEYWORD } from '../schemas/guarded.js';
import guards from '../plugins/guards.js';
import dnsresolver from '../routes/dnsresolver/index.js';
import { loadResolvers, type ResolverSpec } from '../routes/dnsresolver/resolvers.js';
import { FakeDns } from '../test/support/fake-dns.js';
import { FakeUpstream } from '../test/support/fake-upstream.js';
import { DOH_ENDPOINTS, dohAnswer } from '../test/support/fake-routes/dnsresolver.js';
import { REFERER } from '../test/support/app.js';

/**
 * How long /api/dnsresolver takes against loopback resolvers with known
 * delays, next to the slowest resolver's delay. The issue's bound: no more
 * than the slowest resolver plus 20 ms, whatever the number of resolvers.
 *
 *   node --import tsx bench/dns-latency.ts
 */

const BOUND_MS = 20;
const ROUNDS = 30;
const SLOWEST_MS = 80;
const logger = pino({ level: 'silent' });
const closers: Array<() => Promise<unknown>> = [];

/** Delays spread between 5 ms and SLOWEST_MS, the last resolver the slowest. */
const delayOf = (i: number, n: number) => (n === 1 ? SLOWEST_MS : Math.round(5 + ((SLOWEST_MS - 5) * i) / (n - 1)));

async function measure(origin: string, path: string, headers: Record<string, string> = {}) {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS + 3; round++) {
    const started = performance.now();
    const res = await request(`${origin}${path}`, { headers });
    const body = (await res.body.json()) as { results: Array<{ result: string[] | string }> };
    const ms = performance.now() - started;
    const answered = (r: { result: string[] | string }) => Array.isArray(r.result) && r.result[0] === '93.184.215.14';
    if (res.statusCode !== 200 || !body.results.every(answered)) throw new Error(`unexpected answer ${res.statusCode}`);
    if (round >= 3) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)]!,
    p95: times[Math.floor(times.length * 0.95)]!,
    max: times[times.length - 1]!,
  };
}

async function listen(app: FastifyInstance): Promise<string> {
  closers.push(() => app.close());
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/** The route on its own, with `resolvers` in place of the data file. */
async function scaledApp(fakeOrigin: string, resolvers: ResolverSpec[]): Promise<string> {
  const config = loadConfig({ UPSTREAM_OVERRIDE_ORIGIN: fakeOrigin });
  const app = Fastify({ ajv: { customOptions: { keywords: [GUARD_KEYWORD] } } });
  app.decorate('config', config);
  app.decorate(
    'upstream',
    new Upstream({ timeoutMs: config.UPSTREAM_TIMEOUT_MS, siteUrl: '', overrideOrigin: fakeOrigin, logger }),
  );
  app.decorate('lifecycle', new Lifecycle(logger));
  await app.register(guards);
  await app.register(dnsresolver, { prefix: '/api', resolvers });
  return listen(app);
}

interface FakePlan {
  /** Delay of each loopback plain-DNS server to start. */
  dns: number[];
  /** DoH endpoints to answer, each with its delay. */
  doh: Array<{ host: string; path: string; delay: number }>;
}

/**
 * The fake resolvers run in a worker thread, so their own work does not sit
 * in the event loop of the route being measured.
 */
async function startFakes(plan: FakePlan): Promise<{ origin: string; dns: string[] }> {
  // Node 20 resolves a worker's entry before --import hooks run, so the
  // worker registers tsx itself and then loads this file.
  const entry = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); });`;
  const worker = new Worker(entry, { eval: true, workerData: plan });
  closers.push(async () => {
    worker.postMessage('close');
    await once(worker, 'exit');
  });
  const [ready] = (await once(worker, 'message')) as [{ origin: string; dns: string[] }];
  return ready;
}

async function runFakes(plan: FakePlan): Promise<void> {
  const fake = await FakeUpstream.start();
  for (const { host, path, delay } of plan.doh) fake.on('GET', host, path, dohAnswer(delay));
  const servers = await Promise.all(plan.dns.map((delay) => FakeDns.start(delay)));
  for (const dns of servers) {
    dns.on('example.com', 'A', { answers: [{ type: 'A', name: 'example.com', ttl: 300, data: '93.184.215.14' }] });
  }
  parentPort!.postMessage({ origin: fake.origin, dns: servers.map((d) => d.address) });
  parentPort!.once('message', async () => {
    await Promise.all([fake.close(), ...servers.map((d) => d.close())]);
    process.exit(0);
  });
}

async function main(): Promise<void> {
  const rows: Array<{ setup: string; resolvers: number; slowest: number; median: number; p95: number; max: number }> =
    [];

  // The service as configured: the data file's resolvers, plain DNS through one
  // loopback server delayed by SLOWEST_MS, each DoH endpoint with its own delay.
  {
    const fakes = await startFakes({
      dns: [SLOWEST_MS],
      doh: DOH_ENDPOINTS.map(([host, path], i) => ({ host, path, delay: delayOf(i, DOH_ENDPOINTS.length + 1) })),
    });
    const config = loadConfig({
      UPSTREAM_OVERRIDE_ORIGIN: fakes.origin,
      DNS_OVERRIDE_SERVER: fakes.dns[0]!,
      LOG_LEVEL: 'error',
    });
    const app = await buildApi({ shared: await composeShared({ config, logger }) });
    const origin = await listen(app);
    const result = await measure(origin, '/api/dnsresolver?hostname=example.com&type=A', REFERER);
    const rowCount = loadResolvers().reduce((n, r) => n + (r.udp ? 1 : 0) + (r.doh ? 1 : 0), 0);
    rows.push({ setup: 'full API, data file', resolvers: rowCount, slowest: SLOWEST_MS, ...result });
  }

  // The same route with more and more resolvers, half plain DNS (each its own
  // loopback server), half DoH.
  for (const n of [2, 8, 32, 64]) {
    const plan: FakePlan = { dns: [], doh: [] };
    const kinds: Array<'dns' | 'doh'> = [];
    for (let i = 0; i < n; i++) {
      kinds.push(i % 2 === 0 ? 'dns' : 'doh');
      if (i % 2 === 0) plan.dns.push(delayOf(i, n));
      else plan.doh.push({ host: `doh-${i}.bench.example`, path: '/resolve', delay: delayOf(i, n) });
    }
    const fakes = await startFakes(plan);
    let d = 0;
    let h = 0;
    const resolvers: ResolverSpec[] = kinds.map((kind, i) =>
      kind === 'dns'
        ? { id: `plain-${i}`, provider: `Plain ${i}`, country: 'US', udp: fakes.dns[d++]! }
        : { id: `doh-${i}`, provider: `DoH ${i}`, country: 'US', doh: `https://${plan.doh[h++]!.host}/resolve` },
    );
    const origin = await scaledApp(fakes.origin, resolvers);
    const result = await measure(origin, '/api/dnsresolver?hostname=example.com&type=A');
    rows.push({ setup: 'route alone', resolvers: n, slowest: SLOWEST_MS, ...result });
  }
  report(rows);
  for (const close of closers.reverse()) await close();
}

function report(
  rows: Array<{ setup: string; resolvers: number; slowest: number; median: number; p95: number; max: number }>,
): void {
  let failed = false;
  const out = ['setup                 resolvers  slowest  median    p95     max   median-slowest  within bound'];
  for (const r of rows) {
    const over = r.median - r.slowest;
    const ok = over <= BOUND_MS;
    failed ||= !ok;
    out.push(
      `${r.setup.padEnd(22)}${String(r.resolvers).padStart(9)}${`${r.slowest} ms`.padStart(9)}${r.median.toFixed(1).padStart(8)}${r.p95.toFixed(1).padStart(8)}${r.max.toFixed(1).padStart(8)}${`${over.toFixed(1)} ms`.padStart(17)}  ${ok ? 'yes' : 'NO'}`,
    );
  }
  process.stdout.write(
    `${out.join('\n')}\n(${ROUNDS} sequential requests per row, after 3 warm-up requests; bound: slowest + ${BOUND_MS} ms)\n`,
  );
  process.exitCode = failed ? 1 : 0;
}

if (isMainThread) await main();
else await runFakes(workerData as FakePlan);
