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

/** A case on the API listener asking a route's example request, with the fakes' routes. */
function apiCase(name: string, path: string, extra: Partial<BenchCase> = {}, method?: string): BenchCase {
  return { name, listener: 'api', ...exampleCase(exampleRequest(path, method)), fake: fakeRoutes, ...extra };
}

export const networkToolsCases: BenchCase[] = [
  apiCase('GET /api/censorship-blocking (two OONI aggregations, merged)', '/api/censorship-blocking'),
  apiCase('GET /api/probe-countries (Globalping probe list to an inventory)', '/api/probe-countries'),
  apiCase('GET /api/macchecker (maclookup.app)', '/api/macchecker'),
  apiCase('GET /api/map (streamed Static Maps image)', '/api/map', { env: FAKE_MAP_ENV }),
  apiCase(
    'POST /api/persona/evaluate (private API, headers forwarded)',
    '/api/persona/evaluate',
    { env: FAKE_PRIVATE_ENV },
    'POST',
  ),
];
