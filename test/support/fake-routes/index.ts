import type { FakeUpstream } from '../fake-upstream.js';

/**
 * Success answers for every upstream, from test/fixtures, for the offline demo
 * (npm run demo) and the benchmark. Each capability adds its own module here.
 */
const registrations: Array<(fake: FakeUpstream) => void> = [];

export function registerAllFakeRoutes(fake: FakeUpstream): void {
  for (const register of registrations) register(fake);
}
