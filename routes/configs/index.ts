import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Configs } from '../../contract/configs.js';
import { refererMatcher } from '../../plugins/referer-gate.js';

// Hostnames of the original public deployment of the site and its own test
// and development copies; `originalSite` lets the frontend show what only that
// deployment offers.
export const CANONICAL_HOSTNAMES = [
  'ipcheck.ing',
  'www.ipcheck.ing',
  'localtest.ipcheck.ing',
  'dev.ipcheck.ing',
  'test.ipcheck.ing',
];

/** GET /api/configs: which features this deployment has, as booleans only. */
const configs: FastifyPluginAsyncTypebox = async (app) => {
  const c = app.config;
  const fixed = {
    map: Boolean(c.MAP_API_KEY),
    ipInfo: Boolean(c.GEO_KEYED_A_API_KEY),
    ipChecking: Boolean(c.PRIVATE_API_KEY && c.PRIVATE_API_ENDPOINT),
    ip2location: Boolean(c.GEO_KEYED_C_API_KEY),
    cloudFlare: Boolean(c.RADAR_API_KEY),
    ipapiis: Boolean(c.GEO_KEYED_B_API_KEY),
  };
  // Every possible answer is built once: an object spread plus a property on
  // every request cost more CPU than the rest of the route (V8's slow path).
  // reportSharing is whether the chosen report store is ready now (a Redis may come and go).
  const answer = (originalSite: boolean, reportSharing: boolean) => ({ ...fixed, originalSite, reportSharing });
  const answers = {
    original: { sharing: answer(true, true), off: answer(true, false) },
    other: { sharing: answer(false, true), off: answer(false, false) },
  };
  const store = app.reportStore;
  const isOriginalSite = refererMatcher(new Set(CANONICAL_HOSTNAMES));
  app.get(
    '/configs',
    {
      schema: { summary: "Which of the site's features this server runs", response: { 200: Configs } },
      config: { cacheTtl: 60 * 60 },
    },
    // originalSite depends on the Referer too; the cache-control plugin's Vary: Referer covers it.
    // Synchronous: an async handler costs a promise and a microtask per request.
    (request, reply) => {
      const site = isOriginalSite(request.headers.referer ?? '') ? answers.original : answers.other;
      reply.send(store?.ready ? site.sharing : site.off);
    },
  );
};

export default configs;
export { examples } from './examples.js';
