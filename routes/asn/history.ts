import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { guarded } from '../../schemas/guards.js';
import { HttpError, UPSTREAM_ERROR } from '../../lib/http-error.js';
import { ErrorBody } from '../../schemas/error-body.js';

const Timeline = Type.Object({
  start: Type.String(),
  end: Type.String(),
  peersSeeing: Type.Number(),
  /** peersSeeing as a percentage of the highest peersSeeing in the answer, one decimal. */
  visibility: Type.Number(),
});
const History = Type.Object({
  prefix: Type.String(),
  queryStart: Type.Union([Type.String(), Type.Null()]),
  queryEnd: Type.Union([Type.String(), Type.Null()]),
  maxPeersSeeing: Type.Number(),
  origins: Type.Array(
    Type.Object({
      asn: Type.Union([Type.Integer(), Type.Null()]),
      prefixes: Type.Array(Type.Object({ prefix: Type.String(), timelines: Type.Array(Timeline) })),
    }),
  ),
});
type HistoryBody = Static<typeof History>;

interface RipeTimeline {
  starttime?: unknown;
  endtime?: unknown;
  full_peers_seeing?: unknown;
}
interface RipeRoutingHistory {
  data?: {
    query_starttime?: unknown;
    query_endtime?: unknown;
    by_origin?: Array<{ origin?: unknown; prefixes?: Array<{ prefix?: unknown; timelines?: RipeTimeline[] }> }>;
  };
}

/** RIPEstat routing-history, reshaped with each timeline's visibility relative to the best-seen one. */
function shapeHistory(prefix: string, body: RipeRoutingHistory): HistoryBody {
  const data = body.data;
  if (!data || !Array.isArray(data.by_origin)) throw new HttpError(502, UPSTREAM_ERROR);
  const origins = data.by_origin.map((o) => ({
    asn: /^(?:AS)?\d+$/i.test(String(o.origin ?? '')) ? Number(String(o.origin).replace(/^AS/i, '')) : null,
    prefixes: (Array.isArray(o.prefixes) ? o.prefixes : []).map((p) => ({
      prefix: String(p.prefix ?? ''),
      timelines: (Array.isArray(p.timelines) ? p.timelines : []).map((t) => ({
        start: String(t.starttime ?? ''),
        end: String(t.endtime ?? ''),
        peersSeeing: typeof t.full_peers_seeing === 'number' && Number.isFinite(t.full_peers_seeing) ? t.full_peers_seeing : 0,
        visibility: 0,
      })),
    })),
  }));
  let max = 0;
  for (const o of origins) for (const p of o.prefixes) for (const t of p.timelines) max = Math.max(max, t.peersSeeing);
  for (const o of origins) for (const p of o.prefixes) for (const t of p.timelines) t.visibility = max ? Math.round((t.peersSeeing / max) * 1000) / 10 : 0;
  return {
    prefix,
    queryStart: typeof data.query_starttime === 'string' ? data.query_starttime : null,
    queryEnd: typeof data.query_endtime === 'string' ? data.query_endtime : null,
    maxPeersSeeing: max,
    origins,
  };
}

/** GET /api/asn-history?prefix=: historical BGP announcements of a prefix (RIPEstat routing-history). */
const history: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/asn-history',
    {
      schema: { querystring: Type.Object({ prefix: guarded('prefix') }), response: { 200: History, '4xx': ErrorBody, '5xx': ErrorBody } },
      config: { cacheTtl: 30 * 24 * 60 * 60 },
    },
    async (request) => {
      // The prefix guard has already checked it (plugins/guards.ts).
      const prefix = request.query.prefix as string;
      const params = new URLSearchParams({ resource: prefix, sourceapp: app.config.ROUTING_SOURCE_APP });
      let res;
      try {
        res = await app.upstream.json<RipeRoutingHistory>(`https://stat.ripe.net/data/routing-history/data.json?${params}`);
      } catch (err) {
        request.log.warn({ err, prefix }, 'routing-history request failed');
        throw new HttpError(502, UPSTREAM_ERROR);
      }
      if (res.status < 200 || res.status >= 300) {
        request.log.warn({ status: res.status, prefix }, 'routing-history answered non-2xx');
        throw new HttpError(502, UPSTREAM_ERROR);
      }
      return shapeHistory(prefix, res.data);
    },
  );
};

export default history;
