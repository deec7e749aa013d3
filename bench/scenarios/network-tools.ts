import type { BenchCase } from '../scenario.js';
import type { FakeUpstream } from '../../test/support/fake-upstream.js';
import { FAKE_MAP_ENV, FAKE_PRIVATE_ENV, registerNetworkToolsFakeRoutes } from '../../test/support/fake-routes/network-tools.js';

// Every case registers the same routes; registering them once per fake keeps the route list short.
const registered = new WeakSet<FakeUpstream>();
function fakeRoutes(fake: FakeUpstream): void {
  if (registered.has(fake)) return;
  registered.add(fake);
  registerNetworkToolsFakeRoutes(fake);
}

export const networkToolsCases: BenchCase[] = [
  {
    name: 'GET /api/censorship-blocking (two OONI aggregations, merged)',
    listener: 'api',
    path: '/api/censorship-blocking?domain=example.com',
    fake: fakeRoutes,
  },
  {
    name: 'GET /api/probe-countries (Globalping probe list to an inventory)',
    listener: 'api',
    path: '/api/probe-countries',
    fake: fakeRoutes,
  },
  {
    name: 'GET /api/macchecker (maclookup.app)',
    listener: 'api',
    path: '/api/macchecker?mac=00:00:0C:12:34:56',
    fake: fakeRoutes,
  },
  {
    name: 'GET /api/map (streamed Static Maps image)',
    listener: 'api',
    path: '/api/map?latitude=52.52&longitude=13.405&language=de&CanvasMode=Dark',
    env: FAKE_MAP_ENV,
    fake: fakeRoutes,
  },
  {
    name: 'POST /api/persona/evaluate (private API, headers forwarded)',
    listener: 'api',
    path: '/api/persona/evaluate',
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bench-user' },
    body: JSON.stringify({ persona: { country: 'DE', language: 'de' }, observation: { timezone: 'Europe/Berlin' } }),
    env: FAKE_PRIVATE_ENV,
    fake: fakeRoutes,
  },
];
