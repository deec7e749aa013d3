import type { BenchCase } from '../scenario.js';
import { foundationCases } from './foundation.js';
import { dnsresolverCases } from './dnsresolver.js';
import { geoCases } from './geo.js';
import { platformCases } from './platform.js';
import { asnCases } from './asn.js';
import { networkToolsCases } from './network-tools.js';
import { slowUpstreamCases } from './slow-upstream.js';
import { commandLineCases } from './command-line.js';

/** Every capability's benchmark cases; each capability adds its own module's list here. */
export const allCases: BenchCase[] = [
  ...foundationCases,
  ...dnsresolverCases,
  ...geoCases,
  ...platformCases,
  ...asnCases,
  ...networkToolsCases,
  ...slowUpstreamCases,
  ...commandLineCases,
];
