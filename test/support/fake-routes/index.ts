import type { FakeUpstream } from '../fake-upstream.js';
import { registerFoundationFakeRoutes } from './foundation.js';
import { registerWhois } from './whois.js';
import { registerDnsResolver } from './dnsresolver.js';
import { registerAsnFakeRoutes } from './asn.js';
import { registerPlatformFakeRoutes } from './platform.js';
import { registerGeoFakeRoutes } from './geo.js';
import { registerNetworkToolsFakeRoutes } from './network-tools.js';

/**
 * Success answers for every upstream, from test/fixtures, for the offline demo
 * (npm run demo) and the benchmark. Each capability adds its own module here.
 */
const registrations: Array<(fake: FakeUpstream) => void> = [registerFoundationFakeRoutes, registerWhois, registerDnsResolver, registerAsnFakeRoutes, registerGeoFakeRoutes, registerPlatformFakeRoutes, registerNetworkToolsFakeRoutes];

export function registerAllFakeRoutes(fake: FakeUpstream): void {
  for (const register of registrations) register(fake);
}
