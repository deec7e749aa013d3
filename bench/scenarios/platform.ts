import type { BenchCase } from '../scenario.js';
import type { FakeUpstream } from '../../test/support/fake-upstream.js';
import { FAKE_KV_ENV, registerFakeKv, registerStatusPages } from '../../test/support/fake-routes/platform.js';

// A report the GET case reads on every request; seeded into the fake store.
const BENCH_REPORT_ID = 'benchReport0123456789A';
const REPORT = {
  version: 1,
  createdAt: '2026-11-22T23:50:00.000Z',
  ipCards: [
    { source: 'geo-keyed-a', ip: '8.8.8.8', city: 'Mountain View', region: 'California', country_name: 'United States', country_code: 'US', latitude: 37.4056, longitude: -122.0775, timezone: 'America/Los_Angeles', asn: 15169, org: 'Google LLC' },
    { source: 'geo-free-b', ip: '8.8.8.8', country_code: 'US', asn: 15169, org: 'Google LLC' },
  ],
  dnsLeak: { leaking: false, servers: [{ ip: '172.253.226.33', country_code: 'US', asn: 15169, org: 'Google LLC' }] },
  webrtc: { supported: true, leaking: false, candidates: [{ ip: '203.0.113.7', type: 'srflx', protocol: 'udp', stunServer: 'stun.l.google.com' }] },
  connectivity: [{ target: 'www.google.com', status: 'ok', latencyMs: 23.4 }],
  latency: [{ target: 'speed.cloudflare.com', region: 'DE', minMs: 11, avgMs: 14.2, maxMs: 19, lossPercent: 0 }],
  browser: { language: 'en-US', timezone: 'Europe/Berlin', screen: { width: 2560, height: 1440, pixelRatio: 1.5, colorDepth: 24 } },
};

// Both report cases share one fake store, whichever of them a filter selects.
const withStore = new WeakSet<FakeUpstream>();
function fakeStore(fake: FakeUpstream): void {
  if (withStore.has(fake)) return;
  withStore.add(fake);
  const kv = registerFakeKv(fake);
  const expiresAt = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString();
  kv.set(BENCH_REPORT_ID, JSON.stringify({ report: REPORT, expiresAt }), 7 * 24 * 60 * 60);
}

export const platformCases: BenchCase[] = [
  {
    name: 'GET /api/service-status (memory only)',
    listener: 'api',
    path: '/api/service-status',
    fake: registerStatusPages,
    minRatio: 0.6,
  },
  {
    name: 'POST /api/report (store in the fake key-value store)',
    listener: 'api',
    path: '/api/report',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ report: REPORT, ttlDays: 1 }),
    env: FAKE_KV_ENV,
    fake: fakeStore,
  },
  {
    name: 'GET /api/report/:id (read back from the fake key-value store)',
    listener: 'api',
    path: `/api/report/${BENCH_REPORT_ID}`,
    env: FAKE_KV_ENV,
    fake: fakeStore,
  },
];
