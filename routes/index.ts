import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ExampleRequest, UpstreamAnswer } from './example-request.js';
import * as configs from './configs/index.js';
import * as repoStars from './repo-stars/index.js';
import * as asn from './asn/index.js';
import * as whois from './whois/index.js';
import * as dnsresolver from './dnsresolver/index.js';
import * as serviceStatus from './status/index.js';
import * as reports from './reports/index.js';
import * as telemetry from './telemetry/index.js';
import * as user from './user/index.js';
import * as geo from './geo/index.js';
import * as censorship from './censorship/index.js';
import * as probeCountries from './probe-countries/index.js';
import * as macchecker from './macchecker/index.js';
import * as map from './map/index.js';
import * as privateTools from './private-tools/index.js';
import * as clientIp from './client-ip/index.js';

/** A routes/<cap>/ folder as its index.ts exports it: the plugin, and the examples of its routes (examples.ts). */
export interface Capability {
  default: FastifyPluginAsyncTypebox;
  examples: readonly ExampleRequest[];
  upstreamAnswers?: readonly UpstreamAnswer[];
}

/** Every capability under /api; registering one here brings its examples to the demo, the sweeps and the benchmark. */
export const CAPABILITIES: readonly Capability[] = [
  configs,
  repoStars,
  asn,
  whois,
  dnsresolver,
  serviceStatus,
  reports,
  telemetry,
  user,
  geo,
  censorship,
  probeCountries,
  macchecker,
  map,
  privateTools,
  clientIp,
];

const routes: FastifyPluginAsync = async (app) => {
  for (const capability of CAPABILITIES) await app.register(capability.default);
};

export default routes;
