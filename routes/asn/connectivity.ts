import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import { guarded } from '../../schemas/guards.js';
import type { Upstream } from '../../lib/upstream.js';
import type { AsnDatasets } from '../../datasets/asn/store.js';
import { upstreamTopology } from '../../datasets/asn/topology.js';
import { ErrorBody } from '../../schemas/error-body.js';
import { Nullable } from '../../schemas/nullable.js';

const Connectivity = Type.Object({
  asn: Type.Integer(),
  dataset: Type.Union([Type.Literal('loaded'), Type.Literal('unavailable')]),
  found: Type.Boolean(),
  truncated: Type.Boolean(),
  nodes: Type.Array(
    Type.Object({
      asn: Type.Integer(),
      name: Nullable(Type.String()),
      country: Nullable(Type.String()),
      tier1: Type.Boolean(),
      depth: Type.Integer(),
    }),
  ),
  edges: Type.Array(Type.Object({ from: Type.Integer(), to: Type.Integer(), relation: Type.Union([Type.Literal('provider'), Type.Literal('peer')]) })),
});
type ConnectivityBody = Static<typeof Connectivity>;

const TTL = 30 * 24 * 60 * 60;
// RIPEstat is asked only for names the local snapshot lacks, and at most
// this many per answer; the rest stay null.
const MAX_NAME_LOOKUPS = 10;

async function holderName(upstream: Upstream, sourceApp: string, asn: number, log: FastifyBaseLogger): Promise<string | null> {
  try {
    const params = new URLSearchParams({ resource: `AS${asn}`, sourceapp: sourceApp });
    const body = await upstream.okJson<{ data?: { holder?: unknown } }>(`https://stat.ripe.net/data/as-overview/data.json?${params}`);
    return typeof body?.data?.holder === 'string' && body.data.holder ? body.data.holder : null;
  } catch (err) {
    log.warn({ err, asn }, 'as-overview lookup failed');
    return null;
  }
}

/** GET /api/asn-connectivity?asn=: the upstream graph toward the Tier-1s, from the local AS-relationship snapshot. */
const connectivity: FastifyPluginAsyncTypebox<{ datasets: AsnDatasets }> = async (app, { datasets }) => {
  app.get(
    '/asn-connectivity',
    { schema: { querystring: Type.Object({ asn: guarded('asn') }), response: { 200: Connectivity, '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request, reply): Promise<ConnectivityBody> => {
      const asn = Number(request.query.asn);
      const graph = datasets.graph;
      if (!graph) {
        // Degraded, not an answer to keep for a month: no-store stays.
        return { asn, dataset: 'unavailable', found: false, truncated: false, nodes: [], edges: [] };
      }
      const topology = upstreamTopology(graph, asn);
      const orgs = datasets.orgs;
      const nodes = topology.nodes.map((n) => {
        const org = orgs?.lookup(n.asn);
        return { asn: n.asn, name: org?.name ?? null, country: org?.country ?? null, tier1: n.tier1, depth: n.depth };
      });
      const unnamed = nodes.filter((n) => n.name === null).slice(0, MAX_NAME_LOOKUPS);
      await Promise.all(
        unnamed.map(async (n) => {
          n.name = await holderName(app.upstream, app.config.ROUTING_SOURCE_APP, n.asn, request.log);
        }),
      );
      reply.header('cache-control', `public, max-age=${TTL}`);
      return { asn, dataset: 'loaded', found: topology.found, truncated: topology.truncated, nodes, edges: topology.edges };
    },
  );
};

export default connectivity;
