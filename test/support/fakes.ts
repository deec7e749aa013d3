import { until } from './until.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildTestApi } from './app.js';
import { FakeUpstream } from './fake-upstream.js';
import { FakeDns } from './fake-dns.js';
import { FakeWhois } from './fake-whois.js';
import { registerAllFakeRoutes } from './fake-routes/index.js';
import { registerExampleCom } from './fake-routes/dnsresolver.js';
import { registerWhoisReplies } from './fake-routes/whois.js';
import { FAKE_KV_ENV } from './fake-routes/platform.js';
import { EXAMPLE_TELEMETRY_DSN } from '../../routes/monitoring/examples.js';
import { FAKE_MAP_ENV, FAKE_PRIVATE_ENV } from './fake-routes/network-tools.js';

// Placeholders for the keys the fakes do not check: a set key switches its feature on.
const PLACEHOLDER_KEYS = {
  GEO_KEYED_A_API_KEY: 'fake-key',
  GEO_KEYED_B_API_KEY: 'fake-key',
  GEO_KEYED_C_API_KEY: 'fake-key',
  MAC_LOOKUP_API_KEY: 'fake-key',
  GEODB_ACCOUNT_ID: 'fake-account',
  GEODB_LICENSE_KEY: 'fake-key',
};

export interface AllFakes {
  http: FakeUpstream;
  dns: FakeDns;
  whois: FakeWhois;
  /** Settings that send every upstream call to these fakes, with every feature switched on. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Where the fakes listen on loopback; a port left out is a free one. */
export interface FakePorts {
  http?: number;
  dns?: number;
  whois?: number;
}

/** Every upstream faked on loopback with success answers (HTTP, plain DNS, port-43 WHOIS): the offline demo and its test. */
export async function startAllFakes(ports: FakePorts = {}): Promise<AllFakes> {
  const http = await FakeUpstream.start(ports.http);
  registerAllFakeRoutes(http);
  const dns = await FakeDns.start(0, ports.dns);
  registerExampleCom(dns);
  const whois = await FakeWhois.start(ports.whois);
  registerWhoisReplies(whois);
  return {
    http,
    dns,
    whois,
    env: {
      ...PLACEHOLDER_KEYS,
      ...FAKE_KV_ENV,
      ...FAKE_MAP_ENV,
      ...FAKE_PRIVATE_ENV,
      TELEMETRY_DSN_FRONTEND: EXAMPLE_TELEMETRY_DSN,
      UPSTREAM_OVERRIDE_ORIGIN: http.origin,
      DNS_OVERRIDE_SERVER: dns.address,
      WHOIS_OVERRIDE_SERVER: whois.address,
    },
    close: async () => {
      await Promise.all([http.close(), dns.close(), whois.close()]);
    },
  };
}

/** The real API application on every fake, its start-up steps run (datasets downloaded from the fakes); close() tidies all of it. */
export async function bootOnAllFakes(): Promise<{ app: FastifyInstance; fakes: AllFakes; close(): Promise<void> }> {
  const fakes = await startAllFakes();
  const dataDir = await mkdtemp(join(tmpdir(), 'all-fakes-'));
  // The star count too, which is off unless a repository is named.
  const { app } = await buildTestApi({ ...fakes.env, DATA_DIR: dataDir, REPO_STARS_REPOSITORY: 'jason5ng32/MyIP' });
  await app.lifecycle.boot();
  await serviceStatusPrimed(app);
  return {
    app,
    fakes,
    close: async () => {
      await app.close();
      await fakes.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Start-up waits only 100 ms for the first service-status round; the round
 * goes on in the background. A test that reads the lights waits for it to end,
 * however long a busy machine takes.
 */
export async function serviceStatusPrimed(app: FastifyInstance): Promise<void> {
  await until(
    async () => (await app.inject({ url: '/readyz' })).json().datasets?.serviceStatus?.state === 'loaded',
    60_000,
    'the first service-status round',
  );
}
