import { exampleCase, type BenchCase } from '../scenario.js';
import type { FakeUpstream } from '../../test/support/fake-upstream.js';
import {
  FAKE_MAP_ENV,
  FAKE_PRIVATE_ENV,
  registerNetworkToolsFakeRoutes,
} from '../../test/support/fake-routes/network-tools.js';
import { registerUpstreamAnswers } from '../../test/support/fake-routes/index.js';
import { exampleRequest } from '../../test/support/example-requests.js';

// Every case registers the same routes; registering them once per fake keeps the route list short.
const registered = new WeakSet<FakeUpstream>();
function fakeRoutes(fake: FakeUpstream): void {
  if (registered.has(fake)) return;
  registered.add(fake);
  registerUpstreamAnswers(fake);
  registerNetworkToolsFakeRoutes(fake);
}

export const networkToolsCases: BenchCase[] = [
  {
    name: 'GET /api/censorship-blocking (two OONI aggregations, merged)',
    listener: 'api',
    ...exampleCase(exampleRequest('/api/censorship-blocking')),
    fake: fakeRoutes,
  },
  {
    name: 'GET /api/probe-countries (Globalping probe list to an inventory)',
    listener: 'api',
    ...exampleCase(exampleRequest('/api/probe-countries')),
    fake: fakeRoutes,
  },
  {
    name: 'GET /api/macchecker (maclookup.app)',
    listener: 'api',
    ...exampleCase(exampleRequest('/api/macchecker')),
    fake: fakeRoutes,
  },
  {
    name: 'GET /api/map (streamed Static Maps image)',
    listener: 'api',
    ...exampleCase(exampleRequest('/api/map')),
    env: FAKE_MAP_ENV,
    fake: fakeRoutes,
  },
  {
    name: 'POST /api/persona/evaluate (private API, headers forwarded)',
    listener: 'api',
    ...exampleCase(exampleRequest('/api/persona/evaluate', 'POST')),
    env: FAKE_PRIVATE_ENV,
    fake: fakeRoutes,
  },
];
