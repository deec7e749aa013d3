import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import { guarded } from '../../schemas/guarded.js';
import { asnGuard } from '../../schemas/guards.js';
import type { AsnDatasets } from '../../datasets/asn/store.js';
import { upstreamTopology, type NodeType } from '../../datasets/asn/topology.js';
import { ErrorAnswers } from '../../schemas/error-body.js';
import { Nullable } from '../../schemas/nullable.js';
import { StringEnum } from './string-enum.js';
import { cacheWhenComplete, type OrgNames } from './org-names.js';

const NODE_TYPES: readonly NodeType[] = ['origin', 'origin-tier1', 'tier1', 'intermediate'];

const Connectivity = Type.Object({
  origin: Type.Integer(),
  nodes: Type.Array(Type.Object({ asn: Type.Integer(), type: StringEnum(NODE_TYPES), name: Nullable(Type.String()) })),
  /** Customer → provider. */
  edges: Type.Array(Type.Object({ from: Type.Integer(), to: Type.Integer() })),
});
const Query = Type.Object({ asn: guarded(asnGuard) });
type ConnectivityBody = Static<typeof Connectivity>;

/** GET /api/asn-connectivity?asn=: the upstream graph toward the Tier-1s, from the local AS-relationship snapshot. */
const connectivity: FastifyPluginAsyncTypebox<{ datasets: AsnDatasets; orgNames: OrgNames }> = async (
  app,
  { datasets, orgNames },
) => {
  app.get(
    '/asn-connectivity',
    {
      schema: {
        summary: "An AS's upstream graph up to the Tier-1 networks, from the local AS-relationship data",
        querystring: Query,
        response: { 200: Connectivity, ...ErrorAnswers },
      },
    },
    async (request, reply): Promise<ConnectivityBody> => {
      const origin = Number(request.query.asn);
      const graph = datasets.graph;
      // Degraded, not an answer to keep for a month: no-store stays.
      if (!graph) return { origin, nodes: [], edges: [] };
      const topology = upstreamTopology(graph, origin);
      const asns = topology.nodes.map((n) => n.asn);
      const answer = await orgNames.names(asns);
      const nodes = topology.nodes.map((n, i) => ({ asn: n.asn, type: n.type, name: answer.names[i] ?? null }));
      cacheWhenComplete(reply, answer);
      return { origin, nodes, edges: topology.edges };
    },
  );
};

export default connectivity;
