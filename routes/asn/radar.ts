import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { applyGuard, type Guard } from '../../schemas/guarded.js';
import { asnGuard, countryGuard } from '../../schemas/guards.js';
import { ApiKeyMissing } from '../../lib/private-api.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AsnDatasets } from '../../datasets/asn/store.js';
import { ErrorAnswers, ErrorBody } from '../../schemas/error-body.js';
import type { RadarContext } from './radar-client.js';
import { asnProfile } from './radar-asn.js';
import { outagesFeed } from './radar-outages.js';
import { AsnProfile, Outages } from '../../contract/asn.js';
import { Activity, countryActivity } from './radar-activity.js';

const DAY = 24 * 60 * 60;

// A parameter given twice arrives as an array; the view's guard then answers "Invalid …".
const Param = Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())]));
const Query = Type.Object({ view: Param, asn: Param, country: Param });
const RadarAnswer = Type.Union([AsnProfile, Outages, Activity]);

interface ViewDef {
  /** Query parameter the view reads and the guard checking it. */
  param?: { name: 'asn' | 'country'; guard: Guard };
  ttl: number;
  run: (ctx: RadarContext, value: string) => Promise<Static<typeof RadarAnswer>>;
}

const VIEWS: Record<string, ViewDef> = {
  asn: { param: { name: 'asn', guard: asnGuard }, ttl: 30 * DAY, run: (ctx, asn) => asnProfile(ctx, Number(asn)) },
  // The spec does not give this view's TTL; the frontend contract's is 1 hour.
  outages: { ttl: 60 * 60, run: (ctx) => outagesFeed(ctx) },
  activity: {
    param: { name: 'country', guard: countryGuard },
    ttl: 60 * 60,
    run: (ctx, country) => countryActivity(ctx, country),
  },
};

/**
 * GET /api/asn-radar?view=: Cloudflare Radar views. The view is dispatched
 * here rather than by the schema's guards because each view has its own
 * guard, which must answer before the key check, and its own cache TTL.
 */
const radar: FastifyPluginAsyncTypebox<{ datasets: AsnDatasets }> = async (app, { datasets }) => {
  app.get(
    '/asn-radar',
    {
      // The spec allows GET alone: HEAD is answered 405 below with the other methods.
      exposeHeadRoute: false,
      schema: {
        summary: "An AS's profile (view=asn) or the outage feed (view=outages) from the traffic observatory",
        querystring: Query,
        response: { 200: RadarAnswer, ...ErrorAnswers },
      },
    },
    async (request, reply) => {
      const { view } = request.query;
      if (view === undefined || view === '') return reply.code(400).send({ error: 'No view provided' });
      if (typeof view !== 'string' || !Object.hasOwn(VIEWS, view)) {
        return reply.code(400).send({ error: 'Invalid view' });
      }
      const def = VIEWS[view]!;
      let value = '';
      if (def.param) {
        const checked = applyGuard(def.param.guard, request.query[def.param.name]);
        if (typeof checked !== 'string') return reply.code(400).send(checked);
        value = checked;
      }
      const key = app.config.RADAR_API_KEY.trim();
      if (!key) throw new ApiKeyMissing();
      const upstream = app.upstream.keeping(def.ttl * 1000);
      const body = await def.run({ upstream, key, datasets, failures: request }, value);
      reply.header('cache-control', `public, max-age=${def.ttl}`);
      return body;
    },
  );
  // Answered at onRequest, before Fastify reads a body: a QUERY without a
  // Content-Type or a POST with an unparseable one is still a 405, not a 400 or 415.
  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).send({ error: 'Method Not Allowed' });
  app.route({
    method: app.supportedMethods.filter((m) => m !== 'GET'),
    url: '/asn-radar',
    schema: { summary: 'Every method but GET: 405', response: { 405: ErrorBody } },
    onRequest: methodNotAllowed,
    handler: methodNotAllowed,
  });
};

export default radar;
