import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildTestApi } from '../support/app.js';
import { startAllFakes, type AllFakes } from '../support/fakes.js';
import { overHttp, type TimedAnswer } from '../support/over-http.js';
import type { Recorded } from '../support/fake-upstream.js';
import { EXAMPLE_PRIVATE_API_HOST } from '../../routes/example-request.js';

// Short, so the test sees a failure forgotten, yet far longer than a repeat
// request takes on a busy machine; the default is 30 s.
const FAILURE_MEMORY_MS = 5000;

/** A cacheable route that calls an upstream, and the upstream hosts whose calls it makes. */
interface Case {
  url: string;
  hosts: string[];
}

const CASES: Case[] = [
  { url: '/api/geo-keyed-a?ip=8.8.8.8', hosts: ['ipinfo.io'] },
  { url: '/api/geo-free-a?ip=8.8.8.8&lang=de', hosts: ['ip-api.com'] },
  { url: '/api/geo-free-b?ip=8.8.8.8', hosts: ['api.ip.sb'] },
  { url: '/api/geo-keyed-b?ip=8.8.8.8', hosts: ['api.ipapi.is'] },
  { url: '/api/geo-keyed-c?ip=8.8.8.8', hosts: ['api.ip2location.io'] },
  { url: '/api/whois?q=8.8.8.8', hosts: ['rdap.arin.net'] },
  { url: '/api/censorship-blocking?domain=example.com', hosts: ['api.ooni.io'] },
  { url: '/api/probe-countries', hosts: ['api.globalping.io'] },
  { url: '/api/macchecker?mac=00:1A:2B:3C:4D:5E', hosts: ['api.maclookup.app'] },
  { url: '/api/map?latitude=37.4&longitude=-122.08&language=en&CanvasMode=Dark', hosts: ['maps.googleapis.com'] },
  { url: '/api/asn-radar?view=asn&asn=15169', hosts: ['api.cloudflare.com'] },
  { url: '/api/asn-radar?view=outages', hosts: ['api.cloudflare.com'] },
  { url: '/api/asn-radar?view=activity&country=US', hosts: ['api.cloudflare.com'] },
  { url: '/api/asn-history?prefix=8.8.8.0/24', hosts: ['stat.ripe.net'] },
  // 263100 is in the snapshot's graph without an organisation: its name is asked of RIPEstat.
  { url: '/api/asn-connectivity?asn=263100', hosts: ['stat.ripe.net'] },
  { url: '/api/repo-stars', hosts: ['api.github.com'] },
];

type Get = (path: string, options?: { headers?: Record<string, string> }) => Promise<TimedAnswer>;

interface Booted {
  app: FastifyInstance;
  get: Get;
  dataDir: string;
}

/** The real app on every fake, on a real loopback port, its start-up steps run. */
async function boot(fakes: AllFakes): Promise<Booted> {
  const dataDir = await mkdtemp(join(tmpdir(), 'shared-lookups-'));
  const { app } = await buildTestApi({
    ...fakes.env,
    DATA_DIR: dataDir,
    REPO_STARS_REPOSITORY: 'jason5ng32/MyIP',
    UPSTREAM_FAILURE_MEMORY_MS: String(FAILURE_MEMORY_MS),
  });
  await app.lifecycle.boot();
  return { app, get: await overHttp(app), dataDir };
}

async function shutDown({ app, dataDir }: Booted): Promise<void> {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}

/** The upstream calls made while `action` ran, to the case's hosts. */
async function callsDuring(fakes: AllFakes, hosts: string[], action: () => Promise<unknown>): Promise<Recorded[]> {
  const from = fakes.http.requests.length;
  await action();
  return fakes.http.requests.slice(from).filter((r) => hosts.includes(r.host));
}

const question = (r: Recorded) => `${r.host}${r.path}?${r.query}`;

describe('identical upstream lookups are shared and their answers kept', () => {
  let fakes: AllFakes;
  let booted: Booted;
  before(async () => {
    fakes = await startAllFakes();
    booted = await boot(fakes);
  });
  after(async () => {
    await shutDown(booted);
    await fakes.close();
  });

  for (const { url, hosts } of CASES) {
    test(`${url}: 5 identical concurrent requests ask each upstream question once, a 6th asks nothing`, async () => {
      let answers: TimedAnswer[] = [];
      const burst = await callsDuring(fakes, hosts, async () => {
        answers = await Promise.all(Array.from({ length: 5 }, () => booted.get(url)));
      });
      for (const answer of answers) assert.equal(answer.statusCode, 200, answer.body);
      assert.ok(burst.length >= 1, 'the first requests reach the upstream');
      const questions = burst.map(question);
      assert.deepEqual(questions, [...new Set(questions)], 'no upstream question is asked twice');

      let sixth: TimedAnswer | undefined;
      const again = await callsDuring(fakes, hosts, async () => {
        sixth = await booted.get(url);
      });
      assert.equal(sixth?.statusCode, 200);
      assert.equal(sixth?.body, answers[0]!.body);
      assert.deepEqual(again.map(question), [], 'a repeat within the cache time asks nothing');
    });
  }

  test('geo-private is never shared: two callers with different Authorization each reach the upstream', async () => {
    const url = '/api/geo-private?ip=8.8.8.8';
    const hosts = [EXAMPLE_PRIVATE_API_HOST];
    const calls = await callsDuring(fakes, hosts, () =>
      Promise.all([
        booted.get(url, { headers: { authorization: 'Bearer alice' } }),
        booted.get(url, { headers: { authorization: 'Bearer bob' } }),
      ]),
    );
    assert.deepEqual(calls.map((r) => r.headers.authorization).sort(), ['Bearer alice', 'Bearer bob']);
    const later = await callsDuring(fakes, hosts, () =>
      booted.get(url, { headers: { authorization: 'Bearer alice' } }),
    );
    assert.equal(later.length, 1, 'a no-store answer is not kept either');
  });
});

describe('a failed lookup is remembered briefly, then asked again', () => {
  let fakes: AllFakes;
  let booted: Booted;
  before(async () => {
    fakes = await startAllFakes();
    booted = await boot(fakes);
    // Every upstream now fails, after the start-up downloads; WHOIS's port-43 fallback refuses.
    for (const host of new Set(CASES.flatMap((c) => c.hosts))) fakes.http.on('*', host, /.*/, { status: 503 });
    await fakes.whois.close();
  });
  after(async () => {
    await shutDown(booted);
    await fakes.close();
  });

  test('each route answers a remembered failure again as it did, without a call, until the memory ends', async () => {
    let lastAskedAt = 0;
    for (const { url, hosts } of CASES) {
      let first: TimedAnswer | undefined;
      const asked = await callsDuring(fakes, hosts, async () => {
        first = await booted.get(url);
      });
      lastAskedAt = Date.now();
      assert.ok(asked.length >= 1, `${url}: the first request reaches the upstream`);
      let repeat: TimedAnswer | undefined;
      const remembered = await callsDuring(fakes, hosts, async () => {
        repeat = await booted.get(url);
      });
      assert.deepEqual(remembered.map(question), [], `${url}: a remembered failure asks nothing`);
      assert.equal(repeat?.statusCode, first?.statusCode, url);
      assert.equal(repeat?.body, first?.body, url);
    }
    // Every case's failure has been forgotten by then.
    await delay(Math.max(0, lastAskedAt + FAILURE_MEMORY_MS + 250 - Date.now()));
    for (const { url, hosts } of CASES) {
      const retried = await callsDuring(fakes, hosts, () => booted.get(url));
      assert.ok(retried.length >= 1, `${url}: after the failure memory the upstream is asked again`);
    }
  });
});
