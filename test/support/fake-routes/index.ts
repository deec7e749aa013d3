import { fixture, fixtureBytes, type Canned, type FakeUpstream } from '../fake-upstream.js';
import { CAPABILITIES } from '../../../routes/index.js';
import type { UpstreamAnswer } from '../../../routes/example-request.js';
import { registerWhois } from './whois.js';
import { registerDnsResolver } from './dnsresolver.js';
import { registerAsnFakeRoutes } from './asn.js';
import { registerPlatformFakeRoutes } from './platform.js';
import { registerGeoFakeRoutes } from './geo.js';
import { registerNetworkToolsFakeRoutes } from './network-tools.js';
import { registerPrivateToolsFakeRoutes } from './private-tools.js';

/** An answer's fixture as the fake upstream sends it: parsed JSON, or the file's bytes with its content type. */
function canned(answer: UpstreamAnswer): Canned {
  const headers = answer.contentType ? { 'content-type': answer.contentType } : undefined;
  if (answer.fixture.endsWith('.json')) return { json: fixture(answer.host, answer.fixture), headers };
  return { body: fixtureBytes(answer.host, answer.fixture), headers };
}

/** The fixed upstream answers each capability lists beside its example requests (routes/<cap>/examples.ts). */
export function registerUpstreamAnswers(fake: FakeUpstream): void {
  for (const capability of CAPABILITIES) {
    for (const answer of capability.upstreamAnswers ?? []) {
      fake.on(answer.method, answer.host, answer.path, canned(answer));
    }
  }
}

/**
 * Success answers for every upstream, from test/fixtures, for the offline demo
 * (npm run demo) and the benchmark: the capabilities' fixed answers, then the
 * handlers here for answers that depend on the request.
 */
const registrations: Array<(fake: FakeUpstream) => void> = [
  registerUpstreamAnswers,
  registerWhois,
  registerDnsResolver,
  registerAsnFakeRoutes,
  registerGeoFakeRoutes,
  registerPlatformFakeRoutes,
  registerNetworkToolsFakeRoutes,
  registerPrivateToolsFakeRoutes,
];

export function registerAllFakeRoutes(fake: FakeUpstream): void {
  for (const register of registrations) register(fake);
}
