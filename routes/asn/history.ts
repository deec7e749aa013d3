import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { guarded } from '../../schemas/guarded.js';
import { prefixGuard } from '../../schemas/guards.js';
import { isTimeout, UpstreamFailure } from '../../lib/upstream-failure.js';
import { ErrorAnswers } from '../../schemas/error-body.js';
import { AsnHistory } from '../../contract/asn.js';
import { historyRows, type RipeOrigin } from './history-rows.js';
import { cacheWhenComplete, NAME_WAIT_MS, type OrgNames } from './org-names.js';

const HISTORY_TTL = 30 * 24 * 60 * 60;

const Query = Type.Object({ prefix: guarded(prefixGuard) });

// RIPEstat leaves out announcements fewer peers saw; the rows drop them anyway (history-rows.ts).
const MIN_PEERS_SEEING = '30';

/** GET /api/asn-history?prefix=: the origin ASes that announced a prefix over time (RIPEstat routing-history). */
const history: FastifyPluginAsyncTypebox<{ orgNames: OrgNames }> = async (app, { orgNames }) => {
  app.get(
    '/asn-history',
    {
      schema: {
        summary: "A prefix's routing history: each origin AS, when and how widely seen",
        querystring: Query,
        response: { 200: AsnHistory, ...ErrorAnswers },
      },
    },
    async (request, reply): Promise<AsnHistory> => {
      // The prefix guard has already checked it (plugins/guards.ts).
      const started = performance.now();
      const { prefix } = request.query;
      const params = new URLSearchParams({
        resource: prefix,
        sourceapp: app.config.ROUTING_SOURCE_APP,
        min_peers_seeing: MIN_PEERS_SEEING,
      });
      let res;
      try {
        res = await app.upstream.json<{ data?: { by_origin?: unknown } }>(
          `https://stat.ripe.net/data/routing-history/data.json?${params}`,
          {
            keepForMs: HISTORY_TTL * 1000,
            keepIf: (body) => Array.isArray((body as { data?: { by_origin?: unknown } } | null)?.data?.by_origin),
          },
        );
      } catch (err) {
        throw isTimeout(err)
          ? new UpstreamFailure('timeout', 'routing-history timed out', { prefix })
          : new UpstreamFailure('unusable', 'routing-history request failed', { err, prefix });
      }
      if (res.status < 200 || res.status >= 300) {
        throw new UpstreamFailure('unusable', 'routing-history answered non-2xx', { status: res.status, prefix });
      }
      const origins = res.data?.data?.by_origin;
      if (!Array.isArray(origins)) {
        throw new UpstreamFailure('unusable', 'routing-history answered without data.by_origin', { prefix });
      }
      const rows = historyRows(origins as RipeOrigin[]);
      // The optional names get at most what the one upstream deadline has left after the history.
      const left = app.config.UPSTREAM_TIMEOUT_MS - (performance.now() - started);
      const answer = await orgNames.names(
        rows.map((r) => Number(r.asn)),
        Math.min(NAME_WAIT_MS, left),
      );
      rows.forEach((row, i) => (row.org = answer.names[i] ?? null));
      cacheWhenComplete(reply, answer);
      return { prefix, history: rows };
    },
  );
};

export default history;
