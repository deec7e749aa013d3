import { PROVIDERS } from '../../../routes/status/providers.js';
import { FakeKv } from '../fake-kv.js';
import { fixture, type FakeUpstream } from '../fake-upstream.js';

/** Settings that point report sharing at the fake store below (demo and benchmark). */
export const FAKE_KV_ENV = {
  RADAR_API_KEY: 'fake-radar-token',
  KV_ACCOUNT_ID: '023e105f4ecef8ad9ca31a8372d0c353',
  KV_NAMESPACE_ID: '0f2ac74b498b48028cb68387c421e279',
};

/** The telemetry DSN whose ingest the fake answers. */
export const FAKE_TELEMETRY_DSN = 'https://d41d8cd98f00b204e9800998ecf8427e@o0.ingest.sentry.io/0';

/**
 * Every provider's status page answers its own Statuspage fixtures
 * (test/fixtures/<host>/): lights of every colour, grouped and flat pages,
 * open and resolved incidents, pages without `shortlink` or `started_at`.
 */
export function registerStatusPages(fake: FakeUpstream): void {
  for (const provider of PROVIDERS) {
    const host = new URL(provider.page).host;
    fake.on('GET', host, '/api/v2/summary.json', { json: fixture(host, 'summary.json') });
    fake.on('GET', host, '/api/v2/incidents.json', { json: fixture(host, 'incidents.json') });
  }
}

/** The key-value store for FAKE_KV_ENV; a capacity keeps a long benchmark's writes bounded. */
export function registerFakeKv(fake: FakeUpstream): FakeKv {
  return new FakeKv(fake, {
    accountId: FAKE_KV_ENV.KV_ACCOUNT_ID,
    namespaceId: FAKE_KV_ENV.KV_NAMESPACE_ID,
    token: FAKE_KV_ENV.RADAR_API_KEY,
    capacity: 10_000,
  });
}

export function registerPlatformFakeRoutes(fake: FakeUpstream): void {
  registerStatusPages(fake);
  registerFakeKv(fake);
  fake.on('POST', 'o0.ingest.sentry.io', '/api/0/envelope/', { json: fixture('o0.ingest.sentry.io', 'envelope-accepted.json') });
}
