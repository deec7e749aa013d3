import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { guarded } from '../../schemas/guarded.js';
import { asnGuard } from '../../schemas/guards.js';
import type { AsnDatasets } from '../../datasets/asn/store.js';
import { upstreamTopology } from '../../datasets/asn/topology.js';
import { ErrorAnswers } from '../../schemas/error-body.js';
import { Connectivity } from '../../contract/asn.js';
import { cacheWhenComplete, type OrgNames } from './org-names.js';

const Query = Type.Object({ asn: guarded(asnGuard) });

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
    async (request, reply): Promise<Connectivity> => {
      const origin = Number(request.query.asn);
      const graph = datasets.graph;
      // Degraded, not an answer to keep for a month: no-store stays.
      if (!graph) return { origin, nodes: [], edges: [], relationships: null, snapshot: null };
      const snapshot = datasets.status('relationships').updatedAt?.toISOString().slice(0, 10) ?? null;
      const topology = upstreamTopology(graph, origin);
      const asns = topology.nodes.map((n) => n.asn);
      const answer = await orgNames.names(asns);
      const nodes = topology.nodes.map((n, i) => ({ asn: n.asn, type: n.type, name: answer.names[i] ?? null }));
      cacheWhenComplete(reply, answer);
      return { origin, nodes, edges: topology.edges, relationships: graph.relationCounts(origin) ?? null, snapshot };
    },
  );
};

export default connectivity;
