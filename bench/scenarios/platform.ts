import { exampleCase, type BenchCase } from '../scenario.js';
import { exampleRequest } from '../../test/support/example-requests.js';
import type { FakeUpstream } from '../../test/support/fake-upstream.js';
import {
  FAKE_KV_ENV,
  FULL_REPORT,
  registerFakeKv,
  registerStatusPages,
} from '../../test/support/fake-routes/platform.js';

// The id of a report (a full run of the page) the GET case reads on every request; seeded into the fake store.
const BENCH_REPORT_ID = 'benchReport0123456789A';

// Both report cases share one fake store, whichever of them a filter selects.
const withStore = new WeakSet<FakeUpstream>();
function fakeStore(fake: FakeUpstream): void {
  if (withStore.has(fake)) return;
  withStore.add(fake);
  const kv = registerFakeKv(fake);
  const expiresAt = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString();
  kv.set(BENCH_REPORT_ID, JSON.stringify({ expiresAt, report: FULL_REPORT }), 7 * 24 * 60 * 60);
}

export const platformCases: BenchCase[] = [
  {
    name: 'GET /api/service-status (memory only)',
    listener: 'api',
    ...exampleCase(exampleRequest('/api/service-status')),
    fake: registerStatusPages,
    minRatio: 0.6,
  },
  {
    name: 'POST /api/report (store in the fake key-value store)',
    listener: 'api',
    path: '/api/report',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ report: FULL_REPORT, ttlDays: 1 }),
    // The store's path is measured, not the report limiter's 429 after the 20th.
    env: { ...FAKE_KV_ENV, REPORT_RATE_LIMIT: '0' },
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
