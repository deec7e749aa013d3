import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { FakeUpstream } from '../support/fake-upstream.js';
import { FakeWhois } from '../support/fake-whois.js';
import { REFERER } from '../support/app.js';
import { startServer, stopServer, type Running } from '../support/real-server.js';
import { noTldServer } from '../../routes/whois/index.js';

// Finding 3's bar, on server.ts as production runs it: 2,000 distinct
// top-level labels that are not TLDs cause at most 100 outbound queries and
// at most 30 MB of resident-memory growth.

const FLOOD = 2000;
const MAX_QUERIES = 100;
const MAX_GROWTH_MB = 30;
const IN_FLIGHT = 16;

let fake: FakeUpstream;
let whois: FakeWhois;
let server: Running;

before(async () => {
  fake = await FakeUpstream.start();
  whois = await FakeWhois.start();
  server = await startServer({
    UPSTREAM_OVERRIDE_ORIGIN: fake.origin,
    WHOIS_OVERRIDE_SERVER: whois.address,
    LOG_LEVEL: 'warn',
  });
});
after(async () => {
  await stopServer(server);
  await fake.close();
  await whois.close();
});

/** The server process's resident set, in MB, as the kernel counts it. */
function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  assert.ok(kb, 'VmRSS readable');
  return Number(kb) / 1024;
}

/** Asks for example.<tld> for every label, IN_FLIGHT at a time; returns how many answers were the 404 for an unknown TLD. */
async function flood(tlds: string[]): Promise<number> {
  let next = 0;
  let notFound = 0;
  const worker = async () => {
    while (next < tlds.length) {
      const tld = tlds[next++]!;
      const res = await request(`${server.apiUrl}/api/whois?q=example.${tld}`, { headers: REFERER });
      const body = (await res.body.json()) as { error?: string };
      if (res.statusCode === 404 && body.error === noTldServer(tld)) notFound++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return notFound;
}

const labels = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${i.toString(36)}x`);

test(`${FLOOD} distinct unknown top-level labels: at most ${MAX_QUERIES} outbound queries and ${MAX_GROWTH_MB} MB of growth`, async (t) => {
  // Warm-up with other labels, so the measurement starts from a server that has answered this route before.
  await flood(labels('warmup', 200));
  const queriesBefore = whois.connections + fake.requests.length;
  const before = rssMb(server.child.pid!);
  const notFound = await flood(labels('flood', FLOOD));
  const after = rssMb(server.child.pid!);
  const queries = whois.connections + fake.requests.length - queriesBefore;
  t.diagnostic(
    `outbound queries: ${queries}; RSS ${before.toFixed(1)} -> ${after.toFixed(1)} MB (growth ${(after - before).toFixed(1)} MB)`,
  );
  assert.equal(notFound, FLOOD);
  assert.ok(queries <= MAX_QUERIES, `${queries} outbound queries`);
  assert.ok(after - before <= MAX_GROWTH_MB, `RSS grew ${(after - before).toFixed(1)} MB`);
});
