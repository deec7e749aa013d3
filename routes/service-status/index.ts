import type { FastifyTypeProviderDefault } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { guarded } from '../../schemas/guarded.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { PROVIDERS, providerIdGuard } from './providers.js';
import { StatusPoller } from './poller.js';
import { Detail, Overview } from '../../contract/service-status.js';

// Cacheable for the poll's five minutes once a round has ended; before it (start-up waits for the first
// round only briefly) every light is `unknown`, which no cache may keep for five minutes.
const cacheControl = (poller: StatusPoller) => (poller.checked ? 'public, max-age=300' : 'no-store');
/** How long start-up waits for the first round of status pages before listening anyway. */
const PRIME_WAIT_MS = 100;

/**
 * GET /api/service-status and /api/service-status/detail: answered from the
 * poller's snapshot (the overview already JSON); no request ever reaches a
 * status page.
 */
const serviceStatus: FastifyPluginAsyncTypebox = async (app) => {
  const poller = new StatusPoller({ upstream: app.upstream, providers: PROVIDERS, logger: app.log });
  app.lifecycle.addStep({
    phase: 'service-status',
    name: 'prime service status',
    run: () => poller.refresh(),
    // A status page that hangs would hold the listeners for the whole upstream
    // timeout; until the round ends the routes answer as before any refresh.
    waitAtMostMs: PRIME_WAIT_MS,
  });
  app.lifecycle.addStep({ phase: 'background', name: 'service-status poller', run: async () => poller.start() });
  app.lifecycle.onStop('service-status poller', () => poller.stop());
  app.readiness.addDataset('serviceStatus', () => poller.status());

  // The overview is JSON already, written once per refresh: a string with a JSON
  // type goes out without the serialiser. The schema stays for the contract;
  // the default type provider lets the handler send that string.
  app
    .withTypeProvider<FastifyTypeProviderDefault>()
    .get(
      '/service-status',
      { schema: { summary: 'Status lights of popular services', response: { 200: Overview } } },
      (_request, reply) =>
        reply
          .header('cache-control', cacheControl(poller))
          .type('application/json; charset=utf-8')
          .send(poller.overviewJson()),
    );

  app.get(
    '/service-status/detail',
    {
      schema: {
        summary: "One service's components and recent incidents",
        querystring: Type.Object({ id: guarded(providerIdGuard) }),
        response: { 200: Detail, 400: ErrorBody },
      },
    },
    async (request, reply) => {
      // The guard has checked the id against the same list the poller holds.
      const detail = poller.detail(request.query.id);
      if (detail === undefined) return reply.code(400).send({ error: 'Invalid provider id' });
      return reply.header('cache-control', cacheControl(poller)).send(detail);
    },
  );
};

export default serviceStatus;
export { examples } from './examples.js';
