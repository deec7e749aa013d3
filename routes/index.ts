import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ExampleRequest, UpstreamAnswer } from './example-request.js';

/** A routes/<cap>/ folder as its index.ts exports it: the plugin, and the examples of its routes (examples.ts). */
export interface Capability {
  default: FastifyPluginAsyncTypebox;
  examples: readonly ExampleRequest[];
  upstreamAnswers?: readonly UpstreamAnswer[];
}

/**
 * Every capability under /api, one line each; registering one here brings its
 * examples to the demo, the sweeps and the benchmark.
 */
export const CAPABILITIES: readonly Capability[] = [
  await import('./configs/index.js'),
  await import('./repo-stars/index.js'),
  await import('./asn/index.js'),
  await import('./whois/index.js'),
  await import('./dnsresolver/index.js'),
  await import('./service-status/index.js'),
  await import('./report/index.js'),
  await import('./monitoring/index.js'),
  await import('./getuserinfo/index.js'),
  await import('./geo/index.js'),
  await import('./censorship/index.js'),
  await import('./probe-countries/index.js'),
  await import('./macchecker/index.js'),
  await import('./map/index.js'),
  await import('./private-tools/index.js'),
  await import('./client-ip/index.js'),
  await import('./watch/index.js'),
];

const routes: FastifyPluginAsync = async (app) => {
  // Chosen before any capability: /api/configs tells whether it is ready, the report routes use it.
  for (const capability of CAPABILITIES) await app.register(capability.default);
};

export default routes;
