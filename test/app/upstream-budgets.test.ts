import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { buildTestApi, REFERER } from '../support/app.js';
import { bootOnAllFakes } from '../support/fakes.js';
import { closedOrigin } from '../support/fake-upstream.js';
import { FakeWhois } from '../support/fake-whois.js';
import { registerWhoisReplies } from '../support/fake-routes/whois.js';
import { startHangingResolvers, type HangingResolvers } from '../support/hanging-resolvers.js';
import { exampleRequests } from '../support/example-requests.js';
import type { ExampleRequest } from '../../routes/example-request.js';

// Every route, driven while its upstreams hang, refuse, do not resolve or are slow, answers within its budget: a route
// on local data as if they were healthy, a route whose upstream data is optional (names) in about a
// second, every other route within one upstream deadline end to end, however many calls it chains.
// UPSTREAM_TIMEOUT_MS is lowered so the sweep is short; the budgets scale with it.
const DEADLINE_MS = 4000;
// What a busy two-core machine may add to an answer that is on time.
const MARGIN_MS = 2500;
const BUDGET = {
  local: 1000 + MARGIN_MS,
  optional: 1000 + MARGIN_MS,
  upstream: DEADLINE_MS + MARGIN_MS,
};
// A slow upstream answers well inside one deadline, but a route that chains three such calls does not.
const SLOW_MS = Math.round(DEADLINE_MS * 0.6);

type Kind = keyof typeof BUDGET;
// Routes that answer from data the process holds; the rest call an upstream at request time.
const LOCAL = ['/api/configs', '/api/client-ip', '/api/geo-local', '/api/service-status'];
// The graph is local; only missing organisation names are asked of the routing registry.
const OPTIONAL = ['/api/asn-connectivity'];

function kindOf(url: string): Kind {
  const path = url.split('?', 1)[0]!;
  if (LOCAL.some((p) => path === p || path.startsWith(`${p}/`))) return 'local';
  if (OPTIONAL.includes(path)) return 'optional';
  return 'upstream';
}

// Beside the routes' own examples: WHOIS of an address, RDAP then port 43.
const REQUESTS: ExampleRequest[] = [...exampleRequests(), { url: '/api/whois?q=8.8.8.8' }];

/** An HTTP proxy to `origin` that holds every request `ms` before passing it on: upstreams that are slow, not down. */
async function slowProxy(origin: string, ms: number): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await delay(ms);
    try {
      const upstream = await request(`${origin}${req.url}`, {
        method: req.method as 'GET',
        headers: { ...req.headers, host: undefined },
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(upstream.statusCode, upstream.headers as Record<string, string>);
      for await (const chunk of upstream.body) res.write(chunk);
      res.end();
    } catch {
      res.destroy();
    }
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let healthy: Awaited<ReturnType<typeof bootOnAllFakes>>;
let hanging: HangingResolvers;
let hangingWhois: FakeWhois;
let slow: Awaited<ReturnType<typeof slowProxy>>;
let slowWhois: FakeWhois;
let dataDir: string;

before(async () => {
  // Booted once on healthy fakes, so every dataset is on disk for the apps below, which never download.
  healthy = await bootOnAllFakes();
  dataDir = healthy.app.config.DATA_DIR;
  hanging = await startHangingResolvers();
  hangingWhois = await FakeWhois.start();
  hangingWhois.hangsAll = true;
  slow = await slowProxy(healthy.fakes.http.origin, SLOW_MS);
  slowWhois = await FakeWhois.start();
  registerWhoisReplies(slowWhois);
  slowWhois.slowdownMs = SLOW_MS;
});

after(async () => {
  await Promise.all([hanging?.close(), hangingWhois?.close(), slow?.close(), slowWhois?.close()]);
  await healthy?.close();
});

async function appFor(upstreams: Record<string, string>): Promise<FastifyInstance> {
  const { app } = await buildTestApi({
    ...healthy.fakes.env,
    ...upstreams,
    DATA_DIR: dataDir,
    UPSTREAM_TIMEOUT_MS: String(DEADLINE_MS),
  });
  await app.lifecycle.boot();
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

/** Every request at once, each answer's status and time. */
async function sweep(app: FastifyInstance): Promise<Array<{ url: string; kind: Kind; status: number; ms: number }>> {
  const { port } = app.server.address() as AddressInfo;
  return Promise.all(
    REQUESTS.map(async (r) => {
      const started = performance.now();
      const res = await request(`http://127.0.0.1:${port}${r.url}`, {
        method: r.method ?? 'GET',
        headers: {
          ...REFERER,
          ...r.headers,
          ...(r.payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body:
          r.payload === undefined ? undefined : typeof r.payload === 'string' ? r.payload : JSON.stringify(r.payload),
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
      await res.body.dump();
      return { url: r.url, kind: kindOf(r.url), status: res.statusCode, ms: performance.now() - started };
    }),
  );
}

function assertWithinBudgets(answers: Awaited<ReturnType<typeof sweep>>, mode: string): void {
  const late = answers.filter((a) => a.ms > BUDGET[a.kind]);
  assert.deepEqual(
    late.map((a) => `${a.url} (${a.kind}): ${Math.round(a.ms)} ms > ${BUDGET[a.kind]} ms`),
    [],
    `${mode}: every route within its budget`,
  );
  const crashed = answers.filter((a) => a.status >= 500 && a.kind === 'local');
  assert.deepEqual(crashed, [], `${mode}: routes on local data answer as when healthy`);
}

test('upstreams that hang: every route within its budget', async () => {
  const app = await appFor({
    UPSTREAM_OVERRIDE_ORIGIN: hanging.origin,
    DNS_OVERRIDE_SERVER: hanging.dnsServer,
    WHOIS_OVERRIDE_SERVER: hangingWhois.address,
  });
  try {
    assertWithinBudgets(await sweep(app), 'hang');
  } finally {
    await app.close();
  }
});

test('upstreams that refuse: every route within its budget', async () => {
  const refused = await closedOrigin();
  const app = await appFor({
    UPSTREAM_OVERRIDE_ORIGIN: refused,
    WHOIS_OVERRIDE_SERVER: new URL(refused).host,
  });
  try {
    assertWithinBudgets(await sweep(app), 'refuse');
  } finally {
    await app.close();
  }
});

test('upstreams whose names never resolve: every route within its budget', async () => {
  // Every upstream, WHOIS server included, behind one name the resolver is asked and never answers.
  const name = 'unresolvable.budget.test';
  const app = await appFor({
    UPSTREAM_OVERRIDE_ORIGIN: `http://${name}:${new URL(healthy.fakes.http.origin).port}`,
    DNS_OVERRIDE_SERVER: hanging.dnsServer,
    WHOIS_OVERRIDE_SERVER: `${name}:43`,
  });
  try {
    assertWithinBudgets(await sweep(app), 'unresolvable');
  } finally {
    await app.close();
  }
});

test('upstreams that are slow (each call 60 % of the deadline): every route within its budget', async () => {
  const app = await appFor({ UPSTREAM_OVERRIDE_ORIGIN: slow.origin, WHOIS_OVERRIDE_SERVER: slowWhois.address });
  try {
    assertWithinBudgets(await sweep(app), 'slow');
  } finally {
    await app.close();
  }
});
